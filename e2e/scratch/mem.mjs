import { startServer } from '../tests/server.mjs';
import { launch, newPage } from '../tests/browser.mjs';
const server = await startServer(['--bundles', '/work/main/target/bench-bundles']);
const browser = await launch();
const { page } = await newPage(browser);
await page.goto(`${server.url}?bundle=bundles/${process.env.N}`);
await page.waitForSelector('[data-testid="leaderboard-view"] [data-metric^="pass:"]', { timeout: 120000 });
await page.waitForTimeout(3000);
console.log(await page.evaluate(() => {
  const keys = Object.keys(window).filter((k) => /wasm|runlens|bindgen/i.test(k));
  const mem = window.wasmBindings?.__wasm?.memory ?? window.wasmBindings?.memory;
  return { keys, pageWasmMB: mem ? mem.buffer.byteLength / 1048576 : null };
}));
await browser.close(); await server.stop();
