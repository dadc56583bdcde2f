// The compare view on big runs (not a test; issue 21's goals). For each run, in a fresh
// Chromium: run A alone, run B alone, then `?bundle=A&compare=B`, recording
//   - `bothWholeMs`: from navigation until both runs' whole bundles are in (A: the header's
//     `data-load-summary="false"`; B: the compare view's `data-b-whole="true"`): the moment
//     each worker can answer the scores,
//   - `tableMs`: from navigation until the per-model table is in the DOM,
//   - `afterBothMs` = `tableMs − bothWholeMs`: the table "after both runs are loaded" (goal < 1 s),
//   - the renderer processes' private footprint and the page's renderer RSS (MB, from /proc)
//     once the page shows what it opened and has been idle 3 s: compare mode against each run
//     alone (goal: no more than the two runs' own),
//   - the longest main-thread task.
// Prints a markdown table of medians and the JSON of every run.
//
// Usage: node e2e/bench/compare.mjs [--runs N] [--bundles DIR] A_PATH B_PATH
//   e.g. node e2e/bench/compare.mjs --runs 5 --bundles target/bench-bundles \
//          bundles/large.zip bundles/large-variant-1.zip
// The app must be built (dist/) and RUNLENS_BIN point at a runlens binary.
import { startServer } from '../tests/server.mjs';
import { newPage } from '../tests/browser.mjs';
import { benchArgs, launchTagged, watchLongTasks, rendererMemory } from './common.mjs';

const { runs, serveArgs, targets } = benchArgs(process.argv.slice(2), 5);
const [a, b] = targets.map((t) => t.name);
if (!a || !b) throw new Error('usage: compare.mjs [--runs N] [--bundles DIR] A_PATH B_PATH');
const LONG = 600000;
const CASES = [
  { name: 'A alone', query: `?bundle=${a}`, ready: '.bundle-header[data-load-summary="false"]' },
  { name: 'B alone', query: `?bundle=${b}`, ready: '.bundle-header[data-load-summary="false"]' },
  { name: 'A compared with B', query: `?bundle=${a}&compare=${b}`, ready: '[data-testid="compare-table"] tbody tr' },
];

const server = await startServer(serveArgs);
const results = [];
try {
  for (let r = 0; r < runs; r += 1) {
    for (const c of CASES) {
      const tag = `--runlens-bench=${process.pid}-${r}-${c.name.replace(/ /g, '-')}`;
      const { browser, pid } = await launchTagged(tag);
      const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
      await page.addInitScript(watchLongTasks);
      await page.addInitScript(() => {
        const poll = () => {
          const now = performance.now();
          if (!window.__aWhole && document.querySelector('.bundle-header[data-load-summary="false"]')) window.__aWhole = now;
          if (!window.__bWhole && document.querySelector('.compare-load[data-b-whole="true"]')) window.__bWhole = now;
          if (!window.__table && document.querySelector('[data-testid="compare-table"] tbody tr')) window.__table = now;
          if (!(window.__aWhole && window.__bWhole && window.__table)) requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
      });
      await page.goto(`${server.url}${c.query}`);
      await page.waitForSelector(c.ready, { timeout: LONG });
      await page.waitForTimeout(3000);
      const t = await page.evaluate(() => ({ a: window.__aWhole, b: window.__bWhole, table: window.__table, longest: window.__longest }));
      const mem = rendererMemory(pid);
      const both = t.b ? Math.max(t.a ?? 0, t.b) : null;
      results.push({
        case: c.name, run: r,
        bothWholeMs: both && Math.round(both),
        tableMs: t.table && Math.round(t.table),
        afterBothMs: t.table && both ? Math.round(t.table - both) : null,
        footprintMb: mem.footprint, pageRssMb: mem.pageRss, pageFootprintMb: mem.pageFootprint,
        longestTaskMs: Math.round(t.longest), problems,
      });
      await browser.close();
    }
  }
} finally {
  await server.stop();
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined).sort((p, q) => p - q);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : '–';
};
console.log('| case | both runs whole, ms | table shown, ms | table after both, ms | renderers\' private footprint MB | the page\'s renderer RSS MB | longest task ms |');
console.log('|---|---|---|---|---|---|---|');
for (const c of CASES) {
  const rows = results.filter((x) => x.case === c.name);
  const m = (k) => median(rows.map((x) => x[k]));
  console.log(`| ${c.name} | ${m('bothWholeMs')} | ${m('tableMs')} | ${m('afterBothMs')} | ${m('footprintMb')} | ${m('pageRssMb')} | ${m('longestTaskMs')} |`);
}
console.log(JSON.stringify(results));
