import { launch } from './tests/browser.mjs';
import { startServer } from './tests/server.mjs';
const server = await startServer(['--bundles', '/tmp/lossb']);
const browser = await launch();
const base = `${server.url}?bundle=bundles/loss.json.gz`;
for (const [name, opts] of [['1440', { viewport: { width: 1440, height: 900 } }], ['390', { viewport: { width: 390, height: 844 } }], ['dark', { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' }]]) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(base);
  await page.waitForSelector('[data-testid="loss-notice"]', { timeout: 30000 });
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shots/loss-${name}.png` });
  const notice = await page.$('[data-testid="loss-notice"]');
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `/tmp/shots/loss-${name}-notice.png` });
  await page.click('[data-testid="loss-as-fail"]');
  await page.waitForTimeout(800);
  console.log(name, page.url(), await page.$eval('[data-testid="loss-notice"] span', (e) => e.textContent));
  await page.screenshot({ path: `/tmp/shots/loss-${name}-asfail.png` });
  await ctx.close();
}
await browser.close();
await server.stop();
