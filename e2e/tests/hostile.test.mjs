// The synthetic sample's own hostile strings (crates/synth/src/names.rs: `<script>…`,
// `<img onerror>`) in question text, SQL comments, final answers and judge reasons appear
// verbatim as text in the trajectory viewer, the failures list and the audit queue, and
// nothing executes: no dialog, no console error, no element made from bundle text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const BUNDLE = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** The first cell (corpus, model, trace) whose final answer or SQL holds `needle`. */
function cellWith(needle) {
  const bundle = JSON.parse(gunzipSync(readFileSync(BUNDLE)).toString('utf8'));
  for (const corpus of bundle.body.corpora) {
    for (const row of corpus.results) {
      for (const [model, cell] of Object.entries(row.candidates ?? {})) {
        if (!cell) continue;
        const text = [cell.final_answer ?? '', ...(cell.sqls ?? [])].join('\n');
        if (text.includes(needle)) return { corpus: corpus.name, model, trace: row.trace_id };
      }
    }
  }
  return null;
}

async function assertInert(page) {
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'an <img> was made from bundle text');
  assert.equal(await page.locator('script:not([src])', { hasText: 'alert' }).count(), 0);
  assert.equal(await page.locator('#panic-banner').count(), 0);
}

for (const needle of [SCRIPT, IMG]) {
  test(`${needle} in a trajectory is shown as text and does not run`, async () => {
    const cell = cellWith(needle);
    assert.ok(cell, `the sample has a cell holding ${needle}`);
    const { page, problems } = await newPage(browser);
    await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=trajectory&corpus=${cell.corpus}`
      + `&tmodel=${encodeURIComponent(cell.model)}&trace=${cell.trace}`);
    const root = page.locator(`[data-trajectory="${cell.model}/${cell.trace}"]`);
    await root.waitFor({ timeout: 30000 });
    await page.waitForFunction((n) => document.querySelector('[data-testid="trajectory-view"]')?.innerText.includes(n),
      needle, { timeout: 30000 });
    await assertInert(page);
    assert.deepEqual(problems, []);
  });
}

test('hostile question text in the failures list and the audit queue stays text', async () => {
  const { page, problems } = await newPage(browser);
  for (const tab of ['failures', 'audit']) {
    await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=${tab}`);
    await page.getByTestId(`${tab}-view`).waitFor({ timeout: 30000 });
    await page.waitForTimeout(300);
    await assertInert(page);
  }
  assert.deepEqual(problems, []);
});
