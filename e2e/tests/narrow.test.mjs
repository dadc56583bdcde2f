// A 390 px wide screen (#17, bug 3): the tabs collapse into a menu that fits the screen,
// every view can be chosen from it, and no view scrolls the page sideways (wide tables and
// the failure list scroll in place). At 1440 px the tab strip shows and the menu does not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('at 390 px the tabs are a menu that fits the screen and the views do not widen the page', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 60000 });
  assert.equal(await page.isVisible('.tabs'), false, 'the tab strip is hidden');
  const menu = page.getByTestId('tabs-menu');
  assert.equal(await menu.isVisible(), true);
  const box = await menu.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the menu spans ${box.x}–${box.x + box.width}`);
  assert.equal(await menu.inputValue(), 'leaderboard');
  const labels = await menu.locator('option').allTextContents();
  assert.deepEqual(labels, ['Leaderboard', 'Matrix', 'Table ranking', 'Failures', 'Audit queue', 'Gate', 'Trajectory', 'Compare']);
  for (const tab of ['matrix', 'ranking', 'failures', 'audit', 'gate', 'trajectory', 'compare', 'leaderboard']) {
    await menu.selectOption(tab);
    await page.waitForSelector(`[data-testid="${tab}-view"]`, { timeout: 60000 });
    if (tab !== 'leaderboard') assert.match(page.url(), new RegExp(`tab=${tab}`));
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, tab);
  }
  // Back in the address's history: the menu shows the view shown.
  await page.goBack();
  await page.waitForSelector('[data-testid="compare-view"]', { timeout: 60000 });
  assert.equal(await menu.inputValue(), 'compare');
  // Wide again: the strip, not the menu.
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.equal(await page.isVisible('.tabs'), true);
  assert.equal(await menu.isVisible(), false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 390 px an open trajectory (its gold and candidate runs side by side when wide) fits the screen', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=trajectory&corpus=text2sqlbench-synthetic-dev`
    + '&tmodel=gpt-4.1&trace=e0a350e98f047e596b61450060b0f0cd');
  await page.waitForSelector('[data-testid="trajectory-view"][data-pending="false"] .runs', { timeout: 60000 });
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  assert.deepEqual(problems, []);
  await context.close();
});
