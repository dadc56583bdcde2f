// Table-ranking view and shareable state: headline numbers equal `runlens metrics --json`
// for the same k, threshold and gold rule; moving k / the threshold / the gold switch
// recomputes them and writes the URL; the curve picker adds a runlens curve; a question opens; reloading the link shows the same
// view; back/forward walk the views; a link made for another bundle hash says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { startServer, ROOT, OUT } from './server.mjs';
import { launch, newPage, drawnPixels } from './browser.mjs';

const BUNDLE = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const DEV = 'text2sqlbench-synthetic-dev';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(OUT, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

function cli(args) {
  const out = execFileSync(process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens'),
    ['metrics', BUNDLE, '--json', '--corpus', DEV, '--resamples', '10', ...args], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8')).retrieval;
}

async function metric(page, name) {
  const el = page.locator(`[data-testid="ranking-view"] [data-metric="${name}"]`);
  await el.waitFor({ timeout: 30000 });
  return Number(await el.getAttribute('data-value'));
}

async function headline(page, k) {
  const out = {};
  for (const name of [`ndcg@${k}`, `recall@${k}`, `all_required@${k}`, 'high_confidence:mean_size',
    'high_confidence:precision', 'high_confidence:recall', 'high_confidence:full_coverage']) {
    out[name] = await metric(page, name);
  }
  return out;
}

function expected(r, k) {
  return {
    [`ndcg@${k}`]: r.ndcg[k - 1], [`recall@${k}`]: r.recall[k - 1], [`all_required@${k}`]: r.all_required[k - 1],
    'high_confidence:mean_size': r.high_confidence.mean_size,
    'high_confidence:precision': r.high_confidence.precision,
    'high_confidence:recall': r.high_confidence.recall,
    'high_confidence:full_coverage': r.high_confidence.full_coverage,
  };
}

const START = `?bundle=bundles/article.json.gz&tab=ranking&corpus=${DEV}`;

test('k, threshold and gold rule recompute every number exactly like the CLI', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url + START);
  assert.deepEqual(await headline(page, 10), expected(cli([]), 10));
  assert.ok(await drawnPixels(page, '#ranking-curves') > 1000, 'curves drawn');

  await page.getByTestId('k-slider').fill('5');
  await page.locator('[data-metric="ndcg@5"]').waitFor();
  await page.getByTestId('t-slider').fill('0.3');
  await page.waitForFunction(() => document.querySelector('[data-testid="t-value"]').textContent === '0.30');
  assert.deepEqual(await headline(page, 5), expected(cli(['--k-max', '5', '--confidence-threshold', '0.3']), 5));

  await page.getByTestId('gold-parser').check();
  await page.waitForFunction(() => location.search.includes('gold=parser'));
  assert.deepEqual(await headline(page, 5),
    expected(cli(['--k-max', '5', '--confidence-threshold', '0.3', '--gold-rule', 'parser']), 5));
  // The runlens curves: ticking MRR draws it, writes `curves=` and adds MRR@5 to the
  // headline; the exact-value table holds every curve whether drawn or not.
  const r = cli(['--k-max', '5', '--confidence-threshold', '0.3', '--gold-rule', 'parser']);
  await page.locator('[data-testid="curve-picker"] input[data-curve="mrr"]').check();
  await page.waitForFunction(() => location.search.includes('curves=ndcg,recall,all_required,mrr'));
  assert.equal(await metric(page, 'mrr@5'), r.mrr[4]);
  const cell = async (name) => Number(await page.locator(`td[data-cell="${name}"]`).getAttribute('data-value'));
  assert.deepEqual([await cell('precision@5'), await cell('success@5'), await cell('mrr@1')],
    [r.precision[4], r.success[4], r.mrr[0]]);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('k'), '5');
  assert.equal(url.searchParams.get('t'), '0.3');
  assert.equal(url.searchParams.get('h').length, 12);
  assert.deepEqual(problems, []);
});

test('a question opens, the link reopens the same view, back closes it', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(server.url + START + '&k=7&t=0.4');
  const table = page.getByTestId('question-table');
  await table.locator('tbody tr[data-trace]').first().waitFor({ timeout: 30000 });
  assert.match(await page.getByTestId('question-count').innerText(), /^136 of 136 questions$/);
  await page.getByTestId('below5').check();
  const below = Number((await page.getByTestId('question-count').innerText()).split(' ')[0]);
  assert.ok(below > 0 && below < 136, `${below} questions need a table below rank 5`);
  const first = table.locator('tbody tr[data-trace]').first();
  const id = await first.getAttribute('data-trace');
  await first.getByRole('button').click();
  const detail = page.getByTestId('question-detail');
  await detail.waitFor();
  assert.equal(await detail.getAttribute('data-trace'), id);
  const worst = Number(await first.locator('td').nth(3).innerText());
  assert.ok(worst > 5, `worst gold rank ${worst} is below 5`);
  await page.screenshot({ path: path.join(OUT, 'ranking-question.png'), fullPage: true, caret: 'initial' });

  const link = page.url();
  assert.ok(link.includes(`question=${id}`) && link.includes('below5=1'), link);
  const again = await newPage(browser);
  await again.page.goto(link);
  await again.page.getByTestId('question-detail').waitFor({ timeout: 30000 });
  assert.equal(await again.page.getByTestId('question-detail').getAttribute('data-trace'), id);
  assert.equal(await again.page.getByTestId('k-value').innerText(), '7');
  assert.equal(await again.page.getByTestId('t-value').innerText(), '0.40');
  assert.equal(await again.page.getByTestId('below5').isChecked(), true);
  assert.deepEqual(again.problems, []);

  await page.goBack();
  await page.getByTestId('question-detail').waitFor({ state: 'detached' });
  await page.goBack();
  await page.waitForFunction(() => !location.search.includes('below5'));
  assert.equal(await page.getByTestId('below5').isChecked(), false);
  await page.goForward();
  await page.waitForFunction(() => location.search.includes('below5=1'));
  assert.equal(await page.getByTestId('below5').isChecked(), true);
  assert.deepEqual(problems, []);
});

test('tabs switch views and a link made for another bundle hash shows a notice', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&h=000000000000`);
  await page.getByTestId('leaderboard-view').waitFor({ timeout: 30000 });
  const notice = page.getByTestId('hash-mismatch');
  assert.match(await notice.innerText(), /made for bundle 000000000000/);
  // The address now carries the loaded bundle's hash.
  const shown = await page.getByTestId('bundle-hash').innerText();
  assert.equal(new URL(page.url()).searchParams.get('h'), shown);
  await page.getByRole('tab', { name: 'Table ranking' }).click();
  await page.getByTestId('ranking-view').waitFor();
  assert.equal(await page.getByTestId('leaderboard-view').count(), 0);
  assert.equal(new URL(page.url()).searchParams.get('tab'), 'ranking');
  await page.goBack();
  await page.getByTestId('leaderboard-view').waitFor();
  assert.deepEqual(problems, []);
});
