// The compare view in Chromium, each run in a loader worker of its own: a link
// `?bundle=A&compare=B` shows every model's paired difference exactly as `runlens compare
// --json` computes it, carries both hashes, and reopened fresh shows the same numbers; a run
// chosen from the site's list opens the same view; the same run twice, or a run that is not
// there, says why; the table-ranking and failures sections agree with `runlens metrics`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage, waitDrawn } from './browser.mjs';

const BIN = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens');
const A = 'bundles/article.zip';
const B = 'bundles/article-variant-1.zip';
let server;
let browser;
let expected;
let variantZip;

before(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'runlens-compare-'));
  const syn = path.join(work, 'synth');
  execFileSync(BIN, ['synth', '--preset', 'article', '--seed', '1', '--variant', '1', '--out', syn]);
  const variant = path.join(work, 'article-variant-1.zip');
  execFileSync(BIN, ['export', path.join(syn, 'text2sqlbench-synthetic-dev'),
    path.join(syn, 'text2sqlbench-synthetic'), path.join(syn, 'out'),
    '--schema', path.join(syn, 'schema.md'), '--rules', path.join(syn, 'rules.yaml'),
    '--synthetic', '--quiet', '--output', variant]);
  rmSync(syn, { recursive: true });
  const site = path.join(work, 'site');
  const article = path.join(ROOT, 'public', 'bundles', 'article.zip');
  execFileSync(BIN, ['site', site, article, variant, '--dist', path.join(ROOT, 'dist'),
    '--order', 'given', '--quiet']);
  expected = JSON.parse(execFileSync(BIN, ['compare', article, variant, '--json']));
  variantZip = variant;
  server = await startServer(['--site', site]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits for both runs' scores and reads every corpus's `delta:<model>` values. */
async function deltas(page) {
  await page.locator('[data-testid="compare-body"][data-answered="true"]').waitFor({ timeout: 60000 });
  // Each corpus's table, plot and changed questions mount a task apart.
  await page.waitForFunction(() => {
    const sections = document.querySelectorAll('.compare-corpus');
    return sections.length > 0 && [...sections].every((s) => s.querySelector('[data-testid="compare-flips"]'));
  }, null, { timeout: 60000 });
  return page.$$eval('.compare-corpus', (sections) => sections.map((s) => ({
    name: s.dataset.corpus,
    models: [...s.querySelectorAll('[data-metric^="delta:"]')]
      .map((e) => [e.dataset.metric.slice('delta:'.length), Number(e.dataset.value)]),
  })));
}

/** The CLI's numbers, in the view's order (largest difference first). */
function cliDeltas() {
  return expected.corpora.map((c) => ({
    name: c.name,
    models: c.models.filter((m) => m.delta !== null)
      .map((m) => [m.model, m.delta])
      .sort((x, y) => y[1] - x[1]),
  }));
}

test('a compare link shows the CLI\'s paired differences, carries both hashes, and reopens the same', async () => {
  const { page, problems } = await newPage(browser);
  const zips = new Set();
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.endsWith('.zip')) zips.add(p);
  });
  await page.goto(`${server.url}?bundle=${A}&compare=${B}`);
  const shown = await deltas(page);
  assert.deepEqual(shown, cliDeltas());
  // The variant improves two models and regresses two (runlens synth --variant).
  const all = shown.flatMap((c) => c.models.map((m) => m[1]));
  assert.ok(all.filter((d) => d > 0).length >= 2 && all.filter((d) => d < 0).length >= 2);
  const onlyB = expected.corpora[0].only_in_b;
  assert.deepEqual(onlyB, ['variant1-model']);
  assert.equal(await page.getByTestId('only-in-b').first().innerText(),
    `Only in run B (not compared): ${onlyB.join(', ')}`);
  await waitDrawn(page, 'canvas[id^="compare-forest-"]');
  // Both runs were read, each by its own worker (a worker's requests are the page's too).
  assert.deepEqual([...zips].sort(), ['/bundles/article-variant-1.zip', '/bundles/article.zip']);
  const hashB = await page.getByTestId('compare-run-b').getAttribute('data-hash');
  const link = new URL(page.url());
  assert.equal(link.searchParams.get('ch'), hashB.slice(0, 12));
  assert.equal(link.searchParams.get('compare'), B);
  assert.equal(link.searchParams.get('tab'), null);
  assert.equal(link.searchParams.get('h').length, 12);
  const { page: fresh, problems: freshProblems } = await newPage(browser);
  await fresh.goto(link.href);
  assert.deepEqual(await deltas(fresh), shown);
  assert.equal(await fresh.getByTestId('hash-mismatch').count(), 0);
  assert.deepEqual([...problems, ...freshProblems], []);
  await page.context().close();
  await fresh.context().close();
});

