// A report site written by `runlens site`, served from a sub-path (`/reports/nightly/`, as a
// GitHub Pages project site or an S3 prefix would serve it): the start page lists its runs,
// and a run opens with the pass rates its index (runs.json) records; every request stays
// under the sub-path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, ROOT } from './server.mjs';
import { launch, newPage } from './browser.mjs';

const BIN = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens');
const PREFIX = '/reports/nightly/';
let server;
let prefix;
let browser;
let site;

before(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'runlens-site-'));
  site = path.join(work, 'site');
  // Two runs: the sample, and the same run under a later name (a site may hold both).
  const second = path.join(work, 'nightly-2.json.gz');
  copyFileSync(path.join(ROOT, 'public', 'bundles', 'article.json.gz'), second);
  execFileSync(BIN, ['site', site, path.join(ROOT, 'public', 'bundles', 'article.zip'), second,
    '--dist', path.join(ROOT, 'dist'), '--order', 'given', '--quiet']);
  server = await startServer(['--site', site]);
  // The sub-path: requests under PREFIX go to the site's root, Range and all; others are 404.
  prefix = createServer(async (req, res) => {
    if (!req.url.startsWith(PREFIX)) {
      res.writeHead(404);
      return res.end();
    }
    const headers = { ...req.headers };
    delete headers.host;
    const up = await fetch(new URL(req.url.slice(PREFIX.length), server.url), { headers });
    const out = {};
    for (const [k, v] of up.headers) if (!['content-encoding', 'content-length', 'transfer-encoding'].includes(k)) out[k] = v;
    res.writeHead(up.status, out);
    res.end(Buffer.from(await up.arrayBuffer()));
  });
  await new Promise((r) => prefix.listen(0, '127.0.0.1', r));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await new Promise((r) => (prefix ? prefix.close(r) : r()));
  await server?.stop();
});

test('a site served from a sub-path lists its runs and opens one with the pass rates of its index', async () => {
  const index = JSON.parse(readFileSync(path.join(site, 'runs.json'), 'utf8'));
  assert.deepEqual(index.runs.map((r) => r.name), ['article', 'nightly-2']);
  const { page, problems } = await newPage(browser);
  const paths = [];
  page.on('request', (r) => paths.push(new URL(r.url()).pathname));
  await page.goto(`http://127.0.0.1:${prefix.address().port}${PREFIX}`);
  const links = page.locator('a.sample-link');
  await links.first().waitFor({ timeout: 60000 });
  assert.deepEqual(await links.allInnerTexts(), ['article', 'nightly-2']);
  await links.first().click();
  const headline = index.runs[0].corpora.find((c) => c.name === 'text2sqlbench-synthetic');
  const top = headline.models[0];
  const metric = page.locator(`[data-testid="leaderboard-view"] [data-metric="pass:${top.model}"]`).first();
  await metric.waitFor({ timeout: 60000 });
  assert.equal(Number(await metric.getAttribute('data-value')), top.pass);
  assert.equal(await page.getByTestId('bundle-hash').innerText(), index.runs[0].content_hash.slice(0, 12));
  assert.ok(paths.length > 5);
  assert.deepEqual(paths.filter((p) => !p.startsWith(PREFIX)), []);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the site trend shows the pass rates of its index and a click on a run opens it', async () => {
  const index = JSON.parse(readFileSync(path.join(site, 'runs.json'), 'utf8'));
  const { page, problems } = await newPage(browser);
  await page.goto(`http://127.0.0.1:${prefix.address().port}${PREFIX}`);
  const trend = page.getByTestId('site-trend');
  await trend.locator('[data-testid="trend-table"] tbody tr').first().waitFor({ timeout: 60000 });
  // The default corpus: in every run, the most questions.
  const corpus = 'text2sqlbench-synthetic';
  assert.equal(await page.getByTestId('trend-corpus').inputValue(), corpus);
  let cells = 0;
  for (const run of index.runs) {
    for (const m of run.corpora.find((c) => c.name === corpus).models) {
      const cell = trend.locator(`[data-metric="trend:${run.name}:${m.model}"]`);
      assert.equal(Number(await cell.getAttribute('data-value')), m.pass, `${run.name} ${m.model}`);
      cells += 1;
    }
  }
  assert.equal(cells, await trend.locator('[data-metric^="trend:"]').count());
  // The chart's second column opens the second run, pinned to its hash, on the corpus shown.
  const wrap = trend.locator('.trend-chart');
  await page.waitForFunction(() => document.querySelector('.trend-chart')?.dataset.columns?.includes(','));
  const xs = (await wrap.getAttribute('data-columns')).split(',').map(Number);
  assert.equal(xs.length, 2);
  await page.locator('canvas#site-trend').click({ position: { x: xs[1], y: 120 } });
  await page.waitForURL(/bundle=/);
  const url = new URL(page.url());
  assert.equal(url.pathname, PREFIX);
  assert.equal(url.searchParams.get('bundle'), 'bundles/nightly-2.zip');
  assert.equal(url.searchParams.get('h'), index.runs[1].content_hash.slice(0, 12));
  assert.equal(url.searchParams.get('corpus'), corpus);
  await page.getByTestId('bundle-hash').waitFor({ timeout: 60000 });
  assert.equal(await page.getByTestId('bundle-hash').innerText(), index.runs[1].content_hash.slice(0, 12));
  assert.deepEqual(problems, []);
  await page.context().close();
});
