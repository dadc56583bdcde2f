// runlens.bundle/2 in the browser: the sample converted by `runlens convert` to a zip and to a
// directory opens by URL (the zip by HTTP Range requests only) and from disk (file picker,
// folder picker) with exactly the numbers of the v1 file, and a trajectory opens from the zip;
// a host that ignores Range still works (whole file, with a notice); damaged bundles and a
// host answering 416 show an error naming the entry, as `runlens validate` names it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const BIN = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens');
const V1 = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const WORK = path.join(ROOT, 'target', 'e2e-v2');
const DEV = 'text2sqlbench-synthetic-dev';
const PASS = '[data-testid="leaderboard-view"] [data-metric^="pass:"]';
let server;
let browser;
let proxies = [];

before(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  for (const out of ['article.zip', 'article']) {
    execFileSync(BIN, ['convert', V1, path.join(WORK, out)], { stdio: 'ignore' });
  }
  // Damaged copies: one byte changed inside a table read at load, one inside a cells text
  // chunk (read when a trajectory in it is opened), the zip cut short, a directory without
  // one of its tables.
  const zip = readFileSync(path.join(WORK, 'article.zip'));
  for (const [file, entry] of [['changed.zip', 'corpora/0/fm_labels.cols.gz'], ['changed-text.zip', 'corpora/0/cells.text/0.gz']]) {
    const changed = Buffer.from(zip);
    changed[entryData(zip, entry) + 10] ^= 0xff;
    writeFileSync(path.join(WORK, file), changed);
  }
  writeFileSync(path.join(WORK, 'cut.zip'), zip.subarray(0, zip.length - 100));
  cpSync(path.join(WORK, 'article'), path.join(WORK, 'missing'), { recursive: true });
  rmSync(path.join(WORK, 'missing', 'corpora', '0', 'fm_labels.cols.gz'));
  server = await startServer(['--bundles', WORK]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all(proxies.map((p) => new Promise((r) => p.close(r))));
});

/** Where the local header of `entry` starts in a zip (-1: none): the first occurrence of its
 * name that follows a local header's signature and 26 bytes (the manifest names it too). */
function localHeader(zip, entry) {
  const name = Buffer.from(entry);
  for (let at = zip.indexOf(name); at >= 0; at = zip.indexOf(name, at + 1)) {
    if (at >= 30 && zip.readUInt32LE(at - 30) === 0x04034b50 && zip.readUInt16LE(at - 4) === name.length) return at - 30;
  }
  return -1;
}

/** Where the data of `entry` starts in a zip: its local header is 30 bytes, the name, the
 * extra field. */
function entryData(zip, entry) {
  const header = localHeader(zip, entry);
  assert.ok(header >= 0, entry);
  return header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
}

/** A proxy in front of `runlens serve` whose handling of `Range` is `mode`: 'ignore' (the
 * header is dropped, so the answer is the whole file with 200) or 'refuse' (416). */