test('a model\'s changed questions open both runs side by side, and the link reopens them', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=${A}&compare=${B}`);
  await deltas(page);
  // The model the variant regressed most: the last row with a difference.
  const corpus = expected.corpora[0];
  const worst = [...corpus.models].filter((m) => m.delta !== null).sort((x, y) => x.delta - y.delta)[0];
  const section = page.locator(`.compare-corpus[data-corpus="${corpus.name}"]`);
  await section.getByTestId('compare-model').selectOption(worst.model);
  const items = section.locator('[data-testid="flip-list"] li');
  await items.first().waitFor({ timeout: 60000 });
  // Every flip is a question that improved or regressed: as many each way as the CLI counts.
  assert.ok(worst.improved + worst.regressed <= 200, 'one page of flips');
  assert.equal(await items.count(), worst.improved + worst.regressed);
  assert.equal(await section.locator('[data-testid="flip-list"] .flip.down').count(), worst.regressed);
  assert.equal(await section.locator('[data-testid="flip-list"] .flip.up').count(), worst.improved);
  const first = items.first();
  const trace = await first.getAttribute('data-trace');
  await first.getByRole('button', { name: 'Open' }).click();
  const side = section.getByTestId('side-by-side');
  await side.locator('.side[data-run="b"] [data-run="candidate"]').waitFor({ timeout: 60000 });
  await side.locator('.side[data-run="a"] [data-run="candidate"]').waitFor({ timeout: 60000 });
  assert.equal(await side.getAttribute('data-trace'), trace);
  assert.match(await side.locator('.side[data-run="a"]').innerText(), /Run A: /);
  assert.match(await side.locator('.side[data-run="b"]').innerText(), /Run B: /);
  assert.equal(await side.getByTestId('sql-diff').count(), 1);
  const link = new URL(page.url());
  assert.equal(link.searchParams.get('cm'), worst.model);
  assert.equal(link.searchParams.get('cq'), trace);
  const { page: fresh, problems: freshProblems } = await newPage(browser);
  await fresh.goto(link.href);
  await fresh.getByTestId('side-by-side').locator('.side[data-run="b"] [data-run="candidate"]').waitFor({ timeout: 60000 });
  assert.equal(await fresh.getByTestId('side-by-side').getAttribute('data-trace'), trace);
  assert.deepEqual([...problems, ...freshProblems], []);
  await page.context().close();
  await fresh.context().close();
});

test('run B chosen from the site\'s list, or both from the start page, opens the comparison; a changed B is flagged', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=${A}&tab=compare`);
  const choice = page.locator(`[data-testid="compare-runs"] button[data-url="${B}"]`);
  await choice.waitFor({ timeout: 60000 });
  await choice.click();
  assert.deepEqual(await deltas(page), cliDeltas());
  assert.equal(new URL(page.url()).searchParams.get('compare'), B);
  // The start page's "Compare two runs" opens the same link.
  await page.goto(server.url);
  const picker = page.getByTestId('compare-picker');
  await picker.waitFor({ timeout: 60000 });
  await picker.getByTestId('compare-a').selectOption(A);
  await picker.getByTestId('compare-b').selectOption(B);
  await picker.getByRole('button', { name: 'Compare' }).click();
  assert.deepEqual(await deltas(page), cliDeltas());
  // A link made for another version of B says so.
  await page.goto(`${server.url}?bundle=${A}&compare=${B}&ch=000000000000`);
  await deltas(page);
  assert.match(await page.getByTestId('hash-mismatch').innerText(), /000000000000/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the same run twice, or a run that is not there, says why', async () => {
  const { page } = await newPage(browser);
  await page.goto(`${server.url}?bundle=${A}&compare=${A}`);
  const error = page.getByTestId('compare-error');
  await error.waitFor({ timeout: 60000 });
  assert.match(await error.innerText(), /^These runs cannot be compared: both bundles are the same run \(content hash [0-9a-f]{64}\): there is nothing to compare$/);
  await page.goto(`${server.url}?bundle=${A}&compare=bundles/missing.zip`);
  await error.waitFor({ timeout: 60000 });
  const text = await error.innerText();
  assert.match(text, /^Could not load run B\n/);
  assert.match(text, /missing\.zip/);
  await page.context().close();
});

