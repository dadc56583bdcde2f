// Recompute benchmark (not a test): time from moving a ranking control to the new numbers in
// the DOM (a MutationObserver sees the headline change: all the synchronous recompute and
// rendering work) and to the next animation frame after that (the frame that paints them),
// in the release build. Reports the median and max over runs.
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
  // Runs `act` (in the page) and returns [ms until the element `watch` changed, as seen by a
  // MutationObserver right after the DOM write; ms until the next animation frame after it,
  // i.e. the frame that paints the new numbers].
  const timed = (act, arg, watch) => page.evaluate(async ([act, arg, watch]) => {
    const before = document.querySelector(watch)?.outerHTML;
    const changed = () => document.querySelector(watch)?.outerHTML !== before;
    let t0;
    const dom = new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (changed()) { obs.disconnect(); resolve(performance.now()); }
      });
      obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      setTimeout(() => { obs.disconnect(); resolve(NaN); }, 10000);
    });
    t0 = performance.now();
    if (act === 'click') {
      document.querySelector(`[data-testid="${arg[0]}"]`).click();
    } else {
      const input = document.querySelector(`[data-testid="${arg[0]}"]`);
      input.value = arg[1];
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const tDom = await dom;
    await new Promise((r) => requestAnimationFrame(r));
    return [tDom - t0, performance.now() - t0];
  }, [act, arg, watch]);
  const kTimes = [];
  const tTimes = [];
  for (let r = 0; r < runs; r += 1) {
    kTimes.push(await timed('input', ['k-slider', r % 2 ? '10' : '5'], '.headline'));
    tTimes.push(await timed('input', ['t-slider', r % 2 ? '0.5' : '0.3'], '.headline'));
  }
  const parser = await timed('click', ['gold-parser'], '.headline');
  const stats = (xs, i) => ({ median: median(xs.map((x) => x[i])), max: Math.max(...xs.map((x) => x[i])) });
  const out = {
    bundle,
    runs,
    k_change_to_dom_ms: stats(kTimes, 0),
    k_change_to_next_frame_ms: stats(kTimes, 1),
    threshold_change_to_dom_ms: stats(tTimes, 0),
    threshold_change_to_next_frame_ms: stats(tTimes, 1),
    gold_rule_switch_to_dom_ms: parser[0],
    gold_rule_switch_to_next_frame_ms: parser[1],
    problems,
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  await browser.close();
  await server.stop();
}
