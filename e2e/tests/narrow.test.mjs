// A 390 px wide screen (#17, bug 3): the tab bar scrolls within itself instead of widening
// the page, every tab can be reached and opened, and no view scrolls the page sideways
// (wide tables and the failure list scroll in place).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('at 390 px the tab bar fits the screen and the views do not widen the page', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 60000 });
  const bar = await page.$eval('.tabs', (t) => ({ right: t.getBoundingClientRect().right, scroll: t.scrollWidth, box: t.clientWidth }));
  assert.ok(bar.right <= 390, `tab bar ends at ${bar.right}`);
  // The six tabs are wider than the screen: the bar scrolls.
  assert.ok(bar.scroll > bar.box, `${bar.scroll} ≤ ${bar.box}`);
  for (const tab of ['leaderboard', 'ranking', 'failures', 'audit', 'gate', 'trajectory']) {
    // Playwright scrolls the bar to the tab before it clicks, as a reader would.
    await page.click(`button[data-tab="${tab}"]`);
    await page.waitForSelector(`[data-testid="${tab}-view"]`, { timeout: 60000 });
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, tab);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
