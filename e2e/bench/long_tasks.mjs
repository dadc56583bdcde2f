// Long main-thread tasks of a load and a walk through the views, each broken down by what
// ran inside it (a Chromium trace: script, style, layout, paint). Not a test.
// Usage: RUNLENS_BIN=… node e2e/bench/long_tasks.mjs [bundles/large.zip] (from target/bench-bundles).
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { startServer } from '../tests/server.mjs';
import { newPage } from '../tests/browser.mjs';
const bundle = process.argv[2] || 'bundles/large.zip';
const TABS = ['ranking', 'matrix', 'failures', 'audit', 'gate', 'trajectory', 'leaderboard'];
const server = await startServer(['--bundles', 'target/bench-bundles']);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
const { page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
await browser.startTracing(page, { path: '/tmp/trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
await page.goto(`${server.url}?bundle=${bundle}`);
await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 120000 });
await page.waitForTimeout(1500);
for (const tab of TABS) {
  await page.evaluate((t) => performance.mark(`click ${t}`), tab);
  await page.click(`button[data-tab="${tab}"]`);
  await page.waitForSelector(`[data-testid="${tab}-view"]`, { timeout: 120000 });
  await page.waitForTimeout(1500);
}
await browser.stopTracing();
await browser.close(); await server.stop();
const { traceEvents } = JSON.parse(readFileSync('/tmp/trace.json', 'utf8'));
const main = new Set(traceEvents.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const onMain = traceEvents.filter((e) => main.has(`${e.pid}:${e.tid}`));
const t0 = Math.min(...onMain.filter((e) => e.ts).map((e) => e.ts));
const marks = onMain.filter((e) => e.cat?.includes('user_timing') && e.name.startsWith('click')).map((e) => [Math.round((e.ts - t0) / 1000), e.name]);
const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur > 40000);
for (const task of tasks) {
  const start = task.ts; const end = task.ts + task.dur;
  const inside = onMain.filter((e) => e.ph === 'X' && e.ts >= start && e.ts + (e.dur || 0) <= end && e !== task);
  const sums = {};
  for (const e of inside) sums[e.name] = (sums[e.name] || 0) + e.dur;
  const top = Object.entries(sums).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, d]) => `${n} ${Math.round(d / 1000)}`).join(', ');
  const mark = marks.filter(([t]) => t <= (start - t0) / 1000).at(-1)?.[1] ?? 'load';
  console.log(`${String(Math.round((start - t0) / 1000)).padStart(6)} ms  ${Math.round(task.dur / 1000)} ms  [after ${mark}]  ${top}`);
}
