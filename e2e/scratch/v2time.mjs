import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';
const server = await startServer(['--bundles', process.env.B || '/tmp/v2b']);
const browser = await launch();
const names = (process.env.N || 'article.json.gz,article.zip').split(',');
for (let round = 0; round < (Number(process.env.R) || 3); round++) for (const n of names) {
  const { page } = await newPage(browser);
  const t0 = Date.now();
  await page.goto(`${server.url}?bundle=bundles/${n}`);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 120000 });
  const ms = Date.now() - t0;
  const a = await page.$eval('.bundle-header', (h) => ({ ...h.dataset }));
  const root = await page.evaluate(() => ({ ...document.documentElement.dataset }));
  console.log(n, ms, 'ms', JSON.stringify(a), JSON.stringify(root));
  await page.context().close();
}
await browser.close(); await server.stop();
