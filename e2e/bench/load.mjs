// Load benchmark (not a test): for each bundle, time from navigation to the first drawn chart,
// download / parse / hash-check times and parse throughput as measured by the loader (in the
// Web Worker), the page's own work rebuilding the bundle from the worker's chunks, and the
// longest main-thread task (PerformanceObserver 'longtask', buffered from navigation to the
// first drawn chart and, for worker loads, until the worker has checked the content hash, which
// it does after the bundle is shown). Results go to stdout as a table and JSON.
//
// Usage: node e2e/bench/load.mjs [--runs N] [--bundles DIR] NAME=URL_PATH ...
//   e.g. node e2e/bench/load.mjs article=bundles/article.json.gz
//        node e2e/bench/load.mjs --bundles target/bench-bundles large=bundles/large.json.gz
// The app must be built (dist/) and RUNLENS_BIN point at a runlens binary.
import { startServer } from '../tests/server.mjs';
import { launch, newPage, drawnPixels } from '../tests/browser.mjs';
import { benchArgs } from './common.mjs';

const { runs, serveArgs, targets } = benchArgs(process.argv.slice(2), 3);
const server = await startServer(serveArgs);
const browser = await launch();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const results = [];
try {
  for (const { name, url } of targets) {
    const samples = [];
    for (let r = 0; r < runs; r += 1) {
      const { page, problems } = await newPage(browser);
      await page.addInitScript(() => {
        window.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${server.url}?bundle=${url}`);
      await page.waitForSelector('[data-load-parse-ms]', { timeout: 600000 });
      await page.waitForFunction(() => {
        const c = document.querySelector('canvas.chart');
        if (!c) return false;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0]) { window.__firstChart = performance.now(); return true; }
        return false;
      }, null, { timeout: 600000, polling: 'raf' });
      // Worker loads check the content hash after the bundle is shown, and record the time on
      // <html data-load-verify-ms>; wait for it so the longest task covers that period too.
      if (await page.$('.loaded-bundle[data-load-in-worker="true"]')) {
        await page.waitForSelector('html[data-load-verify-ms]', { timeout: 600000 });
      }
      const m = await page.evaluate(() => {
        const h = document.querySelector('[data-load-parse-ms]');
        const a = (k) => Number(h.getAttribute(`data-load-${k}`));
        const w = document.querySelector('.loaded-bundle');
        const b = (k) => (w ? w.getAttribute(`data-load-${k}`) : null);
        return { firstChartMs: window.__firstChart, longestTaskMs: window.__longest,
          inWorker: b('in-worker') === 'true',
          transferBytes: Number(b('transfer-bytes') ?? 0), assembleMs: Number(b('assemble-ms') ?? 0),
          downloadBytes: a('download-bytes'), jsonBytes: a('json-bytes'),
          downloadMs: a('download-ms'), gunzipMs: a('gunzip-ms'), parseMs: a('parse-ms'),
          verifyMs: Number(document.documentElement.getAttribute('data-load-verify-ms') ?? a('verify-ms')) };
      });
      if (await page.$('canvas.chart') && (await drawnPixels(page, 'canvas.chart')) < 1000) throw new Error('chart not drawn');
      if (problems.length) throw new Error(problems.join('\n'));
      samples.push(m);
      await page.context().close();
    }
    const pick = (k) => median(samples.map((s) => s[k]));
    const res = { name, runs, jsonMB: pick('jsonBytes') / 1e6, downloadMB: pick('downloadBytes') / 1e6,
      firstChartMs: pick('firstChartMs'), downloadMs: pick('downloadMs'), gunzipMs: pick('gunzipMs'), parseMs: pick('parseMs'),
      verifyMs: pick('verifyMs'), parseMBps: pick('jsonBytes') / 1e6 / (pick('parseMs') / 1000),
      longestTaskMs: pick('longestTaskMs'), inWorker: samples.every((x) => x.inWorker),
      transferMB: pick('transferBytes') / 1e6, assembleMs: pick('assembleMs') };
    results.push(res);
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log('| bundle | JSON MB | download MB | first chart ms | download ms | gunzip ms (browser) | parse ms (WASM) | parse MB/s | hash check ms | worker | page JSON MB | page rebuild ms (sum) | longest task ms |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.name} | ${r.jsonMB.toFixed(1)} | ${r.downloadMB.toFixed(1)} | ${r.firstChartMs.toFixed(0)} | ${r.downloadMs.toFixed(0)} | ${r.gunzipMs.toFixed(0)} | ${r.parseMs.toFixed(0)} | ${r.parseMBps.toFixed(1)} | ${r.verifyMs.toFixed(0)} | ${r.inWorker ? 'yes' : 'no'} | ${r.transferMB.toFixed(1)} | ${r.assembleMs.toFixed(0)} | ${r.longestTaskMs.toFixed(0)} |`);
}
console.log(JSON.stringify(results));
