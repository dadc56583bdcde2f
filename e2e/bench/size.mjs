// Size of what the browser downloads to run the dashboard: every .wasm, .js and .css file in
// dist/ (not the bundles), raw and gzip -9 (what a static host with compression sends).
// Usage: node e2e/bench/size.mjs [DIST]   (after `trunk build --release --offline`)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';

const dist = process.argv[2] || 'dist';
const rows = readdirSync(dist)
  .filter((f) => /\.(wasm|js|css|html)$/.test(f) && statSync(path.join(dist, f)).isFile())
  .map((f) => {
    const bytes = readFileSync(path.join(dist, f));
    return { file: f, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);
const kb = (n) => (n / 1000).toFixed(1);
for (const r of rows) console.log(`${r.file.padEnd(48)} ${kb(r.raw).padStart(9)} KB  ${kb(r.gzip).padStart(8)} KB gzip`);
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });
console.log(`${'total'.padEnd(48)} ${kb(total.raw).padStart(9)} KB  ${kb(total.gzip).padStart(8)} KB gzip`);
