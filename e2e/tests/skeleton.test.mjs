// Walking skeleton: the start page lists the synthetic sample; opening it loads the bundle over
// HTTP from `runlens serve`, recomputes ranking curves in WASM and draws them on a canvas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, OUT } from './server.mjs';
import { launch, newPage, drawnPixels } from './browser.mjs';

let server;
let browser;
before(async () => {
  mkdirSync(OUT, { recursive: true });
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the sample opens from the start page and its recall curve is drawn', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url);
  const link = page.locator('a.sample-link').first();
  await link.waitFor({ timeout: 20000 });
  assert.match(await page.locator('.samples').innerText(), /synthetic sample/);
  // The description's backticked command is code, not literal backticks (#17, bug 10).
  assert.equal(await page.locator('.samples li').first().locator('p code').first().innerText(),
    'runlens synth --preset article --seed 1');
  assert.doesNotMatch(await page.locator('.samples').innerText(), /`/);
  await link.click();
  // The leaderboard is the first view; the recall curve lives on the ranking tab.
  await page.waitForSelector('[data-testid="leaderboard-view"]', { timeout: 30000 });
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  await page.waitForSelector('[data-metric^="recall@"]', { timeout: 30000 });
  assert.match(page.url(), /\?bundle=bundles\/article\.zip&h=[0-9a-f]{12}&tab=ranking$/);
  // The synthetic notice once (#17): the bundle's own words, in the badge.
  assert.match(await page.locator('[data-testid="synthetic-badge"]').innerText(), /synthetic/i);
  assert.equal(await page.locator('.bundle-header').getByText(/not real benchmark results/).count(), 1);
  const canvas = 'canvas.chart';
  await page.waitForFunction((sel) => document.querySelector(sel) !== null, canvas);
  // plotters draws synchronously inside the effect; give the effect one frame.
  await page.waitForTimeout(200);
  const drawn = await drawnPixels(page, canvas);
  assert.ok(drawn > 1000, `only ${drawn} canvas pixels drawn`);
  const recall10 = Number(await page.getAttribute('[data-metric="recall@10"]', 'data-value'));
  assert.ok(recall10 > 0 && recall10 <= 1, `recall@10 = ${recall10}`);
  // caret: 'initial' keeps playwright from injecting a <style> (which the CSP rightly blocks).
  await page.screenshot({ path: path.join(OUT, 'skeleton.png'), fullPage: true, caret: 'initial' });
  assert.deepEqual(problems, []);
});

test('a missing bundle is explained in plain words, and the page stays usable', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/missing.json`);
  const panel = page.locator('[data-testid="error-panel"]');
  await panel.waitFor({ timeout: 20000 });
  assert.match(await panel.innerText(), /HTTP 404.*not found/s);
  await page.getByText('Back to the start page').click();
  await page.locator('a.sample-link').first().waitFor({ timeout: 20000 });
  // The 404 itself is logged by the browser as a failed resource load; nothing else may be.
  assert.deepEqual(problems.filter((p) => !/Failed to load resource.*404/.test(p)), []);
});
