// v1 against v2 of the same run (not a test): bundles are opened alternately (v1, v2, v1, …),
// each in a fresh Chromium, and for each load this records
//   - the time until the leaderboard shows its pass rates: `leaderboardMs` from just before
//     `page.goto` until Playwright sees them (its polling can lag by several hundred ms),
//     `leaderboardDomMs` the page's own clock (from navigation start) when they entered the DOM,
//   - the time until the ranking view's chart has drawn pixels after a click on its tab,
//   - the renderer processes' resident memory (VmRSS from /proc, summed over every
//     `--type=renderer` process of that browser: the page and its loader worker live there;
//     wasm memory is invisible to `performance.memory`) after the leaderboard, and again after
//     every tab has been opened once,
//   - the page's and the loader worker's wasm memory (MB; it never shrinks: each one's peak;
//     read once the whole bundle is in),
//   - the longest main-thread task from navigation to the end (PerformanceObserver),
//   - the time from navigation until the whole bundle is in (the views that wait for it:
//     the matrix, the audit queue, a trajectory).
// Prints a markdown table of medians and the JSON of every run.
//
// Usage: node e2e/bench/v1v2.mjs [--runs N] [--bundles DIR] NAME=URL_PATH ...
//   e.g. node e2e/bench/v1v2.mjs --runs 5 --bundles target/bench-bundles \
//          v1=bundles/large.json.gz v2=bundles/large.zip
// The app must be built (dist/) and RUNLENS_BIN point at a runlens binary.
import { startServer } from '../tests/server.mjs';
import { newPage } from '../tests/browser.mjs';
import { benchArgs, launchTagged, watchLongTasks, drawn, rendererMemory } from './common.mjs';

const { runs, serveArgs, targets } = benchArgs(process.argv.slice(2), 5);
const LONG = 600000;
const TABS = ['matrix', 'ranking', 'failures', 'audit', 'gate', 'trajectory', 'leaderboard'];

/** MB of VmRSS summed over the renderer processes under the browser `pid`. */
function rendererMb(pid) {
  return rendererMemory(pid).rss;
}


const server = await startServer(serveArgs);
const results = [];
try {
  for (let r = 0; r < runs; r += 1) {
    for (const { name, url } of targets) {
      // A tag on the browser's command line finds its process (and so its renderers).
      const tag = `--runlens-bench=${process.pid}-${r}-${name}`;
      const { browser, pid } = await launchTagged(tag);
      const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
      await page.addInitScript(watchLongTasks);
      await page.addInitScript(() => {
        // When the whole bundle is in (the views that wait for it can answer).
        new MutationObserver(() => {
          if (!window.__wholeAt && document.querySelector('.bundle-header[data-load-summary="false"]')) window.__wholeAt = performance.now();
          // The page's own time (Playwright's polling below can see it several hundred ms late).
          if (!window.__boardAt && document.querySelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]')) window.__boardAt = performance.now();
        }).observe(document, { childList: true, subtree: true, attributes: true });
      });
      const t0 = Date.now();
      await page.goto(`${server.url}?bundle=${url}`);
      await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: LONG });
      const leaderboardMs = Date.now() - t0;
      await page.waitForTimeout(1500);
      const afterBoardMb = rendererMb(pid);
      const t1 = Date.now();
      await page.click('button[data-tab="ranking"]');
      await page.waitForFunction(drawn, '[data-testid="ranking-view"]', { timeout: LONG, polling: 50 });
      const rankingChartMs = Date.now() - t1;
      for (const tab of TABS) {
        await page.click(`button[data-tab="${tab}"]`);
        await page.waitForSelector(`[data-testid="${tab}-view"]`, { timeout: LONG });
        await page.waitForTimeout(1000);
      }
      const afterViewsMb = rendererMb(pid);
      // The same once the whole bundle is in and the page is idle (the moment above falls
      // at different points of a v2 load as more views open early).
      await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: LONG });
      await page.waitForTimeout(3000);
      const steady = rendererMemory(pid);
      const steadyMb = steady.rss;
      // Read once the whole bundle is in: a v2 summary's header has no worker figure yet.
      const wasm = await page.evaluate(() => ({
        page: Math.round((window.wasmBindings?.wasm_memory_bytes?.() ?? 0) / 1048576),
        worker: Math.round(Number(document.querySelector('.bundle-header')?.dataset.loadWorkerWasmBytes ?? 0) / 1048576),
      }));
      const longestTaskMs = Math.round(await page.evaluate(() => window.__longest));
      const wholeMs = Math.round(await page.evaluate(() => window.__wholeAt ?? 0));
      const leaderboardDomMs = Math.round(await page.evaluate(() => window.__boardAt ?? 0));
      const requests = await page.$eval('.bundle-header', (h) => Number(h.dataset.loadRequests));
      results.push({ name, run: r, leaderboardMs, leaderboardDomMs, wholeMs, rankingChartMs, afterBoardMb, pageWasmMb: wasm.page, workerWasmMb: wasm.worker, afterViewsMb, steadyMb, steadyFootprintMb: steady.footprint, tabRssMb: steady.pageRss, tabFootprintMb: steady.pageFootprint, steadyFileMb: steady.file, steadyShmemMb: steady.shmem, renderers: steady.processes, longestTaskMs, requests, problems });
      console.error(JSON.stringify(results.at(-1)));
      await browser.close();
    }
  }
} finally {
  await server.stop();
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log("| bundle | leaderboard in the DOM, ms | seen by Playwright, ms | whole bundle in ms | ranking chart ms | renderer MB after leaderboard | after every view | whole bundle in, idle 3 s | their private footprint MB | the page's renderer: RSS MB | its private footprint MB | worker wasm MB | longest task ms |");
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { name } of targets) {
  const mine = results.filter((x) => x.name === name);
  const m = (k) => median(mine.map((x) => x[k]));
  console.log(`| ${name} | ${m('leaderboardDomMs')} | ${m('leaderboardMs')} | ${m('wholeMs')} | ${m('rankingChartMs')} | ${m('afterBoardMb')} | ${m('afterViewsMb')} | ${m('steadyMb')} | ${m('steadyFootprintMb')} | ${m('tabRssMb')} | ${m('tabFootprintMb')} | ${m('workerWasmMb')} | ${m('longestTaskMs')} |`);
}
console.log(JSON.stringify(results));
