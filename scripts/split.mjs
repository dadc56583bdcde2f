// The module split, run by the trunk post-build hook (scripts/csp.mjs) before the CSP is pinned.
//
// trunk 0.21 has no step between cargo and wasm-bindgen, so trunk builds the app with the
// `split` feature (index.html: data-cargo-features, relocations kept by build.rs), and its own
// wasm-bindgen output is replaced here: wasm-split-cli (crate wasm_split_cli_support, installed
// by scripts/setup.sh) cuts cargo's wasm at the split points (`chunks::split_point!`, see src/chunks.rs) into the
// main module and chunks, wasm-bindgen runs on the main module, wasm-opt -Oz (release) on every
// module, and the files get one content hash in their names (the main .js and the chunk loader
// import each other, so they cannot each name the other's own hash).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NAME = 'runlens-web';
const LINK = '__wasm_split';

function fail(message) {
  throw new Error(`split.mjs: ${message}`);
}

function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
  } catch (e) {
    if (e.code === 'ENOENT') fail(`${cmd} was not found on PATH (scripts/setup.sh installs it; source scripts/env.sh)`);
    fail(`${cmd} ${args.join(' ')} failed (${e.status ?? e.code}):\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

function runAsync(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', (e) => reject(new Error(`split.mjs: ${cmd}: ${e.message}`)));
    child.on('close', (code) => (code === 0 ? resolve()
      : reject(new Error(`split.mjs: ${cmd} ${args.join(' ')} failed (${code}):\n${err}`))));
  });
}

/** Runs `jobs` (functions returning promises) at most `width` at a time. */
async function pool(jobs, width) {
  const queue = [...jobs];
  const lanes = Array.from({ length: width }, async () => {
    while (queue.length) await queue.shift()();
  });
  await Promise.all(lanes);
}

function sri(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** Replaces every `from` in `text` (which must occur) by `to`. */
function swap(text, from, to, where) {
  if (!text.includes(from)) fail(`"${from}" not found in ${where}`);
  return text.split(from).join(to);
}

/**
 * Replaces trunk's module in `dir` (the staging dir) by the split one. Returns `html` (trunk's
 * index.html) pointing at it, and the URLs of the new main `.js` and `.wasm` as the page loads
 * them. `profile` is trunk's (`release` runs wasm-opt).
 */
export async function splitApp(dir, html, profile) {
  // trunk names its files under the public URL (`./` by default, `--public-url /a/b/`).
  const js0 = html.match(/import init, \* as bindings from '([^']*\/)?([^'/]+\.js)'/);
  const wasm0 = html.match(/module_or_path: '([^']*\/)?([^'/]+\.wasm)'/);
  if (!js0 || !wasm0) fail("trunk's loader script was not found in index.html");
  const base = js0[1] ?? '';
  const [oldJs, oldWasm] = [js0[2], wasm0[2]];
  const meta = JSON.parse(run('cargo', ['metadata', '--format-version', '1', '--no-deps', '--offline']));
  const input = path.join(meta.target_directory, 'wasm32-unknown-unknown', profile, `${NAME}.wasm`);
  if (!existsSync(input)) fail(`cargo's wasm ${input} is missing`);
  if (!readFileSync(input).includes('__wasm_split_unstable')) {
    fail(`${input} has no split points: build it with the "split" feature (index.html data-cargo-features)`);
  }
  // Debian's binaryen 108 silently breaks the app (docs: toolchain); npm's 132 is on PATH first.
  const opt = run('wasm-opt', ['--version']);
  if (profile === 'release' && !/version 132\b/.test(opt)) fail(`wasm-opt must be binaryen 132, found: ${opt.trim()}`);
  const work = mkdtempSync(path.join(tmpdir(), 'runlens-split-'));
  try {
    run('wasm-split-cli', [input, work, '--out-name', NAME]);
    const bg = path.join(work, 'bindgen');
    // --keep-lld-exports: the chunks import the main module's function table by its name.
    // RUNLENS_WASM_NAMES=1 keeps the function names (for profiles: e2e/bench/profile.mjs).
    const names = process.env.RUNLENS_WASM_NAMES === '1';
    run('wasm-bindgen', ['--target=web', `--out-dir=${bg}`, `--out-name=${NAME}`, '--no-typescript',
      '--keep-lld-exports', ...(names ? ['--keep-debug'] : []), path.join(work, `${NAME}.wasm`)]);
    // Every module under the name it is fetched by before hashing: main, then the chunks.
    const modules = [[`${NAME}_bg.wasm`, path.join(bg, `${NAME}_bg.wasm`)]];
    for (const f of readdirSync(work).sort()) {
      if (f.endsWith('.wasm') && f !== `${NAME}.wasm`) modules.push([f, path.join(work, f)]);
    }
    if (modules.length < 2) fail('wasm-split-cli wrote no chunks');
    if (profile === 'release') {
      await pool(modules.map(([, file]) => () => runAsync('wasm-opt', [`--output=${file}`, '-Oz', ...(names ? ['-g'] : []), file])), 2);
    }
    let js = readFileSync(path.join(bg, `${NAME}.js`), 'utf8');
    let link = readFileSync(path.join(work, `${LINK}.js`), 'utf8');
    const bytes = new Map(modules.map(([name, file]) => [name, readFileSync(file)]));
    const digest = createHash('sha256');
    for (const [name, data] of [...bytes, [`${NAME}.js`, js], [`${LINK}.js`, link]]) {
      digest.update(name).update('\0').update(data).update('\0');
    }
    const hash = digest.digest('hex').slice(0, 16);
    const hashed = (name) => name.replace(/(_bg)?\.(wasm|js)$/, (m) => `-${hash}${m}`);
    const newJs = hashed(`${NAME}.js`);
    const newWasm = hashed(`${NAME}_bg.wasm`);
    const newLink = hashed(`${LINK}.js`);
    // Only the import statements: the wasm's import module keeps its name (`"./__wasm_split.js"`
    // keys the imports object).
    js = swap(js, `from "./${LINK}.js"`, `from "./${newLink}"`, 'the main module');
    js = js.split(`'${NAME}_bg.wasm'`).join(`'${newWasm}'`);
    link = swap(link, `"./${NAME}.js"`, `"./${newJs}"`, 'the chunk loader');
    for (const [name] of modules.slice(1)) {
      link = swap(link, `"./${name}"`, `"./${hashed(name)}"`, 'the chunk loader');
    }
    for (const [name, data] of bytes) writeFileSync(path.join(dir, hashed(name)), data);
    writeFileSync(path.join(dir, newJs), js);
    writeFileSync(path.join(dir, newLink), link);
    rmSync(path.join(dir, oldJs));
    rmSync(path.join(dir, oldWasm));
    html = swap(html, `${base}${oldJs}`, `${base}${newJs}`, 'index.html');
    html = swap(html, `${base}${oldWasm}`, `${base}${newWasm}`, 'index.html');
    // trunk's preload links carry subresource integrity: recompute it for the new files, and
    // preload the chunk loader too (the main module imports it).
    const integrity = (file, data, text) => text.replace(
      new RegExp(`(href="${(base + file).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"[^>]*integrity=")[^"]*"`),
      (_, head) => `${head}${sri(data)}"`);
    html = integrity(newJs, js, html);
    html = integrity(newWasm, bytes.get(`${NAME}_bg.wasm`), html);
    html = swap(html, '</head>',
      `<link rel="modulepreload" href="${base}${newLink}" crossorigin="anonymous" integrity="${sri(link)}"></head>`,
      'index.html');
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    const chunkBytes = [...bytes].slice(1).reduce((n, [, d]) => n + d.length, 0);
    console.log(`split.mjs: ${newWasm} ${kb(bytes.get(`${NAME}_bg.wasm`).length)}, `
      + `${modules.length - 1} chunks ${kb(chunkBytes)} (${profile})`);
    return { html, moduleJs: `${base}${newJs}`, moduleWasm: `${base}${newWasm}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
