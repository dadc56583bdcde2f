// Leaderboard view: every pass rate in the DOM (data-metric="pass:<model>", unrounded
// data-value) equals `runlens metrics --json` for the same bundle and corpus, exactly; the
// table sorts on click; the bar chart is drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage, waitDrawn } from './browser.mjs';

const BUNDLE = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const CORPORA = ['text2sqlbench-synthetic-dev', 'text2sqlbench-synthetic'];
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

function cliMetrics(corpus) {
  const out = execFileSync(process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens'),
    ['metrics', BUNDLE, '--json', '--corpus', corpus, '--resamples', '100'], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8'));
}

test('pass rates in the page equal runlens metrics --json exactly', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 30000 });
  for (const corpus of CORPORA) {
    const expected = cliMetrics(corpus).leaderboard.filter((r) => r.pass !== null);
    assert.ok(expected.length >= 20, `${corpus}: ${expected.length} models`);
    const shown = await page.$$eval(`.corpus-board[data-corpus="${corpus}"] [data-metric^="pass:"]`,
      (els) => Object.fromEntries(els.map((e) => [e.dataset.metric.slice(5), Number(e.dataset.value)])));
    assert.equal(Object.keys(shown).length, expected.length, corpus);
    for (const row of expected) assert.equal(shown[row.model], row.pass, `${corpus} ${row.model}`);
    assert.ok(await waitDrawn(page, `#board-${corpus}`) > 1000, `${corpus}: bar chart drawn`);
  }
  assert.deepEqual(problems, []);
});

test('the table sorts by model name on click', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  const board = page.locator('.corpus-board[data-corpus="text2sqlbench-synthetic-dev"]');
  await board.locator('tbody tr').first().waitFor({ timeout: 30000 });
  await board.getByRole('button', { name: 'model', exact: true }).click();
  const names = await board.locator('tbody tr td:first-child').allInnerTexts();
  assert.equal(names.length, 20);
  assert.deepEqual(names, [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  assert.deepEqual(problems, []);
});

test('a chart exports as PNG, SVG (its own chunk) and CSV, the SVG with its whole caption', async () => {
  const { page, problems } = await newPage(browser, { acceptDownloads: true });
  await page.goto(`${server.url}?bundle=bundles/article.json.gz`);
  const board = page.locator(`.corpus-board[data-corpus="${CORPORA[0]}"]`);
  await board.locator('[data-metric^="pass:"]').first().waitFor({ timeout: 30000 });
  const take = async (label) => {
    const [download] = await Promise.all([page.waitForEvent('download'), board.getByLabel(label).click()]);
    return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  };
  const png = await take('Download chart as PNG');
  assert.ok(png.name.endsWith('.png') && png.bytes.subarray(1, 4).toString() === 'PNG', png.name);
  // Drawn again at 2×: twice the chart's CSS pixels each way (the IHDR chunk's width, height).
  const shown = await board.locator('canvas').first().evaluate((c) => {
    const dpr = Number(c.getAttribute('data-dpr') || 1);
    return [c.width / dpr, c.height / dpr];
  });
  assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [2 * shown[0], 2 * shown[1]]);
  const svg = await take('Download chart as SVG');
  const text = svg.bytes.toString('utf8');
  assert.ok(svg.name.endsWith('.svg') && text.startsWith('<svg'), svg.name);
  // The caption (bundle hash, corpus, view) is whole, over as many lines as it needs.
  assert.ok(!text.includes('…'), 'no cut caption');
  assert.ok(text.includes(`${CORPORA[0]}`), 'the caption names the corpus');
  const csv = await take('Download table as CSV');
  assert.ok(csv.name.endsWith('.csv') && csv.bytes.toString('utf8').split('\n').length > 20, csv.name);
  assert.deepEqual(problems, []);
});