async function rangeProxy(mode) {
  const proxy = createServer(async (req, res) => {
    const headers = { ...req.headers };
    delete headers.host;
    if (headers.range && mode === 'refuse') {
      res.writeHead(416, { 'content-range': 'bytes */0' });
      return res.end();
    }
    delete headers.range;
    const up = await fetch(new URL(req.url, server.url), { headers });
    const out = {};
    for (const [k, v] of up.headers) if (!['content-encoding', 'content-length', 'transfer-encoding'].includes(k)) out[k] = v;
    res.writeHead(up.status, out);
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  proxies.push(proxy);
  return `http://127.0.0.1:${proxy.address().port}/`;
}

/** The sample's corpora: the headline board mounts with the view, the other one task later. */
const BOARDS = 2;

/** Every pass rate the leaderboard shows, by corpus and model (unrounded), once every
 * corpus's board shows them. */
async function shown(page) {
  await page.waitForFunction((n) => [...document.querySelectorAll('.corpus-board')]
    .filter((b) => b.querySelector('[data-metric^="pass:"]')).length >= n, BOARDS, { timeout: 60000 });
  return page.$$eval('.corpus-board', (boards) => Object.fromEntries(boards.map((b) => [b.dataset.corpus,
    Object.fromEntries([...b.querySelectorAll('[data-metric^="pass:"]')].map((e) => [e.dataset.metric, e.dataset.value]))])));
}

/** Records, in `window.__summaryShown`, the pass rates the leaderboard showed from a v2
 * summary (before the whole bundle was in), by corpus and model, once `n` boards show them. */
function recordSummary(n) {
  new MutationObserver(() => {
    if (window.__summaryShown || !document.querySelector('.bundle-header[data-load-summary="true"]')) return;
    const boards = [...document.querySelectorAll('.corpus-board')];
    if (boards.filter((b) => b.querySelector('[data-metric^="pass:"]')).length < n) return;
    window.__summaryShown = Object.fromEntries(boards.map((b) => [b.dataset.corpus,
      Object.fromEntries([...b.querySelectorAll('[data-metric^="pass:"]')].map((e) => [e.dataset.metric, e.dataset.value]))]));
  }).observe(document, { childList: true, subtree: true, attributes: true });
}

/** Opens `base?bundle=bundle`; the requests for bundle files, as "path range". */
async function open(bundle, base = server.url) {
  const { page, problems } = await newPage(browser);
  await page.addInitScript(recordSummary, BOARDS);
  const requests = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/bundles/')) requests.push(`${u.pathname} ${r.headers().range ?? 'whole'}`);
  });
  await page.goto(`${base}?bundle=${bundle}`);
  return { page, problems, requests };
}

let v1;
async function v1Numbers() {
  if (!v1) {
    const { page } = await open('bundles/article.json.gz');
    await page.waitForSelector(PASS, { timeout: 60000 });
    v1 = await shown(page);
    await page.context().close();
  }
  return v1;
}

