// Trajectory viewer on the article sample: a failed cell opens from its deep link with the
// right header, j / j / k walk the failures list (the URL's trace follows), g shows the
// gold / candidate SQL diff, and nothing logs an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { startServer, ROOT, OUT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const BUNDLE = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const DEV = 'text2sqlbench-synthetic-dev';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(OUT, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

/** The corpus and its failures list as the viewer builds it: failure labels in file order
 * whose cell is not a pass, each (model, trace) once. */
function failures() {
  const bundle = JSON.parse(gunzipSync(readFileSync(BUNDLE)).toString('utf8'));
  const corpus = bundle.body.corpora.find((c) => c.name === DEV);
  const rows = new Map(corpus.results.map((r) => [r.trace_id, r]));
  const seen = new Set();
  const list = [];
  for (const l of corpus.failure_labels) {
    const cell = rows.get(l.trace_id)?.candidates?.[l.model];
    const key = `${l.model}/${l.trace_id}`;
    if (cell?.result_score?.outcome === 'pass' || seen.has(key)) continue;
    seen.add(key);
    list.push({ model: l.model, trace: l.trace_id, cell });
  }
  return { corpus, list };
}

test('a failed cell opens from its link, j/k walk the failures, g shows the diff', async () => {
  const { corpus, list } = failures();
  assert.ok(list.length >= 3, `${list.length} failures`);
  const [first, second] = list;
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=trajectory&corpus=${DEV}`
    + `&tmodel=${first.model}&trace=${first.trace}&from=failures`);
  const root = page.getByTestId('trajectory-view');
  await page.locator(`[data-trajectory="${first.model}/${first.trace}"]`).waitFor({ timeout: 30000 });

  const question = corpus.questions.find((q) => q.trace_id === first.trace)?.nl_question
    ?? corpus.results.find((r) => r.trace_id === first.trace).nl_question;
  assert.equal(await page.getByTestId('trajectory-question').innerText(), question);
  assert.equal(await page.getByTestId('trajectory-outcome').innerText(), first.cell.result_score.outcome);
  assert.equal(await page.getByTestId('trajectory-corpus').innerText(), DEV);
  const votes = first.cell.result_score.votes ?? [];
  // The votes come after the run's final answer, in the task after the header.
  await root.getByTestId('verdict').waitFor();
  assert.equal(await root.locator('li.vote').count(), votes.length);
  // The page holds no rows: vote reasons and the FM reason come with the worker's answer
  // for the cell.
  if (votes.length > 0 && votes[0].reasoning) {
    await root.locator('li.vote').first().getByText(votes[0].reasoning, { exact: false }).waitFor();
  }
  const fm = corpus.fm_labels.find((f) => f.model === first.model && f.trace_id === first.trace);
  if (fm?.reason) {
    await root.getByTestId('fm-label').getByText(fm.reason, { exact: false }).waitFor();
  }
  assert.equal(await page.getByTestId('trajectory-position').innerText(), `1 / ${list.length}`);
  assert.equal(await root.locator('[data-run="candidate"] li.step').count(),
    Math.max(first.cell.sqls?.length ?? 0, first.cell.sql_results?.length ?? 0));
  assert.ok(await root.locator('[data-run="candidate"] .tok-keyword').count() > 0, 'SQL highlighted');

  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.locator(`[data-trajectory="${second.model}/${second.trace}"]`).waitFor();
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('trace'), second.trace);
  assert.equal(url.searchParams.get('tmodel'), second.model);
  assert.equal(url.searchParams.get('from'), 'failures');
  assert.equal(await page.getByTestId('trajectory-position').innerText(), `2 / ${list.length}`);

  await page.keyboard.press('g');
  await page.getByTestId('sql-diff').waitFor();
  assert.equal(new URL(page.url()).searchParams.get('diff'), '1');
  assert.ok(await page.locator('.diff-line').count() > 0, 'diff lines shown');
  await page.screenshot({ path: path.join(OUT, 'trajectory.png'), fullPage: true, caret: 'initial' });
  await page.keyboard.press('g');
  await page.getByTestId('sql-diff').waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
});
