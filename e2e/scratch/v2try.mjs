import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';
const server = await startServer(['--bundles', '/tmp/v2b']);
const browser = await launch();
async function open(q) {
  const { page, problems } = await newPage(browser);
  const reqs = [];
  page.on('request', (r) => { if (r.url().includes('bundles/')) reqs.push(`${r.method()} ${r.url().replace(server.url, '')} ${r.headers()['range'] ?? ''}`); });
  const t0 = Date.now();
  await page.goto(`${server.url}?bundle=${q}`);
  try {
    await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 60000 });
  } catch (e) { console.log(q, 'FAILED', await page.locator('body').innerText()); }
  const ms = Date.now() - t0;
  const vals = await page.$$eval('[data-metric^="pass:"]', (els) => els.map((e) => `${e.dataset.metric}=${e.dataset.value}`).join(' '));
  const attrs = await page.$eval('.bundle-header', (h) => ({ v2: h.dataset.loadV2, req: h.dataset.loadRequests, dl: h.dataset.loadDownloadBytes }));
  console.log(q, ms, 'ms', JSON.stringify(attrs), problems, '\n  reqs:', reqs.join('\n  '), '\n  hash', await page.locator('[data-testid="bundle-hash"]').innerText(), vals.length);
  return vals;
}
const a = await open('bundles/article.json.gz');
const b = await open('bundles/article.zip');
const c = await open('bundles/article/');
console.log('equal zip', a === b, 'equal dir', a === c);
await browser.close(); await server.stop();
