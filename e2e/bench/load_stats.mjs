// When a v2 bundle opened at the ranking view shows its summary, the ranking numbers and the
// whole bundle (ms from navigation), with the header's load figures (the worker's wasm memory
// among them). Not a test. Usage: RUNLENS_BIN=… node e2e/bench/load_stats.mjs (two runs of
// bundles/large.zip from target/bench-bundles).
import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';
const server = await startServer(['--bundles', 'target/bench-bundles']);
const browser = await launch();
for (let i = 0; i < 2; i++) {
  const { page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.addInitScript(() => {
    window.__t = {};
    new MutationObserver(() => {
      const h = document.querySelector('.bundle-header');
      if (h && !window.__t.summary && h.dataset.loadSummary === 'true') window.__t.summary = performance.now();
      if (h && !window.__t.whole && h.dataset.loadSummary === 'false') window.__t.whole = performance.now();
      if (!window.__t.rank && document.querySelector('[data-testid="ranking-view"] [data-metric^="recall@"]')) window.__t.rank = performance.now();
    }).observe(document, { childList: true, subtree: true, attributes: true });
  });
  await page.goto(`${server.url}?bundle=bundles/large.zip&tab=ranking`);
  await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  await page.waitForSelector('[data-testid="ranking-view"] [data-metric^="recall@"]', { timeout: 60000 });
  const stats = await page.$eval('.bundle-header', (h) => ({ ...h.dataset }));
  console.log(JSON.stringify(await page.evaluate(() => window.__t)), JSON.stringify(stats));
  await page.context().close();
}
await browser.close(); await server.stop();
