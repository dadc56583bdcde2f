// node wasm/bench.mjs WASM DATA [export]  — copies DATA into the module's memory via alloc(),
// runs `export` (default: decode) once as warm-up then 5 timed times (median reported), and
// prints one JSON line: {wasm, data, export, rows, checksum, flags, first_ms, median_ms, runs_ms}.
// Run with `node --no-liftoff` to time optimized (TurboFan) code from the first call on.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [wasmPath, dataPath, exp = "decode"] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const ex = instance.exports;
const data = readFileSync(dataPath);
const ptr = ex.alloc(data.length);
new Uint8Array(ex.memory.buffer, ptr, data.length).set(data);

let t00 = performance.now();
let rows = ex[exp](ptr, data.length); // first (cold) call: with default flags V8 runs Liftoff code
const first_ms = performance.now() - t00;
let checksum = ex.checksum();
const runs = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  rows = ex[exp](ptr, data.length);
  runs.push(performance.now() - t0);
  checksum = ex.checksum(); // frees the decoded table, outside the timing
}
const sorted = [...runs].sort((a, b) => a - b);
console.log(JSON.stringify({
  wasm: wasmPath, data: dataPath, export: exp, rows,
  checksum: BigInt.asUintN(64, checksum).toString(),
  flags: process.execArgv.join(" "), first_ms: Number(first_ms.toFixed(2)),
  median_ms: Number(sorted[2].toFixed(2)), runs_ms: runs.map((x) => Number(x.toFixed(2))),
}));
