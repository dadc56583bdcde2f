// Load timeline (not a test): when each loader-worker message reaches the page (`worker-new`,
// `msg:ready`, the first time of each progress phase, `first-chunk`, `msg:done`,
// `msg:gold_parses`, `msg:verified`), when the app's module started (`app-started`) and the
// first chart was drawn (`chart`), page clock ms from navigation start; plus resource timings
// [name, start, end] and the long tasks [start, duration]. One JSON line per run.
//
// Usage: RUNLENS_BIN=... node e2e/bench/timeline.mjs [--runs N] [--bundles DIR] [URL_PATH]
//   e.g. node e2e/bench/timeline.mjs --bundles target/bench-bundles bundles/article.json.gz
import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
const serveArgs = [];
let runs = 3;
let url = 'bundles/article.json.gz';
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--bundles') serveArgs.push('--bundles', args[++i]);
  else if (args[i] === '--runs') runs = Number(args[++i]);
  else url = args[i];
}
const server = await startServer(serveArgs);
const browser = await launch();
try {
  for (let r = 0; r < runs; r++) {
    const { page } = await newPage(browser);
    await page.addInitScript(() => {
      window.__ev = [];
      const mark = (k) => window.__ev.push([k, performance.now()]);
      addEventListener('TrunkApplicationStarted', () => mark('app-started'));
      const W = window.Worker;
      window.Worker = function (...a) {
        mark('worker-new');
        const w = new W(...a);
        let chunks = 0;
        w.addEventListener('message', (e) => {
          let kind = '?';
          try { kind = JSON.parse(e.data.head).kind; } catch (_) {}
          if (kind === 'chunk') { chunks++; if (chunks === 1) mark('first-chunk'); return; }
          if (kind === 'progress') { const p = JSON.parse(e.data.head); const k = 'progress:' + (p.phase || JSON.stringify(p)); if (!window.__ev.some((x) => x[0] === k)) mark(k); return; }
          mark('msg:' + kind);
        });
        return w;
      };
      window.Worker.prototype = W.prototype;
      window.__longtasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.url}?bundle=${url}`);
    await page.waitForFunction(() => {
      const c = document.querySelector('canvas.chart');
      if (!c) return false;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0]) { window.__ev.push(['chart', performance.now()]); return true; }
      return false;
    }, null, { timeout: 600000, polling: 'raf' });
    const out = await page.evaluate(() => {
      const res = performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop().slice(0, 30), Math.round(e.startTime), Math.round(e.responseEnd)]);
      const nav = performance.getEntriesByType('navigation')[0];
      return { ev: window.__ev.map(([k, t]) => `${k}@${Math.round(t)}`).join(' '), res, dcl: Math.round(nav.domContentLoadedEventEnd), lt: window.__longtasks };
    });
    console.log(JSON.stringify(out));
    await page.context().close();
  }
} finally { await browser.close(); await server.stop(); }