test('a v2 zip opens by Range requests only, a v2 directory entry by entry, both with the numbers of v1', async () => {
  const expected = await v1Numbers();
  assert.equal(Object.keys(expected).length, 2);
  assert.ok(Object.values(expected).every((m) => Object.keys(m).length >= 10));

  const zip = await open('bundles/article.zip');
  await zip.page.waitForSelector(PASS, { timeout: 60000 });
  await zip.page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.deepEqual(await shown(zip.page), expected);
  // The leaderboard shown first, from the summary (the cells columns alone), was the same.
  assert.deepEqual(await zip.page.evaluate(() => window.__summaryShown), expected);
  const header = zip.page.locator('.bundle-header');
  assert.equal(await header.getAttribute('data-load-v2'), 'true');
  // The end of the file (asked for by the worker's script before its module ran), then one
  // range per stage (the zip is written in the order they are read): the manifest with the
  // two corpora's cells columns (the summary), their questions, rankings, labels and gate
  // rows with their text (the early views), the rest.
  assert.equal(await header.getAttribute('data-load-requests'), '4');
  assert.equal(await header.getAttribute('data-load-prefetched'), 'true');
  assert.equal(zip.requests.length, 4);
  assert.match(zip.requests[0], /^\/bundles\/article\.zip bytes=-65633$/);
  const cells = JSON.parse(readFileSync(path.join(WORK, 'article', 'manifest.json'), 'utf8'))
    .entries.filter((e) => /^corpora\/\d+\/cells\.cols\.gz$/.test(e.path));
  assert.equal(cells.length, 2);
  // The second read starts at the file's first byte (the manifest's local header) and ends
  // past the cells columns.
  assert.match(zip.requests[1], /^\/bundles\/article\.zip bytes=0-\d+$/);
  assert.ok(Number(zip.requests[1].split('-').pop()) + 1 > cells.reduce((n, e) => n + e.size, 0));
  for (const r of zip.requests) assert.match(r, /^\/bundles\/article\.zip bytes=\d*-\d+$/);
  assert.equal(await zip.page.getByTestId('bundle-hash').innerText(), '0f1e7a06706d');
  assert.equal(await zip.page.getByTestId('whole-zip').count(), 0);
  assert.deepEqual(zip.problems, []);
  await zip.page.context().close();

  const dir = await open('bundles/article/');
  await dir.page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.deepEqual(await shown(dir.page), expected);
  assert.deepEqual(await dir.page.evaluate(() => window.__summaryShown), expected);
  const manifest = JSON.parse(readFileSync(path.join(WORK, 'article', 'manifest.json'), 'utf8'));
  // The manifest, then each entry it lists once, but the cells' text chunks: those are read
  // when a trajectory is opened.
  const atLoad = manifest.entries.map((e) => e.path).filter((p) => !/^corpora\/\d+\/cells\.text\//.test(p));
  assert.ok(atLoad.length < manifest.entries.length);
  assert.equal(dir.requests.length, 1 + atLoad.length);
  assert.deepEqual(new Set(dir.requests), new Set(['manifest.json', ...atLoad]
    .map((p) => `/bundles/article/${p} whole`)));
  assert.deepEqual(dir.problems, []);
  await dir.page.context().close();
});

test('the ranking, gate and failures views show the CLI\'s numbers from the rows read early, before the rest of the bundle is in', async () => {
  // The CLI's numbers for the view's defaults (k = 10, t = 0.5, harness rule).
  const cli = JSON.parse(execFileSync(BIN, ['metrics', V1, '--json', '--corpus', DEV, '--resamples', '10'],
    { maxBuffer: 64 << 20 }).toString('utf8')).retrieval;
  const { page, problems } = await newPage(browser);
  // One table of the rest is held back: the whole bundle cannot be in until it is released.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/bundles/article/corpora/0/results.cols.gz', async (route) => { await held; await route.continue(); });
  await page.goto(`${server.url}?bundle=bundles/article/&tab=ranking&corpus=${DEV}`);
  const metric = async (name) => {
    const el = page.locator(`[data-testid="ranking-view"] [data-metric="${name}"]`);
    await el.waitFor({ timeout: 60000 });
    return Number(await el.getAttribute('data-value'));
  };
  assert.equal(await metric('recall@10'), cli.recall[9]);
  assert.equal(await metric('ndcg@10'), cli.ndcg[9]);
  assert.equal(await metric('high_confidence:precision'), cli.high_confidence.precision);
  // The gate view too, from the gate rows read with the rankings: counts, then intervals.
  const gate = JSON.parse(execFileSync(BIN, ['metrics', V1, '--json', '--corpus', DEV, '--resamples', '10'],
    { maxBuffer: 64 << 20 }).toString('utf8')).gate;
  await page.getByRole('tab', { name: 'Gate' }).click();
  await page.waitForSelector('[data-testid="gate-view"][data-ci-ready="true"]', { timeout: 60000 });
  for (const g of gate) {
    for (const key of ['fired', 'recovered', 'regressed', 'net']) {
      const el = page.locator(`[data-testid="gate-view"] [data-metric="gate:${g.model}:${key}"]`);
      assert.equal(Number(await el.getAttribute('data-value')), g[key], `${g.model} ${key}`);
    }
  }
  // The failures view too, from the labels read with the rankings: every count the CLI gives,
  // and the first rows of its list.
  const failures = JSON.parse(execFileSync(BIN, ['metrics', V1, '--json', '--corpus', DEV, '--resamples', '10'],
    { maxBuffer: 64 << 20 }).toString('utf8')).failures;
  await page.getByRole('tab', { name: 'Failures' }).click();
  await page.waitForSelector('[data-testid="failures-view"][data-pending="false"] .failure-charts[data-charts="all"]', { timeout: 60000 });
  const failureMetric = async (name) => Number(await page.locator(`[data-testid="failures-view"] [data-metric="${name}"]`).first().getAttribute('data-value'));
  assert.equal(await failureMetric('failures:count'), failures.n);
  for (const [name, count] of Object.entries(failures.sub_mode)) {
    assert.equal(await failureMetric(`sub_mode:${name}`), count, name);
  }
  assert.equal(await failureMetric('cdf:above'), failures.correct_despite_fail_at_least['0.65']);
  assert.equal(await failureMetric('failures:listed'), failures.n);
  await page.waitForSelector('.fail-row[data-trace]', { timeout: 60000 });
  // Shown while only the summary and the rows read early were in.
  assert.equal(await page.locator('.bundle-header').getAttribute('data-load-summary'), 'true');
  // The whole bundle arriving keeps the view the reader is on (it was built again, and asked
  // its questions again, before).
  await page.locator('[data-testid="failures-view"]').evaluate((v) => v.setAttribute('data-probe', 'early'));
  release();
  await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.equal(await page.locator('[data-testid="failures-view"]').getAttribute('data-probe'), 'early');
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  assert.equal(await metric('recall@10'), cli.recall[9]);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a trajectory opens from the zip, its text read through the worker', async () => {
  const bundle = JSON.parse(gunzipSync(readFileSync(V1)).toString('utf8'));
  const corpus = bundle.body.corpora.find((c) => c.name === DEV);
  const label = corpus.failure_labels.find((l) => {
    const cell = corpus.results.find((r) => r.trace_id === l.trace_id)?.candidates?.[l.model];
    return cell && cell.result_score.outcome !== 'pass' && cell.result_score.votes?.[0]?.reasoning;
  });
  const cell = corpus.results.find((r) => r.trace_id === label.trace_id).candidates[label.model];
  const { page, problems, requests } = await open(`bundles/article.zip&tab=trajectory&corpus=${DEV}`
    + `&tmodel=${label.model}&trace=${label.trace_id}&from=failures`);
  await page.locator(`[data-trajectory="${label.model}/${label.trace_id}"]`).waitFor({ timeout: 60000 });
  assert.equal(await page.getByTestId('trajectory-outcome').innerText(), cell.result_score.outcome);
  const root = page.getByTestId('trajectory-view');
  await root.getByTestId('verdict').waitFor();
  assert.equal(await root.locator('li.vote').count(), cell.result_score.votes.length);
  await root.locator('li.vote').first().getByText(cell.result_score.votes[0].reasoning, { exact: false }).waitFor();
  assert.ok(requests.every((r) => /bytes=/.test(r)), requests.join('\n'));
  // The load's four ranges never held the cells' text; the trajectory's record came in one
  // more range: the span of one cells text chunk (from its local header).
  const zip = readFileSync(path.join(WORK, 'article.zip'));
  const chunkStarts = [];
  for (let i = 0; i < 2; i++) {
    for (let n = 0; localHeader(zip, `corpora/${i}/cells.text/${n}.gz`) >= 0; n++) {
      chunkStarts.push(localHeader(zip, `corpora/${i}/cells.text/${n}.gz`));
    }
  }
  assert.ok(chunkStarts.length >= 2);
  assert.equal(requests.length, 5, requests.join('\n'));
  const start = Number(requests[4].match(/bytes=(\d+)-/)[1]);
  assert.ok(chunkStarts.includes(start), `${requests[4]} is not a cells text chunk's span`);
  for (const r of requests.slice(1, 4)) {
    const [, a, b] = r.match(/bytes=(\d+)-(\d+)/);
    assert.ok(chunkStarts.every((c) => c < Number(a) || c > Number(b)), `${r} holds a cells text chunk`);
  }
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a zip from the file picker and a bundle directory from the folder picker open with the numbers of v1', async () => {
  const expected = await v1Numbers();
  const { page, problems } = await newPage(browser);
  await page.goto(server.url);
  await page.locator('[data-testid="open-files"]').setInputFiles(path.join(WORK, 'article.zip'));
  await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.deepEqual(await shown(page), expected);
  assert.equal(await page.locator('.bundle-header').getAttribute('data-load-v2'), 'true');
  await page.goto(server.url);
  await page.locator('[data-testid="open-folder"]').setInputFiles(path.join(WORK, 'article'));
  await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.deepEqual(await shown(page), expected);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a host that ignores Range: the whole zip is read, with a notice, and the numbers are the same', async () => {
  const expected = await v1Numbers();
  const base = await rangeProxy('ignore');
  const { page, problems } = await open('bundles/article.zip', base);
  await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 60000 });
  assert.deepEqual(await shown(page), expected);
  const size = readFileSync(path.join(WORK, 'article.zip')).length;
  assert.equal(await page.getByTestId('whole-zip').innerText(),
    `This bundle's host ignored HTTP Range requests, so the whole zip (${(size / 1e6).toFixed(1)} MB) was `
    + 'downloaded to open it. A host that answers Range requests (any static file server, runlens serve) '
    + 'lets runlens read it in parts instead.');
  assert.deepEqual(problems, []);
  await page.context().close();
});

