// Starts `runlens serve` on a free loopback port for a test file and stops it afterwards.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = path.join(ROOT, 'e2e', 'out');

/** Spawns `runlens serve --addr 127.0.0.1:0 --dist dist` (or `$RUNLENS_DIST`, for benchmarks of
 * another build; no `--dist` when `extraArgs` name a `--site`) and resolves with its base URL. */
export async function startServer(extraArgs = [], env = {}) {
  const bin = process.env.RUNLENS_BIN || path.join(ROOT, 'target', 'debug', 'runlens');
  // A report site (`--site DIR`) is its own app folder.
  const dist = extraArgs.includes('--site') ? [] : ['--dist', process.env.RUNLENS_DIST || path.join(ROOT, 'dist')];
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', ...dist, ...extraArgs], {
    cwd: ROOT,
    env: { ...process.env, TYPESAFE_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runlens serve did not start in 30 s:\n${output}`)), 30000);
    const onData = (chunk) => {
      output += chunk;
      const m = output.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c) => { output += c; });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`runlens serve exited (${code}):\n${output}`)); });
  });
  return {
    url,
    output: () => output,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.removeAllListeners('exit');
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }),
  };
}
