// The three users' tasks of issue 17, each walked in one browser session on the README's
// sample (the v2 zip), every number checked against `runlens metrics --json` on the same
// file (or, for the pooled board, against the harness's scoring done here by hand):
// - a reader: the best model and who is statistically tied with it, the model filter, the
//   pooled board, the curves at another k, the FM2 share, the gate's effect;
// - a team: set a view, copy its link, open it fresh, export PNG / SVG / CSV;
// - a reviewer: a bar → the filtered list → a trajectory → j within the filter → re-label →
//   apply → an audit verdict → reload, everything still there.
// Then every view at 390 px (no sideways scroll), saved into e2e/out/views/ to be looked at
// (a11y.test.mjs saves the 1440 px and dark ones).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { startServer, ROOT, OUT } from './server.mjs';
import { launch, newPage, waitDrawn } from './browser.mjs';
import { VIEWS, DEV } from './views.mjs';

const ZIP = path.join(ROOT, 'public', 'bundles', 'article.zip');
const V1 = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const BOARD = 'text2sqlbench-synthetic';
const START = `?bundle=bundles/article.zip`;
const SHOTS = path.join(OUT, 'views');
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(SHOTS, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

function cli(corpus) {
  const out = execFileSync(process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens'),
    ['metrics', ZIP, '--json', '--corpus', corpus, '--resamples', '10'], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8'));
}

/** The `data-value` of `selector` once it equals `want`, or whatever it holds after 30 s
 * (views answer asynchronously: a value read at once may be the one before a change). */
async function settled(page, selector, want) {
  const el = page.locator(selector).first();
  await el.waitFor({ state: 'attached', timeout: 60000 });
  for (let waited = 0; waited < 30000; waited += 50) {
    const v = Number(await el.getAttribute('data-value'));
    if (v === want) return v;
    await page.waitForTimeout(50);
  }
  return Number(await el.getAttribute('data-value'));
}

/** Waits until the element with `testid` reads `want` (the trajectory's position reads
 * "– / 0" until its list is answered). */
async function waitText(page, testid, want) {
  await page.waitForFunction(([id, w]) => document.querySelector(`[data-testid="${id}"]`)?.innerText.trim() === w,
    [testid, want], { timeout: 60000 });
}

/** The harness's board scoring (08_results_stats: pass 1, tie 0.5, fail 0, anything else
 * left out) over every question of every corpus as one matrix: model → [sum, n]. */
function pooledByHand() {
  const bundle = JSON.parse(gunzipSync(readFileSync(V1)).toString('utf8'));
  const score = { pass: 1, tie: 0.5, fail: 0 };
  const sums = {};
  for (const corpus of bundle.body.corpora) {
    for (const row of corpus.results) {
      for (const [model, cell] of Object.entries(row.candidates)) {
        const s = score[cell?.result_score?.outcome];
        if (s === undefined) continue;
        sums[model] ??= [0, 0];
        sums[model][0] += s;
        sums[model][1] += 1;
      }
    }
  }
  return sums;
}

test('a reader: the best model and its ties, one filter for every view, pooled, k, FM2, the gate', async () => {
  const board = cli(BOARD);
  const dev = cli(DEV);
  const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.goto(server.url + START);
  // The headline corpus (the larger: 201 questions against 136) comes first, marked.
  const first = page.locator('article.corpus-board').first();
  await first.locator('[data-metric^="pass:"]').first().waitFor({ timeout: 60000 });
  assert.equal(await first.getAttribute('data-corpus'), BOARD);
  assert.equal((await first.locator('h3 .badge.headline-corpus').innerText()).trim(), 'headline');
  // Who is best, and who the paired test cannot separate from it (p ≥ 0.05).
  const rows = first.locator('tbody tr');
  assert.equal(await rows.first().getAttribute('data-model'), board.board.top_model);
  assert.equal(await rows.first().getAttribute('data-standing'), 'top');
  const standings = Object.fromEntries(await rows.evaluateAll((trs) => trs.map((tr) => [tr.dataset.model, tr.dataset.standing])));
  for (const r of board.leaderboard.filter((r) => r.pass !== null && r.model !== board.board.top_model)) {
    const want = r.vs_top.p !== null && r.vs_top.p >= 0.05 ? 'tied' : 'below';
    assert.equal(standings[r.model], want, `${r.model}: p = ${r.vs_top.p}`);
  }
  assert.ok(Object.values(standings).includes('tied'), 'some model is tied with the top');

  // The header's model filter: the GPT models only, on the leaderboard and then the gate.
  const gpt = board.leaderboard.filter((r) => r.model.includes('gpt') || r.name.toLowerCase().includes('gpt'));
  assert.ok(gpt.length >= 3, `${gpt.length} GPT models`);
  await page.locator('.model-filter summary').click();
  await page.getByTestId('model-filter-search').fill('gpt');
  await page.getByTestId('model-filter-only').click();
  await page.waitForFunction((n) => document.querySelectorAll('article.corpus-board')[0]
    ?.querySelectorAll('tbody tr').length === n, gpt.length);
  assert.match(await page.getByTestId('model-filter-summary').innerText(), new RegExp(`^${gpt.length} of \\d+: `));
  assert.deepEqual((await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.model))).sort(),
    gpt.map((r) => r.model).sort());
  await page.locator('.model-filter summary').click();

  // Every corpus pooled into one board: the harness's scoring over all 337 questions.
  await page.getByTestId('pool-corpora').check();
  const pooled = page.locator('article.corpus-board[data-corpus="pooled"]');
  await pooled.locator('[data-metric^="pass:"]').first().waitFor({ timeout: 60000 });
  assert.equal((await pooled.locator('h3').innerText()).trim(), `All corpora pooled: ${DEV} + ${BOARD}`);
  const sums = pooledByHand();
  for (const r of gpt) {
    const [sum, n] = sums[r.model];
    const sel = `article.corpus-board[data-corpus="pooled"] [data-metric="pass:${r.model}"]`;
    assert.equal(await settled(page, sel, sum / n), sum / n, r.model);
  }
  assert.ok(await waitDrawn(page, '#board-pooled') > 1000, 'pooled chart drawn');
  assert.match(page.url(), /[?&]pool=1(&|$)/);
  await page.getByTestId('pool-corpora').uncheck();
  await page.locator('.model-filter summary').click();
  await page.getByTestId('model-filter-all').click();
  await page.locator('.model-filter summary').click();

  // The curves at another k.
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  await page.getByTestId('k-slider').waitFor({ timeout: 60000 });
  await page.getByTestId('k-slider').fill('5');
  for (const [key, want] of [['recall', dev.retrieval.recall[4]], ['ndcg', dev.retrieval.ndcg[4]],
    ['all_required', dev.retrieval.all_required[4]]]) {
    assert.equal(await settled(page, `[data-testid="ranking-view"] [data-metric="${key}@5"]`, want), want, key);
  }

  // The FM2 share of the dev failures.
  await page.getByRole('tab', { name: 'Failures' }).click();
  await page.locator('[data-testid="fail-corpus"]').selectOption(DEV);
  assert.equal(await settled(page, '[data-testid="failures-view"] [data-metric="failures:count"]', dev.failures.n),
    dev.failures.n);
  const fm2 = dev.failures.fm_bucket['FM2 wrong plan'];
  assert.equal(await settled(page, '[data-testid="failures-view"] [data-metric="fm_bucket:FM2 wrong plan"]', fm2), fm2);
  const fm2Share = page.locator('[data-testid="failures-view"] .headline dd:has([data-metric="fm_bucket:FM2 wrong plan"]) .share');
  assert.equal(await fm2Share.innerText(), `${(100 * fm2 / dev.failures.n).toFixed(1)}%`);

  // The gate's effect, all models pooled.
  await page.getByRole('tab', { name: 'Gate' }).click();
  await page.getByTestId('gate-headline').first().waitFor({ timeout: 60000 });
  const all = dev.gate.find((g) => g.model === '(all)');
  assert.equal(await settled(page, '[data-metric="gate:(all):net"]', all.net), all.net);
  assert.match(await page.getByTestId('gate-headline').first().innerText(), /^Net effect of the gate, all models: [+−-]\d+\.\d\d pp/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a team: set a view, copy its link, open it fresh, export PNG, SVG and CSV', async () => {
  const { page, problems } = await newPage(browser, { acceptDownloads: true });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.goto(`${server.url}${START}&tab=failures&corpus=${DEV}`);
  const sel = '[data-testid="fail-sub-modes-items"] button[data-filter="sub_mode:wrong_filter"]';
  await page.locator(sel).waitFor({ timeout: 60000 });
  // Two models, then the wrong_filter bar (its button beside the chart).
  await page.locator('.model-filter summary').click();
  await page.locator('.model-filter input[data-model="gpt-4.1"]').uncheck();
  await page.locator('.model-filter input[data-model="sonnet46"]').uncheck();
  await page.locator('.model-filter summary').click();
  await page.locator(sel).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('f') === 'sub_mode:wrong_filter');
  // The CLI's wrong_filter failures less those of the two models left out.
  const f = cli(DEV).failures;
  const listed = f.sub_mode.wrong_filter - f.by_model['gpt-4.1'].sub_mode.wrong_filter
    - f.by_model.sonnet46.sub_mode.wrong_filter;
  assert.equal(await settled(page, '[data-metric="failures:listed"]', listed), listed);
  await page.getByTestId('copy-link').click();
  await page.getByText('Link copied').waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  const models = new URL(link).searchParams.get('models').split(',');
  assert.ok(!models.includes('gpt-4.1') && !models.includes('sonnet46') && models.length > 2, models.join());

  // A colleague opens it in a fresh browser: the same filter, list and models.
  const fresh = await newPage(browser, { acceptDownloads: true });
  await fresh.page.goto(link);
  assert.equal(await settled(fresh.page, '[data-metric="failures:listed"]', listed), listed);
  assert.match(await fresh.page.getByTestId('filter-chip').innerText(), /sub_mode:wrong_filter/);
  assert.equal(await fresh.page.getByTestId('model-filter-summary').innerText(),
    await page.getByTestId('model-filter-summary').innerText());
  const rowModels = await fresh.page.locator('.fail-row[data-model]').evaluateAll((rs) => rs.map((r) => r.dataset.model));
  assert.ok(rowModels.length > 0 && rowModels.every((m) => models.includes(m)), rowModels.join());

  // Exports of the sub-mode chart and the list.
  const chart = fresh.page.locator('figure[data-chart="fail-sub-modes"]');
  const take = async (scope, label) => {
    const [download] = await Promise.all([fresh.page.waitForEvent('download'), scope.getByLabel(label).first().click()]);
    return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  };
  const png = await take(chart, 'Download chart as PNG');
  assert.equal(png.bytes.subarray(1, 4).toString(), 'PNG', png.name);
  const svg = await take(chart, 'Download chart as SVG');
  assert.ok(svg.bytes.toString('utf8').startsWith('<svg'), svg.name);
  const csv = await take(fresh.page.getByTestId('failure-list'), 'Download table as CSV');
  const lines = csv.bytes.toString('utf8').trim().split(/\r?\n/);
  assert.equal(lines.length, 1 + listed);
  assert.ok(lines.slice(1).every((l) => l.includes(',wrong_filter,')), lines.slice(1, 3).join('\n'));
  assert.deepEqual([...problems, ...fresh.problems], []);
  await fresh.page.context().close();
  await page.context().close();
});

