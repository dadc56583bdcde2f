// Screenshots of the compare view (not a test; run by hand): 1440 px, 390 px, dark.
import { startServer } from './tests/server.mjs';
import { launch, newPage } from './tests/browser.mjs';

const server = await startServer(['--site', '/tmp/site-cmp']);
const browser = await launch();
const A = 'bundles/article.zip';
const B = 'bundles/article-variant-1.zip';
const shots = [
  ['compare-1440', { width: 1440, height: 1000 }, 'light', `?bundle=${A}&compare=${B}`],
  ['compare-390', { width: 390, height: 844 }, 'light', `?bundle=${A}&compare=${B}`],
  ['compare-dark', { width: 1440, height: 1000 }, 'dark', `?bundle=${A}&compare=${B}`],
  ['compare-side-1440', { width: 1440, height: 1000 }, 'light', `?bundle=${A}&compare=${B}&cm=glm-5.2&cc=text2sqlbench-synthetic-dev&cq=FIRST`],
  ['compare-side-390', { width: 390, height: 844 }, 'dark', `?bundle=${A}&compare=${B}&cm=glm-5.2&cc=text2sqlbench-synthetic-dev&cq=FIRST`],
  ['compare-choose-1440', { width: 1440, height: 1000 }, 'light', `?bundle=${A}&tab=compare`],
  ['start-picker-390', { width: 390, height: 844 }, 'light', ''],
];
let first = null;
for (const [name, viewport, scheme, q] of shots) {
  const { page, problems } = await newPage(browser, { viewport, colorScheme: scheme });
  let query = q;
  if (q.includes('cq=FIRST')) {
    if (!first) {
      await page.goto(`${server.url}?bundle=${A}&compare=${B}&cm=glm-5.2`);
      const li = page.locator('.compare-corpus[data-corpus="text2sqlbench-synthetic-dev"] [data-testid="flip-list"] li').first();
      await li.waitFor({ timeout: 60000 });
      first = await li.getAttribute('data-trace');
    }
    query = q.replace('FIRST', first);
  }
  await page.goto(`${server.url}${query}`);
  if (q.includes('compare=')) await page.locator('[data-testid="compare-body"][data-answered="true"]').waitFor({ timeout: 60000 });
  if (q.includes('cq=')) {
    await page.locator('[data-testid="side-by-side"] .side[data-run="b"] [data-run="candidate"]').waitFor({ timeout: 60000 });
    await page.locator('[data-testid="side-by-side"]').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  }
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: !q.includes('cq=') });
  if (q.includes('cq=')) await page.screenshot({ path: `/tmp/shots/${name}-view.png` });
  console.log(name, problems);
  await page.context().close();
}
await browser.close();
await server.stop();
