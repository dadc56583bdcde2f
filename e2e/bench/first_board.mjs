// Two builds of the app against each other (not a test): the time from navigation until the
// leaderboard shows its pass rates (the page's own clock), each load in a fresh Chromium,
// the builds alternating (A B, then B A, …) so that a drift of the machine falls on both;
// and the app code (gzip -9 of each file, as a compressing host sends it) the page and its
// loader worker fetched by then.
//
// Usage: node e2e/bench/first_board.mjs [--runs N] DIST_A DIST_B URL_PATH...
//   e.g. node e2e/bench/first_board.mjs --runs 6 /tmp/old/dist dist \
//          bundles/article.json.gz bundles/article.zip
// RUNLENS_BIN must point at a runlens binary; each dist needs the bundles named.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { newPage } from '../tests/browser.mjs';

const argv = process.argv.slice(2);
let runs = 5;
if (argv[0] === '--runs') { runs = Number(argv[1]); argv.splice(0, 2); }
const [distA, distB, ...bundles] = argv;
if (!distB || !bundles.length) throw new Error('usage: first_board.mjs [--runs N] DIST_A DIST_B URL_PATH...');

/** `runlens serve` of `dist` on a free loopback port. */
async function serve(dist) {
  const child = spawn(process.env.RUNLENS_BIN, ['serve', '--addr', '127.0.0.1:0', '--dist', dist],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const seen = (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) resolve(m[0]);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`runlens serve ${dist} exited (${code}): ${out}`)));
  });
  return { dist, url, child };
}

const gz = new Map();
/** gzip -9 bytes of the dist file `name` (0 for what is not a file of it). */
function gzipped(dist, name) {
  const key = `${dist}/${name}`;
  if (!gz.has(key)) {
    try { gz.set(key, gzipSync(readFileSync(path.join(dist, name)), { level: 9 }).length); } catch { gz.set(key, 0); }
  }
  return gz.get(key);
}

const sides = { A: await serve(distA), B: await serve(distB) };
const results = new Map();
try {
  for (let r = 0; r < runs; r += 1) {
    for (const side of r % 2 ? ['B', 'A'] : ['A', 'B']) {
      for (const bundle of bundles) {
        const browser = await chromium.launch({
          executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
          headless: true,
          args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
        });
        const { page, problems } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
        const files = new Set();
        page.on('request', (q) => {
          const name = decodeURIComponent(new URL(q.url()).pathname.split('/').pop()) || 'index.html';
          if (/\.(wasm|js|css|html)$/.test(name)) files.add(name);
        });
        await page.addInitScript(() => {
          new MutationObserver(() => {
            if (!window.__boardAt && document.querySelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]')) {
              window.__boardAt = performance.now();
            }
          }).observe(document, { childList: true, subtree: true, attributes: true });
        });
        await page.goto(`${sides[side].url}/?bundle=${bundle}`);
        await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 120000 });
        const ms = Math.round(await page.evaluate(() => window.__boardAt));
        const kb = [...files].reduce((n, f) => n + gzipped(sides[side].dist, f), 0) / 1000;
        if (problems.length) throw new Error(`${side} ${bundle}: ${problems.join('; ')}`);
        const key = `${side} ${bundle}`;
        if (!results.has(key)) results.set(key, { ms: [], files: files.size, kb });
        results.get(key).ms.push(ms);
        await browser.close();
      }
    }
  }
} finally {
  for (const s of Object.values(sides)) s.child.kill();
}
console.log(`A = ${distA}, B = ${distB}; ${runs} loads each, alternating`);
console.log('| build | bundle | leaderboard ms, median | every load | app files fetched by then | their KB gzip |');
console.log('|---|---|---:|---|---:|---:|');
for (const [key, { ms, files, kb }] of results) {
  const [side, bundle] = key.split(' ');
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]
    : Math.round((sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2);
  console.log(`| ${side} | ${bundle} | ${median} | ${ms.join(', ')} | ${files} | ${kb.toFixed(1)} |`);
}