test('a reviewer: bar → list → trajectory → j → re-label → apply → audit verdict → reload', async () => {
  const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.goto(`${server.url}${START}&tab=failures&corpus=${DEV}`);
  const sel = '[data-testid="fail-sub-modes-items"] button[data-filter="sub_mode:wrong_filter"]';
  await page.locator(sel).waitFor({ timeout: 60000 });
  await page.locator(sel).click();
  const listed = cli(DEV).failures.sub_mode.wrong_filter;
  assert.equal(await settled(page, '[data-metric="failures:listed"]', listed), listed);
  await page.locator('.fail-row[data-trace] button.open').first().click();
  await waitText(page, 'trajectory-position', `1 / ${listed}`);
  assert.equal((await page.getByTestId('trajectory-list').innerText()).trim(), 'in failures · wrong_filter');
  const firstTrace = new URL(page.url()).searchParams.get('trace');
  await page.keyboard.press('j');
  await page.waitForFunction((t) => new URL(location.href).searchParams.get('trace') !== t, firstTrace);
  await waitText(page, 'trajectory-position', `2 / ${listed}`);
  // The story: the run, what it spent, the answer, then the verdict; gold beside.
  await page.waitForFunction(() => document.querySelectorAll('.story h4').length === 4
    && document.querySelector('[data-testid="verdict"]'), null, { timeout: 60000 });
  const heads = await page.locator('.story h4').allInnerTexts();
  assert.equal(heads.length, 4, heads.join(' | '));
  assert.match(heads[0], /'s run: \d+ quer(y|ies)/);
  assert.deepEqual(heads.slice(1, 3), ['What it spent', 'Final answer']);
  assert.match(heads[3], /^The judges' verdict: /);
  assert.equal(await page.locator('.gold-beside [data-run="gold"]').count(), 1);

  // Re-label through the proxy (the local model), apply.
  await page.getByTestId('relabel-ask').click();
  await page.getByTestId('relabel-answer').waitFor({ timeout: 60000 });
  await page.getByTestId('relabel-apply').click();
  await page.getByTestId('applied').waitFor();
  assert.equal(await settled(page, '[data-metric="overrides:count"]', 1), 1);
  await page.waitForFunction(() => location.search.includes('ov=1.'));

  // A verdict in the audit queue: the first item, graded wrong with `a`.
  await page.getByRole('tab', { name: 'Audit queue' }).click();
  await page.locator('.audit-row').first().waitFor({ timeout: 60000 });
  const key = await page.locator('.audit-row').first().getAttribute('data-key');
  await page.locator('h2').first().click();
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.querySelector('[data-metric="audit:grader_wrong"]')?.dataset.value === '1');

  // Reload: the override (in the link) and the verdict (in this browser) are still there.
  await page.reload();
  await page.locator('.audit-row').first().waitFor({ timeout: 60000 });
  assert.equal(await settled(page, '[data-metric="audit:grader_wrong"]', 1), 1);
  assert.equal(await page.locator(`.audit-row[data-key="${key}"]`).getAttribute('data-verdict'), 'grader_wrong');
  assert.equal(await settled(page, '[data-metric="overrides:count"]', 1), 1);
  assert.deepEqual(problems, []);
  await page.context().close();
});


test('every view at 390 px: no sideways scroll, saved to look at', async () => {
  const wide = [];
  const { page, problems } = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const [name, [query, ready]] of Object.entries(VIEWS)) {
    await page.goto(`${server.url}${START}${query}`);
    await page.waitForSelector(ready, { timeout: 60000 });
    await page.waitForTimeout(300);
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    if (scroll > inner) wide.push(`${name}: ${scroll} px wide`);
    await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  }
  assert.deepEqual(problems, []);
  await page.context().close();
  assert.deepEqual(wide, []);
});
