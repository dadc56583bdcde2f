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
// summary. `shownMs` counts from just before `page.goto` until Playwright sees it (its polling
// runs on the page's main thread and can lag by several hundred ms while the page is busy);
// `domMs` is the page's own clock (`performance.now()`, from navigation start) when a
// MutationObserver first saw the view's numbers in the DOM, and `frameMs` the next animation
// frame after that (about when they are painted): "from navigation" in the goals.
// Prints a markdown table of medians and the JSON of every run.
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
/** What each view shows when its numbers are in (every selector present). */
const SHOWN = {
  leaderboard: ['[data-testid="leaderboard-view"] [data-metric^="pass:"]'],
  ranking: ['[data-testid="ranking-view"] [data-metric^="recall@"]'],
  gate: ['[data-testid="gate-view"] [data-metric="gate:(all):net"]'],
  failures: ['[data-testid="failures-view"][data-pending="false"] .failure-charts[data-charts="all"]', '.fail-row[data-trace]'],
  matrix: ['[data-testid="matrix-view"] .mx-row[data-trace] [data-outcome]'],
  audit: ['[data-testid="audit-view"] .audit-row'],
};

/** The page's own times of the view's numbers: in the DOM, and the frame after. */
async function inPage(page) {
  await page.waitForFunction(() => window.__frameAt !== undefined, null, { timeout: LONG });
  return page.evaluate(() => ({ domMs: Math.round(window.__domAt), frameMs: Math.round(window.__frameAt) }));
}

const server = await startServer(serveArgs);
const results = [];
try {
  for (let r = 0; r < runs; r += 1) {
    for (const { name, url } of targets) {
      for (const view of VIEWS) {
        const browser = await launch();
        const { page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
        await page.addInitScript((selectors) => {
          new MutationObserver((_, observer) => {
            if (!selectors.every((s) => document.querySelector(s))) return;
            window.__domAt = performance.now();
            requestAnimationFrame(() => { window.__frameAt = performance.now(); });
            observer.disconnect();
          }).observe(document, { childList: true, subtree: true, attributes: true });
        }, SHOWN[view]);
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
          Object.assign(row, await inPage(page));
          row.wholeAtShown = await whole(page);
          await page.waitForSelector('[data-testid="gate-view"][data-ci-ready="true"]', { timeout: LONG });
          row.intervalsMs = Date.now() - t0;
        }
        if (row.domMs === undefined) Object.assign(row, await inPage(page));
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
console.log('| bundle | view | seen by Playwright, ms from goto | in the DOM, ms from navigation | next frame, ms | whole bundle in by then (runs) | gate intervals, ms from goto |');
console.log('|---|---|---|---|---|---|---|');
for (const { name } of targets) {
  for (const view of VIEWS) {
    const rs = results.filter((x) => x.name === name && x.view === view);
    const ints = rs.map((x) => x.intervalsMs).filter((x) => x !== undefined);
    console.log(`| ${name} | ${view} | ${median(rs.map((x) => x.shownMs))} | ${median(rs.map((x) => x.domMs))} | ${median(rs.map((x) => x.frameMs))} | ${rs.filter((x) => x.wholeAtShown).length} of ${rs.length} | ${ints.length ? median(ints) : ''} |`);
  }
}
console.log(JSON.stringify(results));
