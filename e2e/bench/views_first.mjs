// How soon each view shows its numbers when a link opens it directly (not a test): for each
// bundle and view, a fresh Chromium opens `?bundle=URL&tab=VIEW` and this records the time
// from navigation until
//   - leaderboard: its pass rates are shown,
//   - ranking: its curve chart has drawn pixels,
//   - gate: its table shows counts (`gate:(all):net`), and then its bootstrap intervals
//     (`data-ci-ready="true"`),
//   - failures: every chart has mounted for the newest question and the list shows rows,
//   - matrix: its first rows of cells are shown,
//   - audit: the queue's first item is shown,
// and whether the whole bundle was in by then (`data-load-summary="false"`) or only a v2
// summary. Prints a markdown table of medians and the JSON of every run.
//
// Usage: node e2e/bench/views_first.mjs [--runs N] [--bundles DIR] NAME=URL_PATH ...
// The app must be built (dist/) and RUNLENS_BIN point at a runlens binary.
import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';
import { benchArgs, drawn } from './common.mjs';

const { runs, serveArgs, targets } = benchArgs(process.argv.slice(2), 5);
const LONG = 600000;
const VIEWS = ['leaderboard', 'ranking', 'gate', 'failures', 'matrix', 'audit'];
const whole = (page) => page.$eval('.bundle-header', (h) => h.dataset.loadSummary === 'false');

const server = await startServer(serveArgs);
const results = [];
try {
  for (let r = 0; r < runs; r += 1) {
    for (const { name, url } of targets) {
      for (const view of VIEWS) {
        const browser = await launch();
        const { page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
        const t0 = Date.now();
        await page.goto(`${server.url}?bundle=${url}&tab=${view}`);
        const row = { name, view, run: r };
        if (view === 'leaderboard') {
          await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: LONG });
          row.shownMs = Date.now() - t0;
        } else if (view === 'ranking') {
          await page.waitForFunction(drawn, '[data-testid="ranking-view"]', { timeout: LONG, polling: 50 });
          row.shownMs = Date.now() - t0;
        } else if (view === 'failures') {
          await page.waitForSelector('[data-testid="failures-view"][data-pending="false"] .failure-charts[data-charts="all"]', { timeout: LONG });
          await page.waitForSelector('.fail-row[data-trace]', { timeout: LONG });
          row.shownMs = Date.now() - t0;
        } else if (view === 'matrix') {
          await page.waitForSelector('[data-testid="matrix-view"] .mx-row[data-trace] [data-outcome]', { timeout: LONG });
          row.shownMs = Date.now() - t0;
        } else if (view === 'audit') {
          await page.waitForSelector('[data-testid="audit-view"] .audit-row', { timeout: LONG });
          row.shownMs = Date.now() - t0;
        } else {
          await page.waitForSelector('[data-testid="gate-view"] [data-metric="gate:(all):net"]', { timeout: LONG });
          row.shownMs = Date.now() - t0;
          row.wholeAtShown = await whole(page);
          await page.waitForSelector('[data-testid="gate-view"][data-ci-ready="true"]', { timeout: LONG });
          row.intervalsMs = Date.now() - t0;
        }
        row.wholeAtShown ??= await whole(page);
        results.push(row);
        console.error(JSON.stringify(row));
        await browser.close();
      }
    }
  }
} finally {
  await server.stop();
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log('| bundle | view | shown, ms from navigation | whole bundle in by then (runs) | gate intervals, ms |');
console.log('|---|---|---|---|---|');
for (const { name } of targets) {
  for (const view of VIEWS) {
    const rs = results.filter((x) => x.name === name && x.view === view);
    const ints = rs.map((x) => x.intervalsMs).filter((x) => x !== undefined);
    console.log(`| ${name} | ${view} | ${median(rs.map((x) => x.shownMs))} | ${rs.filter((x) => x.wholeAtShown).length} of ${rs.length} | ${ints.length ? median(ints) : ''} |`);
  }
}
console.log(JSON.stringify(results));
