// Views benchmark (not a test): for each bundle, load it once, then open every tab in the app
// (click on the tab bar, as a reader does) and record
//   - the time from the click until the view's root (`[data-testid="<tab>-view"]`) is attached,
//   - the time until its first canvas has drawn pixels (views without a canvas: "-"),
//   - the longest main-thread task (PerformanceObserver 'longtask') from the click until the
//     page has been quiet (no long task) for QUIET ms,
// plus the longest task while scrolling the failures list and the audit queue to the middle,
// and while opening a failed cell in the trajectory viewer from the middle of the failures list
// (with the time until its answer is shown and its runs built: "content shown").
// Results go to stdout as a markdown table and JSON.
//
// Usage: node e2e/bench/views.mjs [--bundles DIR] [--quiet MS] NAME=URL_PATH ...
//   e.g. node e2e/bench/views.mjs --bundles target/bench-bundles article=bundles/article.json.gz
//        large=bundles/large.json.gz
// The app must be built (dist/) and RUNLENS_BIN point at a runlens binary.
import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
const serveArgs = [];
const targets = [];
let quiet = 1500;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--bundles') serveArgs.push('--bundles', args[++i]);
  else if (args[i] === '--quiet') quiet = Number(args[++i]);
  else { const [name, url] = args[i].split('='); targets.push({ name, url }); }
}
const LONG = 600000;

/** Installs the long-task recorder before any script of the page runs. */
function recorder() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

/** Waits until no long task has been seen for `quiet` ms, then returns the longest task that
 * started at or after `t0` (page clock) and the time the page went quiet. */
async function settle(page, t0) {
  return page.evaluate(async ([from, q]) => {
    const end = (t) => t.start + t.duration;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const last = window.__tasks.filter((t) => t.start >= from).reduce((m, t) => Math.max(m, end(t)), from);
      if (performance.now() - last >= q) {
        const mine = window.__tasks.filter((t) => t.start >= from);
        return { longestMs: mine.reduce((m, t) => Math.max(m, t.duration), 0), tasks: mine.length,
          busyMs: mine.reduce((s, t) => s + t.duration, 0) };
      }
    }
  }, [t0, quiet]);
}

/** Clicks (or runs `act`), then times the root, its first drawn canvas and (with `ready`, a
 * selector) the first frame that selector matches: a view whose content is an answer. */
async function measure(page, root, act, ready = null) {
  const t0 = await page.evaluate(() => performance.now());
  await act();
  const times = await page.evaluate(async ([sel, from, want]) => {
    const drawn = (c) => {
      if (!c.width || !c.height) return false;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return true;
      return false;
    };
    let rootMs = null;
    let readyMs = null;
    const deadline = from + 60000;
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      const el = document.querySelector(sel);
      if (el && rootMs === null) rootMs = now - from;
      if (want && readyMs === null && document.querySelector(want)) readyMs = now - from;
      const readyDone = !want || readyMs !== null;
      if (el && readyDone) {
        const canvases = [...el.querySelectorAll('canvas')];
        if (canvases.some(drawn)) return { rootMs, canvasMs: now - from, readyMs };
        // No canvas yet: give the view 3 s to mount one before calling it canvas-free.
        if (canvases.length === 0 && now - from - rootMs > 3000) return { rootMs, canvasMs: null, readyMs };
      }
      if (now > deadline) return { rootMs, canvasMs: null, readyMs };
    }
  }, [root, t0, ready]);
  const s = await settle(page, t0);
  return { ...times, ...s };
}

/** Scrolls a list to the middle and reports the longest task until quiet. */
async function scrollMiddle(page, selector) {
  const t0 = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const t = performance.now();
    el.scrollTop = Math.floor((el.scrollHeight - el.clientHeight) / 2);
    el.dispatchEvent(new Event('scroll'));
    return t;
  }, selector);
  if (t0 === null) return null;
  const s = await settle(page, t0);
  const rows = await page.evaluate((sel) => document.querySelector(sel).children.length, selector);
  return { ...s, rowsInDom: rows };
}

