// Loading: the sample opens with a progress bar and then the leaderboard; a folder of raw
// harness files written by `runlens synth` is imported in the browser (the loader worker)
// with exactly the pass rates of `runlens export` + `runlens metrics --json`; broken and
// hostile files show an error or text, never script, and the app stays usable; a slow load
// can be cancelled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { startServer, ROOT, OUT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const BIN = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens');
const WORK = path.join(ROOT, 'target', 'e2e-loading');
const SYNTH = path.join(WORK, 'files');
const CORPORA = ['text2sqlbench-synthetic-dev', 'text2sqlbench-synthetic'];
let server;
let browser;

before(async () => {
  mkdirSync(OUT, { recursive: true });
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  execFileSync(BIN, ['synth', '--preset', 'article', '--seed', '1', '--out', SYNTH], { stdio: 'ignore' });
  execFileSync(BIN, ['export', path.join(SYNTH, CORPORA[0]), path.join(SYNTH, CORPORA[1]), path.join(SYNTH, 'out'),
    '--schema', path.join(SYNTH, 'schema.md'), '--rules', path.join(SYNTH, 'rules.yaml'), '--synthetic', '--quiet',
    '--output', path.join(WORK, 'exported.json.gz')], { stdio: 'ignore' });
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.stop(); });

function cliPass(corpus) {
  const out = execFileSync(BIN, ['metrics', path.join(WORK, 'exported.json.gz'), '--json', '--corpus', corpus,
    '--resamples', '100'], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8')).leaderboard.filter((r) => r.pass !== null);
}

async function shownPass(page, corpus) {
  return page.$$eval(`.corpus-board[data-corpus="${corpus}"] [data-metric^="pass:"]`,
    (els) => Object.fromEntries(els.map((e) => [e.dataset.metric.slice(5), Number(e.dataset.value)])));
}

async function drop(page, files) {
  const dt = await page.evaluateHandle((list) => {
    const d = new DataTransfer();
    for (const { name, content } of list) d.items.add(new File([content], name));
    return d;
  }, files);
  await page.dispatchEvent('[data-testid="drop-zone"]', 'drop', { dataTransfer: dt });
}

test('the sample shows a progress bar, then the leaderboard, loaded in the worker', async () => {
  const { page, problems } = await newPage(browser);
  // The bar may come and go before `goto` returns (it waits for the load event), so the page
  // records it from its first script on.
  await page.addInitScript(() => {
    window.__progressSeen = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="load-progress"]')) window.__progressSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.__progressSeen), true);
  assert.equal(await page.locator('[data-testid="load-progress"]').count(), 0);
  const hash = await page.locator('[data-testid="bundle-hash"]').innerText();
  assert.match(hash, /^[0-9a-f]{12}$/);
  // Loaded by the worker prestart.js started, from the download it began before its module ran.
  const loaded = page.locator('.loaded-bundle');
  assert.equal(await loaded.getAttribute('data-load-in-worker'), 'true');
  assert.equal(await loaded.getAttribute('data-load-prefetched'), 'true');
  assert.deepEqual(problems, []);
});

test('a folder of raw harness files imports with the pass rates of runlens export + metrics', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url);
  await page.locator('[data-testid="open-folder"]').setInputFiles(SYNTH);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 120000 });
  for (const corpus of CORPORA) {
    const expected = cliPass(corpus);
    assert.ok(expected.length >= 20, `${corpus}: ${expected.length} models`);
    const shown = await shownPass(page, corpus);
    assert.equal(Object.keys(shown).length, expected.length, corpus);
    for (const row of expected) assert.equal(shown[row.model], row.pass, `${corpus} ${row.model}`);
  }
  await page.screenshot({ path: path.join(OUT, 'loading-import.png'), fullPage: true, caret: 'initial' });
  assert.deepEqual(problems, []);
});

