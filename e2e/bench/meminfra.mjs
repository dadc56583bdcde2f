// Where the browser's memory is after every view (a diagnostic, not a test): a Chrome memory-infra dump
// through CDP, per process, the top-level allocators (v8, malloc, partition_alloc, cc, skia,
// gpu, …) with their sizes in MB (wasm memory is not among them: the bench's worker figure
// gives it). Usage:
//   RUNLENS_BIN=target/release/runlens node e2e/bench/meminfra.mjs --bundles target/bench-bundles large-v2=bundles/large.zip
import { chromium } from 'playwright-core';
import { startServer } from '../tests/server.mjs';
import { newPage } from '../tests/browser.mjs';
import { benchArgs } from '../bench/common.mjs';

const { serveArgs, targets } = benchArgs(process.argv.slice(2), 1);
const TABS = ['matrix', 'ranking', 'failures', 'audit', 'gate', 'trajectory', 'leaderboard'];
const server = await startServer(serveArgs);
try {
  for (const { name, url } of targets) {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-memory-benchmarking'],
    });
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await page.goto(`${server.url}?bundle=${url}`);
    await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 600000 });
    for (const tab of TABS) {
      await page.click(`button[data-tab="${tab}"]`);
      await page.waitForSelector(`[data-testid="${tab}-view"]`, { timeout: 600000 });
      await page.waitForTimeout(1000);
    }
    await page.waitForSelector('.bundle-header[data-load-summary="false"]', { timeout: 600000 });
    await page.waitForTimeout(3000);
    const cdp = await browser.newBrowserCDPSession();
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], memoryDumpConfig: { triggers: [] } },
    });
    const dump = await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
    await cdp.send('Tracing.end');
    await done;
    const names = new Map();
    for (const e of events) if (e.ph === 'M' && e.name === 'process_name') names.set(e.pid, e.args.name);
    console.log(`## ${name} (dump ok: ${dump.success})`);
    for (const e of events.filter((x) => x.ph === 'v' && x.args?.dumps?.allocators)) {
      const a = e.args.dumps.allocators;
      const size = (k) => parseInt(a[k]?.attrs?.size?.value ?? '0', 16) / 1048576;
      const top = Object.keys(a).filter((k) => !k.includes('/'));
      const rows = top.map((k) => [k, size(k)]).filter(([, v]) => v >= 1).sort((x, y) => y[1] - x[1]);
      const sub = (p) => Object.keys(a).filter((k) => k.startsWith(`${p}/`) && k.split('/').length === 2)
        .map((k) => [k, size(k)]).filter(([, v]) => v >= 5).sort((x, y) => y[1] - x[1]).slice(0, 8);
      console.log(`- ${names.get(e.pid) ?? e.pid}: ` + rows.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', '));
      for (const p of ['v8', 'partition_alloc', 'malloc', 'blink_gc', 'cc']) {
        const s = sub(p);
        if (s.length) console.log(`  - ${p}: ` + s.map(([k, v]) => `${k.slice(p.length + 1)} ${v.toFixed(0)}`).join(', '));
      }
    }
    await browser.close();
  }
} finally {
  await server.stop();
}
