// Size of what the browser downloads to run the dashboard: every .wasm, .js, .css and .html
// file in dist/ (not the bundles), raw and gzip -9 (what a static host with compression sends).
// The module split (scripts/split.mjs) puts the views other than the leaderboard, the SQL
// parser and the importer in chunks fetched when first needed: "first load" is what the start
// page and the leaderboard need, "on demand" the chunks (split_*.wasm, chunk_*.wasm).
// Usage: node e2e/bench/size.mjs [DIST]   (after `trunk build --release --offline`)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';

const dist = process.argv[2] || 'dist';
const rows = readdirSync(dist)
  .filter((f) => /\.(wasm|js|css|html)$/.test(f) && statSync(path.join(dist, f)).isFile())
  .map((f) => {
    const bytes = readFileSync(path.join(dist, f));
    return { file: f, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, chunk: /^(split|chunk)_/.test(f) };
  })
  .sort((a, b) => b.gzip - a.gzip);
const kb = (n) => (n / 1000).toFixed(1);
const line = (name, r) => console.log(`${name.padEnd(48)} ${kb(r.raw).padStart(9)} KB  ${kb(r.gzip).padStart(8)} KB gzip`);
const sum = (list) => list.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip }), { raw: 0, gzip: 0 });
const first = rows.filter((r) => !r.chunk);
const chunks = rows.filter((r) => r.chunk);
for (const r of first) line(r.file, r);
line('first load', sum(first));
for (const r of chunks.slice(0, 8)) line(r.file, r);
if (chunks.length > 8) line(`… ${chunks.length - 8} smaller chunks`, sum(chunks.slice(8)));
line(`on demand (${chunks.length} chunks)`, sum(chunks));
line('total', sum(rows));