test('the failure shifts are those of `runlens metrics` on each run, and the rankings are paired over every ranked question', async () => {
  const article = path.join(ROOT, 'public', 'bundles', 'article.zip');
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=${A}&compare=${B}`);
  await deltas(page);
  let sections = 0;
  for (const corpus of expected.corpora.map((c) => c.name)) {
    const section = page.locator(`.compare-corpus[data-corpus="${corpus}"]`);
    const metrics = (file) => JSON.parse(execFileSync(BIN, ['metrics', file, '--json', '--corpus', corpus, '--resamples', '10']));
    const [ma, mb] = [metrics(article), metrics(variantZip)];
    // The sample's second corpus has neither labels nor rankings: each section says so.
    if (!ma.failures?.n) {
      await section.getByTestId('compare-failures-none').waitFor({ timeout: 60000 });
      await section.getByTestId('compare-retrieval-none').waitFor({ timeout: 60000 });
      assert.equal(ma.retrieval?.n_questions ?? 0, 0);
      continue;
    }
    await section.locator('[data-testid="compare-sub-mode-table"] tbody tr').first().waitFor({ timeout: 60000 });
    await section.locator('[data-testid="compare-ranking-table"] tbody tr').first().waitFor({ timeout: 60000 });
    // Sub-mode shares of each run's labelled failures (every model), B − A.
    const share = (m, key) => (m.failures.sub_mode[key] ?? 0) / m.failures.n;
    const keys = new Set([...Object.keys(ma.failures.sub_mode), ...Object.keys(mb.failures.sub_mode)]);
    let compared = 0;
    for (const key of keys) {
      if (!(ma.failures.sub_mode[key] || mb.failures.sub_mode[key])) continue;
      const cell = section.locator(`[data-metric="fshift:sub-mode:${key}"]`);
      assert.ok(Math.abs(Number(await cell.getAttribute('data-value')) - (share(mb, key) - share(ma, key))) < 1e-12, key);
      compared += 1;
    }
    assert.equal(await section.locator('[data-metric^="fshift:sub-mode:"]').count(), compared);
    // The variant keeps the sample's questions and rankings: every ranked question is
    // paired, and every ranking difference is 0.
    assert.equal(await section.getByTestId('compare-retrieval-n').innerText(),
      `${ma.retrieval.n_questions} questions ranked in both runs (the differences' n); 0 in run A only, 0 in run B only.`);
    const rdeltas = await section.locator('[data-metric^="rdelta:"]').evaluateAll((es) => es.map((e) => Number(e.dataset.value)));
    assert.ok(rdeltas.length >= 3);
    assert.deepEqual(new Set(rdeltas), new Set([0]));
    assert.equal(await section.getByTestId('compare-retrieval-alike').count(), 1);
    sections += 1;
  }
  assert.equal(sections, 1);
  assert.deepEqual(problems, []);
  await page.context().close();
});