test('broken and hostile files: an error naming file and line, text not script, the app stays usable', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url);
  await page.locator('[data-testid="drop-zone"]').waitFor({ timeout: 20000 });
  // A truncated JSON Lines file from core's broken-file corpus, as results.jsonl.
  const truncated = readFileSync(path.join(ROOT, 'crates/core/tests/data/broken/truncated.jsonl'), 'utf8');
  await drop(page, [{ name: 'notes.txt', content: 'not a harness file' }, { name: 'results.jsonl', content: truncated }]);
  const panel = page.locator('[data-testid="error-panel"]');
  await panel.waitFor({ timeout: 30000 });
  assert.match(await panel.innerText(), /results\.jsonl:2: expected a complete JSON object/);
  // The warnings met before the error are listed beside it.
  const warnings = page.locator('[data-testid="import-warnings"]');
  assert.equal(await warnings.getAttribute('data-count'), '1');
  assert.match(await warnings.textContent(), /notes\.txt: not a harness file runlens reads; ignored/);
  // A broken bundle: JSON cut short.
  await drop(page, [{ name: 'broken.json', content: '{"format": "runlens.bundle/1", "content_hash": "<img src=x onerror=alert(1)>",' }]);
  await page.waitForFunction(() => /broken\.json/.test(document.querySelector('[data-testid="error-panel"]')?.innerText ?? ''), null, { timeout: 30000 });
  assert.match(await panel.innerText(), /line \d+, column \d+/);
  // Hostile names in a valid file are imported and shown as text.
  const hostile = '<img src=x onerror=alert(1)>';
  const row = { trace_id: '<script>alert(2)</script>', candidates: { [hostile]: { turns: 1, result_score: { outcome: 'pass' } } } };
  await drop(page, [{ name: 'results.jsonl', content: `${JSON.stringify(row)}\n` }]);
  // The board's rows are the worker's answer: they come a moment after the view.
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 30000 });
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.equal(await page.locator('script:not([src])', { hasText: 'alert' }).count(), 0);
  assert.match(await page.locator('body').innerText(), /<img src=x onerror=alert\(1\)>/);
  // Still usable: the sample opens from the URL field.
  await page.goto(server.url);
  await page.locator('[data-testid="open-url"]').fill('bundles/article.json.gz');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 60000 });
  assert.match(page.url(), /\?bundle=bundles\/article\.json\.gz&h=[0-9a-f]{12}$/);
  assert.equal(await page.locator('#panic-banner').count(), 0);
  assert.deepEqual(problems, []);
});

test('a bundle whose body does not match its content hash opens, then the check in the worker replaces it with the error', async () => {
  // The exported sample with one changed word in the body the hash covers.
  const dir = path.join(WORK, 'tampered');
  mkdirSync(dir, { recursive: true });
  const bundle = JSON.parse(gunzipSync(readFileSync(path.join(WORK, 'exported.json.gz'))).toString('utf8'));
  bundle.body.notice = `${bundle.body.notice} (edited)`;
  writeFileSync(path.join(dir, 'tampered.json.gz'), gzipSync(JSON.stringify(bundle)));
  const own = await startServer(['--bundles', dir]);
  try {
    const { page, problems } = await newPage(browser);
    await page.goto(`${own.url}?bundle=bundles/tampered.json.gz`);
    const panel = page.locator('[data-testid="error-panel"]');
    await panel.waitFor({ timeout: 60000 });
    const text = await panel.innerText();
    assert.match(text, /tampered\.json\.gz/);
    assert.match(text, new RegExp(`content_hash ${bundle.content_hash} does not match the body \\(computed [0-9a-f]{64}\\)`));
    // The views are gone and the open controls are back.
    assert.equal(await page.locator('[data-testid="leaderboard-view"]').count(), 0);
    await page.locator('[data-testid="open-url"]').waitFor({ timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await own.stop();
  }
});

test('a slow import can be cancelled, and the next load works', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url);
  await page.locator('[data-testid="open-folder"]').setInputFiles(SYNTH);
  await page.locator('button.load-cancel').click({ timeout: 20000 });
  await page.locator('[data-testid="load-cancelled"]').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('[data-testid="load-progress"]').count(), 0);
  // Nothing from the cancelled load arrives later.
  await page.waitForTimeout(3000);
  assert.equal(await page.locator('[data-testid="leaderboard-view"]').count(), 0);
  await drop(page, [{ name: 'results.jsonl', content: '{"trace_id": "q1", "candidates": {"m1": null}}\n' }]);
  await page.waitForSelector('[data-testid="leaderboard-view"]', { timeout: 30000 });
  assert.deepEqual(problems, []);
});
