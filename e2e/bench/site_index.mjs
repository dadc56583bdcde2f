// A report site of many `article`-size runs (not a test; issue 21's goal "an index of 100
// runs of article size opens < 1 s; its trend chart stays fluid"). Writes the site once into
// target/bench-sites/site-N (run 0 is the `article` sample; run n is `runlens synth --preset
// article --seed n --variant n % 4`, exported: each run its own outcomes, as nightly runs
// differ), then, in a fresh Chromium per round, from navigation to the site's root:
//   - `trendMs`: the trend's section in the DOM and its chart drawn (the index read, the
//     default corpus chosen, every run's points and intervals drawn; the table of a site
//     this size is built when opened),
//   - `hoverLongestMs` / `hoverSlowFrames`: the pointer swept across the chart in 100 steps
//     (a read-out per step): the longest main-thread task, and frames over 50 ms, during it,
//   - `corpusMs`: the other corpus chosen → its chart drawn again,
//   - `longestTaskMs` until the trend was drawn.
// Prints a markdown table of medians and the JSON of every round.
//
// Usage: [SITE_DIR=DIR] node e2e/bench/site_index.mjs [--runs ROUNDS] [--size N]
// (SITE_DIR: measure that site instead, e.g. a copy with another build's app in it)
// The app must be built (dist/) and RUNLENS_BIN point at a (release) runlens binary.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer, ROOT } from '../tests/server.mjs';
import { newPage } from '../tests/browser.mjs';
import { drawn, launchTagged, watchLongTasks } from './common.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const rounds = opt('--runs', 5);
const size = opt('--size', 100);
const BIN = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'release', 'runlens');
const DIST = process.env.RUNLENS_DIST || path.join(ROOT, 'dist');

/** The site of `size` runs, written when missing. */
function site() {
  const dir = path.join(ROOT, 'target', 'bench-sites', `site-${size}`);
  if (existsSync(path.join(dir, 'runs.json'))) return dir;
  const work = path.join(ROOT, 'target', 'bench-sites', `runs-${size}`);
  mkdirSync(work, { recursive: true });
  const zips = [path.join(ROOT, 'public', 'bundles', 'article.zip')];
  for (let n = 1; n < size; n += 1) {
    const zip = path.join(work, `nightly-${String(n).padStart(3, '0')}.zip`);
    if (!existsSync(zip)) {
      const syn = path.join(work, 'synth');
      rmSync(syn, { recursive: true, force: true });
      execFileSync(BIN, ['synth', '--preset', 'article', '--seed', String(n), '--variant', String(n % 4), '--out', syn]);
      execFileSync(BIN, ['export', path.join(syn, 'text2sqlbench-synthetic-dev'), path.join(syn, 'text2sqlbench-synthetic'),
        path.join(syn, 'out'), '--schema', path.join(syn, 'schema.md'), '--rules', path.join(syn, 'rules.yaml'),
        '--synthetic', '--quiet', '--output', zip]);
      rmSync(syn, { recursive: true, force: true });
    }
    zips.push(zip);
  }
  execFileSync(BIN, ['site', dir, ...zips, '--dist', DIST, '--order', 'given', '--quiet']);
  return dir;
}

const dir = process.env.SITE_DIR || site();
const server = await startServer(['--site', dir]);
const results = [];
try {
  for (let r = 0; r < rounds; r += 1) {
    const tag = `--runlens-bench=${process.pid}-site-${r}`;
    const { browser } = await launchTagged(tag);
    const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.addInitScript(watchLongTasks);
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="trend-table-toggle"]', { timeout: 60000 });
    await page.waitForFunction(drawn, '.trend-chart', { polling: 'raf' });
    const trendMs = await page.evaluate(() => performance.now());
    const runsShown = (await page.locator('.trend-chart').getAttribute('data-columns')).split(',').length;
    const longest = await page.evaluate(() => window.__longest);
    // The sweep: 100 pointer moves across the plot, each waiting for the next frame.
    const box = await page.locator('canvas#site-trend').boundingBox();
    await page.evaluate(() => {
      window.__longest = 0;
      window.__frames = [];
      let last = performance.now();
      const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__sweeping) requestAnimationFrame(tick); };
      window.__sweeping = true;
      requestAnimationFrame(tick);
    });
    for (let i = 0; i <= 100; i += 1) {
      await page.mouse.move(box.x + 60 + (box.width - 80) * (i / 100), box.y + box.height * 0.45);
      await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => res())));
    }
    const hover = await page.evaluate(() => {
      window.__sweeping = false;
      return { longest: window.__longest, slow: window.__frames.filter((f) => f > 50).length, tip: !!document.querySelector('[data-testid="chart-tip"]') };
    });
    // The other corpus: chosen, then drawn again.
    const other = await page.evaluate(() => {
      const s = document.querySelector('[data-testid="trend-corpus"]');
      return [...s.options].map((o) => o.value).find((v) => v !== s.value);
    });
    const t0 = await page.evaluate(() => performance.now());
    await page.selectOption('[data-testid="trend-corpus"]', other);
    await page.waitForFunction((c) => new URL(location.href).searchParams.get('corpus') === c
      && document.querySelector('canvas#site-trend')?.getAttribute('aria-label')?.includes(`(${c})`), other, { polling: 'raf' });
    await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0))));
    const corpusMs = (await page.evaluate(() => performance.now())) - t0;
    results.push({
      round: r, runsShown, trendMs: Math.round(trendMs), longestTaskMs: Math.round(longest),
      hoverLongestMs: Math.round(hover.longest), hoverSlowFrames: hover.slow, hoverTip: hover.tip,
      corpusMs: Math.round(corpusMs), problems,
    });
    await browser.close();
  }
} finally {
  await server.stop();
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined).sort((p, q) => p - q);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : '–';
};
const m = (k) => median(results.map((x) => x[k]));
console.log(`| runs | trend shown, ms | longest task until then, ms | hover sweep: longest task ms | frames > 50 ms | other corpus drawn, ms |`);
console.log('|---|---|---|---|---|---|');
console.log(`| ${m('runsShown')} | ${m('trendMs')} | ${m('longestTaskMs')} | ${m('hoverLongestMs')} | ${m('hoverSlowFrames')} | ${m('corpusMs')} |`);
console.log(JSON.stringify(results));
