// What the benchmarks share (not tests).
import { readFileSync, readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** `[--runs N] [--bundles DIR] NAME=URL_PATH ...` → `{ runs, serveArgs, targets }`;
 * `runs` is `defaultRuns` unless given. */
export function benchArgs(argv, defaultRuns) {
  let runs = defaultRuns;
  const serveArgs = [];
  const targets = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--bundles') serveArgs.push('--bundles', argv[++i]);
    else { const [name, url] = argv[i].split('='); targets.push({ name, url }); }
  }
  return { runs, serveArgs, targets };
}

/** In the page (`page.waitForFunction(drawn, selector)`): whether a canvas under `sel` has a
 * pixel unlike its top-left one. */
export const drawn = (sel) => {
  for (const c of document.querySelectorAll(`${sel} canvas`)) {
    if (!c.width || !c.height) continue;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) return true;
  }
  return false;
};

/** Children of `root` (transitively), from /proc. */
function descendants(root) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const out = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (out.has(ppid) && !out.has(pid)) { out.add(pid); grew = true; }
  }
  return [...out];
}

/** The browser process started with `tag` on its command line. */
export function browserPid(tag) {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (cmd.includes(tag) && !cmd.includes('--type=')) return Number(d);
    } catch { /* gone */ }
  }
  throw new Error(`no browser process with ${tag}`);
}

/** kB of the `/proc/<pid>/status` line `key`, 0 when absent. */
function statusKb(status, key) {
  const m = status.match(new RegExp(`${key}:\\s+(\\d+) kB`));
  return m ? Number(m[1]) : 0;
}

/**
 * Memory of the renderer processes under the browser `pid`, MB summed over them:
 * `rss` (VmRSS: counts the shared pages of Chromium's binary and libraries in every process),
 * `footprint` (RssAnon + VmSwap: Chromium's own "private memory footprint" on Linux, what its
 * task manager shows — resident minus shared pages of `/proc/<pid>/statm`, plus swap),
 * `file` (RssFile) and `shmem` (RssShmem), `processes` (how many renderers), and the page's
 * own renderer's `pageRss` and `pageFootprint` (the tab's memory as Chromium's task manager shows it).
 */
export function rendererMemory(pid) {
  const kb = { rss: 0, footprint: 0, file: 0, shmem: 0 };
  // The page's own renderer: the one with the most private memory (the others are
  // Chromium's blank and spare renderers, ~75 and ~155 MB of VmRSS here before any load).
  const page = { rss: 0, footprint: 0 };
  let processes = 0;
  for (const p of descendants(pid)) {
    try {
      if (!readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const rss = statusKb(status, 'VmRSS');
      const footprint = statusKb(status, 'RssAnon') + statusKb(status, 'VmSwap');
      if (footprint > page.footprint) Object.assign(page, { rss, footprint });
      kb.rss += rss;
      kb.footprint += footprint;
      kb.file += statusKb(status, 'RssFile');
      kb.shmem += statusKb(status, 'RssShmem');
      processes += 1;
    } catch { /* gone */ }
  }
  const mb = (x) => Math.round(x / 1024);
  return { rss: mb(kb.rss), footprint: mb(kb.footprint), file: mb(kb.file), shmem: mb(kb.shmem), processes, pageRss: mb(page.rss), pageFootprint: mb(page.footprint) };
}

/** A fresh headless Chromium tagged `tag` on its command line (which finds its process, and
 * so its renderers: `rendererMemory`), and that process's pid. */
export async function launchTagged(tag) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', tag],
  });
  return { browser, pid: browserPid(tag) };
}

/** In the page, before its scripts (`page.addInitScript(watchLongTasks)`): the longest
 * main-thread task so far in `window.__longest`, ms. */
export function watchLongTasks() {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
}