const server = await startServer(serveArgs);
const browser = await launch();
const results = [];
try {
  for (const { name, url } of targets) {
    const { page, problems } = await newPage(browser);
    await page.addInitScript(recorder);
    await page.goto(`${server.url}?bundle=${url}`);
    await page.waitForSelector('[data-load-parse-ms]', { timeout: LONG });
    await page.waitForSelector('[data-testid="leaderboard-view"]', { timeout: LONG });
    // A v2 bundle shows its summary first: the views are timed once the whole bundle is in.
    await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: LONG });
    await settle(page, 0);
    const tab = (key) => () => page.click(`button[data-tab="${key}"]`);
    const rows = [];
    const row = async (view, m) => { rows.push({ bundle: name, view, ...m }); process.stderr.write(`${name} ${view}: ${JSON.stringify(m)}\n`); };
    await row('ranking', await measure(page, '[data-testid="ranking-view"]', tab('ranking')));
    await row('matrix', await measure(page, '[data-testid="matrix-view"]', tab('matrix'),
      '[data-testid="matrix-view"][data-pending="false"] .mx-row[data-trace]'));
    await row('matrix: scroll to middle', await scrollMiddle(page, '[data-testid="matrix-grid"]'));
    await row('failures', await measure(page, '[data-testid="failures-view"]', tab('failures')));
    await row('failures: scroll list to middle', await scrollMiddle(page, '[data-testid="failure-scroll"]'));
    // Open a failed cell from the middle of the list (state.push of tab, corpus, tmodel, trace, from),
    // once the rows there are in (the list asks for them as they scroll into view).
    await page.waitForFunction(() => document.querySelector('.fail-row[data-trace]')
      && !document.querySelector('.fail-row.pending'), null, { timeout: LONG });
    const cell = await page.evaluate(() => {
      const r = [...document.querySelectorAll('.fail-row[data-trace]')];
      const mid = r[Math.floor(r.length / 2)];
      return mid ? { model: mid.dataset.model, trace: mid.dataset.trace, index: mid.dataset.index } : null;
    });
    if (cell) {
      // A DOM click where the row is: Playwright's click scrolls the box first, and the
      // virtualised list may then show another row in that element.
      const open = () => page.evaluate((i) => document.querySelector(`.fail-row[data-index="${i}"] button.open`).click(), cell.index);
      // Shown: the answer for the cell is in and its runs are built.
      const id = `${cell.model}/${cell.trace}`;
      const shown = `[data-testid="trajectory-view"][data-pending="false"][data-trajectory="${id}"] .runs`;
      await row('trajectory (failed cell from failures)', { ...(await measure(page, '[data-testid="trajectory-view"]', open, shown)), cell: id });
      const next = `[data-testid="trajectory-view"][data-pending="false"]:not([data-trajectory="${id}"]) .runs`;
      await row('trajectory: j (next failure)', await measure(page, '[data-testid="trajectory-view"]', () => page.keyboard.press('j'), next));
    }
    await row('audit', await measure(page, '[data-testid="audit-view"]', tab('audit')));
    await row('audit: scroll queue to middle', await scrollMiddle(page, '.audit-list'));
    await row('gate', await measure(page, '[data-testid="gate-view"]', tab('gate')));
    await row('leaderboard', await measure(page, '[data-testid="leaderboard-view"]', tab('leaderboard')));
    await row('trajectory (tab, same cell)', await measure(page, '[data-testid="trajectory-view"]', tab('trajectory')));
    await row('ranking (again)', await measure(page, '[data-testid="ranking-view"]', tab('ranking')));
    if (problems.length) throw new Error(problems.join('\n'));
    results.push(...rows);
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.stop();
}
const f = (x) => (x === null || x === undefined ? '-' : Number(x).toFixed(0));
console.log('| bundle | view | root attached ms | first canvas drawn ms | content shown ms | longest task ms | long tasks (sum ms) |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.bundle} | ${r.view} | ${f(r.rootMs)} | ${f(r.canvasMs)} | ${f(r.readyMs)} | ${f(r.longestMs)} | ${r.tasks ?? '-'} (${f(r.busyMs)}) |`);
}
console.log(JSON.stringify(results));
