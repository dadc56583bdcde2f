// The question × model matrix on the sample, through the loader worker: its counts equal
// the marks written out here from the bundle's JSON by the rule docs/metrics.md states
// ("Question × model matrix"); "failures only" keeps the rows some model failed; a cell
// opens its trajectory; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const DEV = 'text2sqlbench-synthetic-dev';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

/** The mark of one cell, as docs/metrics.md defines it. */
function mark(cell) {
  if (!cell) return 'missing';
  const outcome = cell.result_score?.outcome;
  if (outcome === 'pass' || outcome === 'tie') return outcome;
  if ((cell.error ?? '').includes('max turns')) return 'turn_limited';
  if (outcome === 'fail' || outcome === 'loss' || outcome === 'error') return outcome;
  if (outcome === undefined && cell.error != null) return 'error';
  return 'unknown';
}

function expected() {
  const bundle = JSON.parse(gunzipSync(readFileSync(path.join(ROOT, 'public', 'bundles', 'article.json.gz'))));
  const corpus = bundle.body.corpora.find((c) => c.name === DEV);
  const counts = {};
  let failing = 0;
  for (const row of corpus.results) {
    const marks = corpus.models.map((m) => mark(row.candidates[m]));
    for (const m of marks) counts[m] = (counts[m] ?? 0) + 1;
    if (marks.some((m) => m === 'fail' || m === 'loss' || m === 'turn_limited')) failing += 1;
  }
  return { rows: corpus.results.length, counts, failing };
}

async function metric(page, name) {
  const el = page.locator(`[data-testid="matrix-view"] [data-metric="${name}"]`);
  await el.waitFor({ timeout: 30000 });
  return Number(await el.getAttribute('data-value'));
}

test('the matrix counts every mark as the bundle has it, filters failures and opens a cell', async () => {
  const want = expected();
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=matrix&corpus=${DEV}`);
  assert.equal(await metric(page, 'matrix:rows'), want.rows);
  for (const [key, n] of Object.entries(want.counts)) {
    assert.equal(await metric(page, `matrix:cells:${key}`), n, key);
  }
  await page.getByTestId('matrix-failures').check();
  await page.waitForSelector('[data-testid="matrix-view"][data-pending="false"]');
  assert.match(page.url(), /mxfail=1/);
  await page.waitForFunction((n) => document.querySelector('[data-metric="matrix:rows"]')?.getAttribute('data-value') === String(n),
    want.failing, { timeout: 30000 });
  // The first failed cell in view opens its trajectory.
  const cell = page.locator('.mx-cell[data-outcome="fail"]').first();
  const id = await cell.getAttribute('data-trajectory');
  // Model keys may hold a slash (`openai/gpt-4.1`); trace ids do not.
  const cut = id.lastIndexOf('/');
  const [model, trace] = [id.slice(0, cut), id.slice(cut + 1)];
  await cell.click();
  await page.waitForSelector(`[data-trajectory="${id}"][data-pending="false"]`, { timeout: 30000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('tab'), 'trajectory');
  assert.equal(url.searchParams.get('tmodel'), model);
  assert.equal(url.searchParams.get('trace'), trace);
  assert.equal(await page.getByTestId('trajectory-outcome').innerText(), 'fail');
  assert.deepEqual(problems, []);
});
