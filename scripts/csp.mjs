// trunk post-build hook: adds a Content-Security-Policy <meta> to the staged index.html that
// forbids every inline script except trunk's own loader, pinned by its SHA-256 hash.
// Bundle text can therefore never run as script, even if it ever reached the DOM as HTML.
// It also writes loader-worker.js: the loader Web Worker runs the app's own module (same
// hashed .js/.wasm as the page, so the browser downloads it once) and starts the loader, after
// starting the bundle's early download (assets/loader-prefetch.js). First, scripts/split.mjs
// replaces trunk's module by the split one.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { splitApp } from './split.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) { console.error('csp.mjs: TRUNK_STAGING_DIR is not set (run it as a trunk hook)'); process.exit(1); }
const file = path.join(dir, 'index.html');
let html;
let moduleJs;
let moduleWasm;
try {
  const profile = process.env.TRUNK_PROFILE === 'release' ? 'release' : 'debug';
  ({ html, moduleJs, moduleWasm } = await splitApp(dir, readFileSync(file, 'utf8'), profile));
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
writeFileSync(path.join(dir, 'loader-worker.js'), [
  '// Written by scripts/csp.mjs: the loader Web Worker runs the dashboard\'s own module.',
  '// The bundle download (?prefetch=) starts before that module is imported and compiled.',
  "import { startPrefetch } from './loader-prefetch.js';",
  'startPrefetch();',
  `const { default: init, start_loader_worker } = await import('${moduleJs}');`,
  `await init({ module_or_path: '${moduleWasm}' });`,
  'start_loader_worker();',
  '',
].join('\n'));
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
  // plotters measures chart text with a <span style="..."> (plotters 0.3.7, font/web.rs), so
  // inline *styles* are allowed; inline *scripts* are not.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // bundles (?bundle=URL) and a Jev proxy (?jev=URL) may live on other hosts
  "connect-src 'self' http: https:",
  // the loader worker (dist/loader-worker.js) is a same-origin module script
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');
if (html.includes('http-equiv="Content-Security-Policy"')) { console.error('csp.mjs: index.html already has a CSP'); process.exit(1); }
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
writeFileSync(file, html);
console.log(`csp.mjs: ${hashes.length} inline script(s) pinned; loader-worker.js loads ${moduleJs}`);
