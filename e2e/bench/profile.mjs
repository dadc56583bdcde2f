// Profiles opening views (not a test): loads one bundle, then for each tab named on the command
// line clicks it under a CDP sampling profile (100 µs) and prints the functions with the most
// self time until the page has no long task for 1 s. Build the app with its function names kept
// (`RUNLENS_WASM_NAMES=1 trunk build --release --offline --dist dist-prof`: scripts/split.mjs
// then runs wasm-bindgen with --keep-debug and wasm-opt with -g) so wasm frames are named.
//
// Usage: RUNLENS_BIN=... node e2e/bench/profile.mjs [--dist DIR] [--bundles DIR] [--top N]
//          URL_PATH TAB...
//   e.g. node e2e/bench/profile.mjs --dist dist-prof --bundles target/bench-bundles
//          bundles/large.json.gz ranking failures leaderboard ranking
// Besides tab keys, `open-failure` opens a failed cell from the middle of the (open) failures
// list in the trajectory viewer, and `j` presses j there; `load` as the first one profiles
// the page load itself, from navigation until the page is quiet.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
let dist = path.join(ROOT, 'dist');
const serveArgs = [];
let top = 25;
const rest = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--dist') dist = path.resolve(args[++i]);
  else if (args[i] === '--bundles') serveArgs.push('--bundles', args[++i]);
  else if (args[i] === '--top') top = Number(args[++i]);
  else rest.push(args[i]);
}
const [bundle, ...tabs] = rest;

const child = spawn(process.env.RUNLENS_BIN, ['serve', '--addr', '127.0.0.1:0', '--dist', dist, ...serveArgs],
  { cwd: ROOT, env: { ...process.env, TYPESAFE_API_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  const on = (c) => { out += c; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); };
  child.stdout.on('data', on);
  child.stderr.on('data', on);
  child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
});

/** Resolves once the page has had no long task for `quiet` ms after `from`. */
async function settle(page, from, quiet = 1000) {
  return page.evaluate(async ([f, q]) => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const mine = window.__tasks.filter((t) => t.start >= f);
      const last = mine.reduce((m, t) => Math.max(m, t.start + t.duration), f);
      if (performance.now() - last >= q) return mine.map((t) => Math.round(t.duration));
    }
  }, [from, quiet]);
}

/**
 * LONGEST=1: only the samples of the longest run without an `(idle)` sample, i.e. the longest
 * task (the rest of the samples count as idle).
 */
function longestRun(profile) {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let best = [0, 0];
  let start = 0;
  let ms = 0;
  profile.samples.forEach((id, i) => {
    if (idle.has(id)) { start = i + 1; ms = 0; return; }
    ms += (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (ms > best[2] || best[2] === undefined) best = [start, i + 1, ms];
  });
  const [from, to] = best;
  const idleId = [...idle][0];
  const samples = profile.samples.map((id, i) => (i >= from && i < to ? id : idleId));
  console.log(`\n(longest busy run: ${best[2]?.toFixed(1)} ms)`);
  return { ...profile, samples };
}

/** Prints the functions with the most self time, then inclusive time, of `profile`. */
function report(label, tasks, profile) {
  if (process.env.LONGEST) profile = longestRun(profile);
  const self = new Map();
  const dt = profile.timeDeltas;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const nameOf = (n) => n.callFrame.functionName || `(anon ${path.basename(n.callFrame.url)})`;
  const total = new Map();
  profile.samples.forEach((id, i) => {
    const ms = (dt[i + 1] ?? 0) / 1000;
    const name = nameOf(byId.get(id));
    self.set(name, (self.get(name) || 0) + ms);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) seen.add(nameOf(byId.get(cur)));
    for (const s of seen) total.set(s, (total.get(s) || 0) + ms);
  });
  const rows = [...self.entries()].filter(([k]) => k !== '(idle)' && k !== '(program)').sort((a, b) => b[1] - a[1]);
  console.log(`\n## ${label}: long tasks ${JSON.stringify(tasks)}`);
  for (const [name, ms] of rows.slice(0, top)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${name.slice(0, 140)}`);
  console.log('-- inclusive --');
  const incl = [...total.entries()].filter(([k]) => !k.startsWith('(')).sort((a, b) => b[1] - a[1]);
  for (const [name, ms] of incl.slice(0, top * 2)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${name.slice(0, 140)}`);
  // FOCUS=substring: the time under the outermost frame whose name contains it, by the
  // frame called from it (what a function's own callees cost).
  if (process.env.FOCUS) {
    const under = new Map();
    profile.samples.forEach((id, i) => {
      const ms = (dt[i + 1] ?? 0) / 1000;
      let child = null;
      let hit = null;
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        if (nameOf(byId.get(cur)).includes(process.env.FOCUS)) hit = child;
        child = cur;
      }
      if (hit !== null) {
        const name = nameOf(byId.get(hit));
        under.set(name, (under.get(name) || 0) + ms);
      }
    });
    console.log(`-- under ${process.env.FOCUS} --`);
    for (const [name, ms] of [...under.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${ms.toFixed(1).padStart(8)} ms  ${name.slice(0, 140)}`);
    }
  }
}

const browser = await launch();
try {
  const { page, problems } = await newPage(browser);
  page.on('console', (m) => console.error(`console ${m.type()}: ${m.text()}`.slice(0, 300)));
  await page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const profileLoad = tabs[0] === 'load';
  if (profileLoad) await cdp.send('Profiler.start');
  await page.goto(`${base}?bundle=${bundle}`);
  await page.waitForSelector('[data-testid="leaderboard-view"]', { timeout: 240000 }).catch((e) => { console.error(problems); throw e; });
  const loadTasks = await settle(page, 0);
  if (profileLoad) report('load', loadTasks, (await cdp.send('Profiler.stop')).profile);
  for (const tab of tabs.slice(profileLoad ? 1 : 0)) {
    const t0 = await page.evaluate(() => performance.now());
    await cdp.send('Profiler.start');
    if (tab === 'open-failure') {
      // A failed cell from the middle of the failures list (the failures tab must be open).
      const index = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('.fail-row[data-index]')];
        return rows[Math.floor(rows.length / 2)].dataset.index;
      });
      await page.click(`.fail-row[data-index="${index}"] button.open`);
    } else if (tab === 'j') {
      await page.keyboard.press('j');
    } else {
      await page.click(`button[data-tab="${tab}"]`);
    }
    const tasks = await settle(page, t0);
    report(tab, tasks, (await cdp.send('Profiler.stop')).profile);
  }
} finally {
  await browser.close();
  child.kill('SIGTERM');
}
