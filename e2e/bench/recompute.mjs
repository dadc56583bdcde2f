// Recompute benchmark (not a test): time from moving a ranking control to the next painted
// frame with the new numbers, in the release build. For each step the page sets the control,
// fires its `input` event, and waits for the metric element to change, then one
// requestAnimationFrame; the table reports the median over runs.
//
// Usage: node e2e/bench/recompute.mjs [--runs N] [BUNDLE_URL_PATH]
//   default bundle: bundles/article.json.gz (dist/ must be built, RUNLENS_BIN set)
import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
let runs = 15;
let bundle = 'bundles/article.json.gz';
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else bundle = args[i];
}
const server = await startServer();
const browser = await launch();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
try {
  const { page, problems } = await newPage(browser);
  await page.goto(`${server.url}?bundle=${bundle}&tab=ranking`);
  await page.waitForSelector('[data-testid="k-slider"]', { timeout: 600000 });
  // Sets `testid` to `value`, returns ms until the element `watch` changes and a frame is painted.
  const step = (testid, value, watch) => page.evaluate(async ([testid, value, watch]) => {
    const input = document.querySelector(`[data-testid="${testid}"]`);
    const before = document.querySelector(watch)?.outerHTML;
    const t0 = performance.now();
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      if (document.querySelector(watch)?.outerHTML !== before) break;
      if (performance.now() - t0 > 10000) return NaN;
    }
    await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - t0;
  }, [testid, value, watch]);
  const kTimes = [];
  const tTimes = [];
  for (let r = 0; r < runs; r += 1) {
    kTimes.push(await step('k-slider', r % 2 ? '10' : '5', '.headline'));
    tTimes.push(await step('t-slider', r % 2 ? '0.5' : '0.3', '.headline'));
  }
  const parserMs = await page.evaluate(async () => {
    const radio = document.querySelector('[data-testid="gold-parser"]');
    const before = document.querySelector('.headline').outerHTML;
    const t0 = performance.now();
    radio.click();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      if (document.querySelector('.headline').outerHTML !== before) break;
      if (performance.now() - t0 > 10000) return NaN;
    }
    return performance.now() - t0;
  });
  const out = {
    bundle,
    runs,
    k_change_to_frame_ms: { median: median(kTimes), max: Math.max(...kTimes) },
    threshold_change_to_frame_ms: { median: median(tTimes), max: Math.max(...tTimes) },
    gold_rule_switch_to_frame_ms: parserMs,
    problems,
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  await browser.close();
  await server.stop();
}
