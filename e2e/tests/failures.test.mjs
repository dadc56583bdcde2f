// Failures view: every sub-mode / family / bucket count and the cdf count equal
// `runlens metrics --json` for the same corpus; a click on the largest sub-mode's bar (at
// its centre on the canvas) filters the list and writes f= into the URL; the first failure
// opens its trajectory with from=failures; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import { startServer, ROOT, OUT } from './server.mjs';
import { launch, newPage, drawnPixels } from './browser.mjs';

const BUNDLE = path.join(ROOT, 'public', 'bundles', 'article.json.gz');
const DEV = 'text2sqlbench-synthetic-dev';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launch(); mkdirSync(OUT, { recursive: true }); });
after(async () => { await browser?.close(); await server?.stop(); });

function cliFailures() {
  const out = execFileSync(process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens'),
    ['metrics', BUNDLE, '--json', '--corpus', DEV, '--resamples', '10'], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8')).failures;
}

/** Clicks the centre of a chart mark's rectangle (layout units: the CSS pixels the chart was
 * laid out for; the canvas holds `data-dpr` canvas pixels per unit). */
async function clickRect(page, canvas, [l, t, r, b]) {
  const box = await canvas.boundingBox();
  const size = await canvas.evaluate((c) => {
    const dpr = Number(c.getAttribute('data-dpr') || 1);
    return [c.width / dpr, c.height / dpr];
  });
  await page.mouse.click(box.x + ((l + r) / 2) * (box.width / size[0]), box.y + ((t + b) / 2) * (box.height / size[1]));
}

async function metric(page, name) {
  const el = page.locator(`[data-testid="failures-view"] [data-metric="${name}"]`).first();
  await el.waitFor({ timeout: 30000 });
  return Number(await el.getAttribute('data-value'));
}

test('counts equal the CLI; a bar click filters the list; a failure opens', async () => {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=failures&corpus=${DEV}`);
  const f = cliFailures();
  assert.equal(await metric(page, 'failures:count'), f.n);
  for (const kind of ['sub_mode', 'family', 'fm_bucket']) {
    for (const [name, count] of Object.entries(f[kind])) {
      assert.equal(await metric(page, `${kind}:${name}`), count, `${kind}:${name}`);
    }
  }
  assert.equal(await metric(page, 'cdf:above'), f.correct_despite_fail_at_least['0.65']);
  assert.ok(await drawnPixels(page, '#fail-sub-modes') > 1000, 'sub-mode chart drawn');

  // The largest sub-mode by the CLI's numbers (ties: taxonomy order, as the chart).
  const [largest, count] = Object.entries(f.sub_mode).reduce((a, b) => (b[1] > a[1] ? b : a));
  const button = page.locator(`[data-testid="fail-sub-modes-items"] button[data-filter="sub_mode:${largest}"]`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-rect'),
    `[data-testid="fail-sub-modes-items"] button[data-filter="sub_mode:${largest}"]`);
  const [l, t, r, b] = (await button.getAttribute('data-rect')).split(',').map(Number);
  const canvas = page.locator('#fail-sub-modes');
  await canvas.scrollIntoViewIfNeeded();
  await clickRect(page, canvas, [l, t, r, b]);
  await page.waitForFunction((want) => new URL(location.href).searchParams.get('f') === want, `sub_mode:${largest}`);
  await page.waitForFunction((n) => document.querySelector('[data-metric="failures:listed"]')?.getAttribute('data-value') === String(n), count);
  assert.match(await page.getByTestId('filter-chip').innerText(), new RegExp(`sub_mode:${largest}`));
  // The list comes into view (#17: drill-down in context).
  await page.waitForFunction(() => {
    const top = document.querySelector('[data-testid="failure-list"]').getBoundingClientRect().top;
    return top >= -2 && top < innerHeight / 2;
  }, null, { timeout: 5000 });
  const subs = await page.locator('.fail-row[data-trace] > span:nth-child(4)').allInnerTexts();
  assert.ok(subs.length > 0 && subs.every((s) => s === largest), subs.join());
  await page.screenshot({ path: path.join(OUT, 'failures.png'), fullPage: true, caret: 'initial' });
  // The list's CSV (the worker's answer): a header and one line per listed failure, all of
  // the clicked sub-mode.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('[data-testid="failure-list"] button[aria-label="Download table as CSV"]').click(),
  ]);
  assert.equal(download.suggestedFilename(), 'failures.csv');
  const csv = readFileSync(await download.path(), 'utf8').trim().split(/\r?\n/);
  assert.equal(csv[0], 'corpus,model,trace_id,question,sub_mode,family,fm_bucket,sub_mode_confidence,correct_despite_fail,schema_hint_would_help,prevented_by_rule,fm');
  assert.equal(csv.length, 1 + count);
  assert.ok(csv.slice(1).every((line) => line.startsWith(`${DEV},`) && line.includes(`,${largest},`)), csv.slice(1, 3).join('\n'));

  const first = page.locator('.fail-row[data-trace]').first();
  const trace = await first.getAttribute('data-trace');
  const model = await first.getAttribute('data-model');
  await first.locator('button.open').click();
  // Attached, not visible: the trajectory view may still be an empty placeholder.
  await page.getByTestId('trajectory-view').waitFor({ state: 'attached', timeout: 30000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('tab'), 'trajectory');
  assert.equal(url.searchParams.get('from'), 'failures');
  assert.equal(url.searchParams.get('trace'), trace);
  assert.equal(url.searchParams.get('tmodel'), model);
  // j / k walk the list the reader came from: the bar's failures, said so in the header.
  await page.getByTestId('trajectory-position').waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('trajectory-position').innerText(), `1 / ${count}`);
  assert.equal((await page.getByTestId('trajectory-list').innerText()).trim(), `in failures · ${largest}`);
  await page.keyboard.press('j');
  await page.waitForFunction((t) => new URL(location.href).searchParams.get('trace') !== t, trace);
  assert.equal(await page.getByTestId('trajectory-position').innerText(), `2 / ${count}`);
  assert.equal(await page.locator('[data-testid="jev-label"] > p > strong').first().innerText(), largest);
  assert.deepEqual(problems, []);
});

test('on a 2x screen the chart is drawn at twice the pixels, and a bar click still hits its bar', async () => {
  const { page, problems } = await newPage(browser, { deviceScaleFactor: 2 });
  await page.goto(`${server.url}?bundle=bundles/article.json.gz&tab=failures&corpus=${DEV}`);
  const sel = `[data-testid="fail-sub-modes-items"] button[data-filter="sub_mode:wrong_filter"]`;
  await page.waitForFunction((s) => document.querySelector(s)?.getAttribute('data-rect'), sel);
  const canvas = page.locator('#fail-sub-modes');
  const [w, h, cssW, cssH, dpr] = await canvas.evaluate((c) => [c.width, c.height, c.clientWidth, c.clientHeight, c.getAttribute('data-dpr')]);
  assert.equal(dpr, '2');
  // Canvas pixels are twice the CSS pixels each way (the chart is laid out for the CSS size).
  assert.deepEqual([w, h], [2 * cssW, 2 * cssH]);
  const rect = (await page.locator(sel).getAttribute('data-rect')).split(',').map(Number);
  await canvas.scrollIntoViewIfNeeded();
  await clickRect(page, canvas, rect);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('f') === 'sub_mode:wrong_filter');
  assert.deepEqual(problems, []);
  await page.context().close();
});
