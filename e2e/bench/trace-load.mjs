// Load trace (not a test): records a Chromium performance trace of one page load (`?bundle=`)
// until the first chart is drawn and the page has been quiet for a second, then prints the
// main thread's long tasks with what each spent its time on (script, style, layout, paint,
// GC, message handling…; the trace's event names, self time). Complements profile.mjs, whose
// sampling profile cannot see the browser's own work ("(program)"). SAMPLES=MS adds, for each
// task of at least MS ms, the share of V8's samples inside it per function (inclusive).
//
// MIN_TASK=MS lists tasks from MS ms (default 50).
//
// Usage: RUNLENS_BIN=... [SAMPLES=MS] [MIN_TASK=MS] node e2e/bench/trace-load.mjs [--dist DIR] [--bundles DIR] [--save FILE] URL_PATH
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, ROOT } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
const serveArgs = [];
let save = null;
let url = 'bundles/article.json.gz';
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--bundles') serveArgs.push('--bundles', args[++i]);
  else if (args[i] === '--dist') process.env.RUNLENS_DIST = path.resolve(ROOT, args[++i]);
  else if (args[i] === '--save') save = args[++i];
  else url = args[i];
}
/**
 * SAMPLES=MS: for each main-thread task of at least MS ms, the JS/WASM functions the V8
 * sampling profiler (recorded in the trace) saw most often inside it, inclusive of callees.
 */
function printSamples(events, main, task) {
  const [pid, tid] = main.split(':').map(Number);
  // The main thread's profile (the worker has its own); its chunks come from a profiler thread.
  const profileId = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)?.id;
  const nodes = new Map();
  const parent = new Map();
  const inside = new Map();
  for (const e of events) {
    if (e.pid !== pid || e.name !== 'ProfileChunk' || e.id !== profileId) continue;
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes || []) {
      nodes.set(`${e.id}:${n.id}`, n.callFrame.functionName || `(anon ${n.callFrame.url?.split('/').pop()})`);
      if (n.parent !== undefined) parent.set(`${e.id}:${n.id}`, `${e.id}:${n.parent}`);
    }
  }
  // Sample times: each chunk's deltas continue from the previous chunk of the same profile.
  const clock = new Map();
  for (const e of events) {
    if (e.pid !== pid || e.id !== profileId) continue;
    if (e.name === 'Profile') clock.set(e.id, e.args.data.startTime);
    if (e.name !== 'ProfileChunk') continue;
    const { cpuProfile, timeDeltas } = e.args.data;
    let t = clock.get(e.id) ?? 0;
    (cpuProfile?.samples || []).forEach((id, i) => {
      t += timeDeltas[i];
      if (t < task.ts || t > task.ts + task.dur) return;
      const seen = new Set();
      for (let cur = `${e.id}:${id}`; cur !== undefined; cur = parent.get(cur)) seen.add(nodes.get(cur));
      for (const name of seen) inside.set(name, (inside.get(name) || 0) + 1);
    });
    clock.set(e.id, t);
  }
  const total = inside.get('(root)') || 1;
  const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
  const rows = [...inside.entries()].filter(([n]) => n && !n.startsWith('(root') && (!only || only.test(n))).sort((a, b) => b[1] - a[1]).slice(0, 40);
  for (const [name, n] of rows) console.log(`   ${(100 * n / total).toFixed(0).padStart(3)} %  ${name.slice(0, 130)}`);
}

const server = await startServer(serveArgs);
const browser = await launch();
try {
  const { page } = await newPage(browser);
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing',
      ...(process.env.SAMPLES ? ['disabled-by-default-v8.cpu_profiler'] : [])],
  });
  await page.goto(`${server.url}?bundle=${url}`);
  await page.waitForSelector('canvas', { timeout: 600000 });
  await page.waitForTimeout(1500);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
  if (save) writeFileSync(save, JSON.stringify(trace));
  const events = trace.traceEvents;
  // The renderer main thread: the one with the most RunTask time that runs `FunctionCall`s of
  // the page (the worker's thread is named DedicatedWorker thread).
  const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const main = [...names.entries()].find(([, n]) => n === 'CrRendererMain')?.[0];
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  const minTask = Number(process.env.MIN_TASK || 50) * 1000;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.dur >= minTask).sort((a, b) => a.ts - b.ts);
  const t0 = Math.min(...onMain.map((e) => e.ts));
  for (const task of tasks) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    // Self time per event name: its duration minus its direct children's.
    const self = new Map();
    for (const e of inside) {
      const kids = inside.filter((c) => c !== e && c.ts >= e.ts && c.ts + c.dur <= e.ts + e.dur);
      const direct = kids.filter((c) => !kids.some((p) => p !== c && c.ts >= p.ts && c.ts + c.dur <= p.ts + p.dur));
      const own = e.dur - direct.reduce((s, c) => s + c.dur, 0);
      self.set(e.name, (self.get(e.name) || 0) + own);
    }
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8)
      .map(([n, us]) => `${n} ${(us / 1000).toFixed(1)}`).join(', ');
    console.log(`task @${((task.ts - t0) / 1000).toFixed(0)} ms, ${(task.dur / 1000).toFixed(1)} ms: ${top}`);
    if (process.env.SAMPLES && task.dur >= Number(process.env.SAMPLES) * 1000) printSamples(events, main, task);
  }
} finally {
  await browser.close();
  await server.stop();
}