/** The error `runlens validate` prints for a bundle (its last line). */
function validateError(file) {
  const out = spawnSync(BIN, ['validate', path.join(WORK, file)], { encoding: 'utf8' });
  assert.notEqual(out.status, 0);
  return out.stderr.trim().split('\n').pop();
}

async function errorOf(bundle, base) {
  const { page } = await open(bundle, base);
  const panel = page.getByTestId('error-panel');
  await panel.waitFor({ timeout: 60000 });
  const text = await panel.innerText();
  assert.equal(await page.locator('[data-testid="leaderboard-view"]').count(), 0);
  await page.context().close();
  return text;
}

test('damage: a changed entry, a missing entry, a cut zip, a host answering 416 — each named, never a panic', async () => {
  // The changed byte: the CLI (whose zip reader checks CRC-32 first) and the browser (which
  // reads ranges and checks SHA-256) name the same entry.
  const changed = validateError('changed.zip');
  const entry = changed.match(/bundle: entry (corpora\/\d+\/[a-z_]+\.(?:cols|text\/\d+)\.gz): /)?.[1];
  assert.equal(entry, 'corpora/0/fm_labels.cols.gz', changed);
  const changedShown = await errorOf('bundles/changed.zip');
  assert.match(changedShown, new RegExp(`bundles/changed\\.zip: bundle: entry ${entry.replaceAll('.', '\\.')}: `
    + "sha256 [0-9a-f]{64} does not match the manifest's [0-9a-f]{64}"));

  // A changed cells text chunk is read only when a trajectory in it is opened: the load
  // succeeds, and the trajectory shows the error naming that entry.
  assert.match(validateError('changed-text.zip'), /bundle: entry corpora\/0\/cells\.text\/0\.gz: /);
  const bundle = JSON.parse(gunzipSync(readFileSync(V1)).toString('utf8'));
  const first = bundle.body.corpora[0].results[0];
  const model = Object.keys(first.candidates).find((m) => first.candidates[m]);
  const text = await open(`bundles/changed-text.zip&tab=trajectory&corpus=${bundle.body.corpora[0].name}`
    + `&tmodel=${model}&trace=${first.trace_id}`);
  const alert = text.page.getByTestId('trajectory-view').getByRole('alert');
  await alert.waitFor({ timeout: 60000 });
  assert.match(await alert.innerText(), /bundles\/changed-text\.zip: bundle: entry corpora\/0\/cells\.text\/0\.gz: sha256 [0-9a-f]{64} does not match the manifest's [0-9a-f]{64}/);
  assert.equal(await text.page.locator('.bundle-header[data-load-summary="false"]').count(), 1);
  await text.page.context().close();

  const missing = await errorOf('bundles/missing/');
  assert.match(missing, /bundle: entry corpora\/0\/fm_labels\.cols\.gz is missing/);
  assert.match(validateError('missing'), /bundle: entry corpora\/0\/fm_labels\.cols\.gz is missing/);

  const cut = await errorOf('bundles/cut.zip');
  assert.match(cut, /bundles\/cut\.zip: bundle: zip: no end-of-central-directory record in the last 65633 bytes \(truncated, or not a zip\)/);

  const refused = await errorOf('bundles/article.zip', await rangeProxy('refuse'));
  assert.match(refused, /could not download .*\/bundles\/article\.zip: the server answered HTTP 416 .*the server refused the byte range asked for/);
});
