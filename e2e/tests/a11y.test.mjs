// Accessibility (#17): axe-core (the npm package, run in the page) finds no serious or
// critical violation on any view, in the light and the dark scheme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const DEV = 'text2sqlbench-synthetic-dev';
const TRACE = 'e0a350e98f047e596b61450060b0f0cd';
// Each view and what shows it is drawn.
const VIEWS = {
  leaderboard: ['', '[data-testid="leaderboard-view"] canvas[role="img"]'],
  matrix: [`&tab=matrix&corpus=${DEV}`, '.mx-row[data-trace]'],
  ranking: ['&tab=ranking', '[data-testid="ranking-view"] [data-metric^="recall@"]'],
  failures: [`&tab=failures&corpus=${DEV}`, '.fail-row[data-trace]'],
  audit: [`&tab=audit&corpus=${DEV}`, '[data-testid="audit-detail"]'],
  gate: ['&tab=gate', '[data-testid="gate-headline"]'],
  trajectory: [`&tab=trajectory&corpus=${DEV}&tmodel=gpt-4.1&trace=${TRACE}`, '[data-testid="relabel-panel"]'],
};
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

test('no serious or critical axe-core violation on any view, light and dark', async () => {
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script: the app's Content-Security-Policy would refuse it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme, bypassCSP: true });
    const page = await context.newPage();
    for (const [name, [query, ready]] of Object.entries(VIEWS)) {
      await page.goto(`${server.url}?bundle=bundles/article.json.gz${query}`);
      await page.waitForSelector(ready, { timeout: 60000 });
      await page.waitForTimeout(300);
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      for (const v of violations) found.push(`${colorScheme} ${name}: ${v}`);
    }
    await context.close();
  }
  assert.deepEqual(found, []);
});
