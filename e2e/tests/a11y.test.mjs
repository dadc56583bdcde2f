// Accessibility (#17): axe-core (the npm package, run in the page) finds no serious or
// critical violation on any view, in the light and the dark scheme; each view is saved as
// e2e/out/views/<view>-1440.png and <view>-dark.png to be looked at (the 390 px ones come from
// journeys.test.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, OUT } from './server.mjs';
import { launch } from './browser.mjs';
import { VIEWS } from './views.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let server;
let browser;
const SHOTS = path.join(OUT, 'views');
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(SHOTS, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

test('no serious or critical axe-core violation on any view, light and dark', async () => {
  const found = [];
  for (const colorScheme of ['light', 'dark']) {
    // axe is injected as a script: the app's Content-Security-Policy would refuse it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme, bypassCSP: true });
    const page = await context.newPage();
    for (const [name, [query, ready]] of Object.entries(VIEWS)) {
      await page.goto(`${server.url}?bundle=bundles/article.zip${query}`);
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
      const mode = colorScheme === 'dark' ? 'dark' : '1440';
      await page.screenshot({ path: path.join(SHOTS, `${name}-${mode}.png`), fullPage: true });
    }
    await context.close();
  }
  assert.deepEqual(found, []);
});
