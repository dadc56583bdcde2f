// The loader worker's early download. `prestart.js` starts the worker as
// `loader-worker.js?prefetch=<absolute bundle URL>` when the page is opened with `?bundle=`;
// `loader-worker.js` calls `startPrefetch()` before it imports the dashboard's module, so the
// download and the browser's gunzip run while that module is fetched and compiled, instead of
// after it. The worker's WASM adopts the result when the page asks for the same URL
// (src/loader/prefetched.rs), or aborts it when the page asks for another.
//
// The result never rejects: failures are values, so the Rust side words them exactly as it
// words its own download errors.
//   { failed: 'network' | 'body' | 'inflate', message }
//   { failed: 'status', status, statusText }
//   { bytes: Uint8Array, downloadBytes, downloadMs, gunzipMs, inflated: boolean }
// While it runs, `phase` ('downloading', then 'inflating' for gzip), `done` (bytes so far) and
// `total` (the Content-Length, or null) say how far it is; `settled` turns true at the end.

const SLOT = '__runlensPrefetch';

/** Starts the download named by this worker's `?prefetch=` parameter, if any. */
export function startPrefetch() {
  const url = new URL(self.location.href).searchParams.get('prefetch');
  if (url) prefetch(url);
}

/** Starts downloading (and, for gzip, inflating) `url` into `globalThis.__runlensPrefetch`. */
export function prefetch(url) {
  const controller = new AbortController();
  const state = { url, phase: 'downloading', done: 0, total: null, settled: false, abort: () => controller.abort() };
  state.result = run(url, controller.signal, state).finally(() => { state.settled = true; });
  globalThis[SLOT] = state;
}

function messageOf(error) {
  return error && typeof error.message === 'string' ? error.message : String(error);
}

async function run(url, signal, state) {
  const t0 = performance.now();
  let response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    return { failed: 'network', message: messageOf(error) };
  }
  if (!response.ok) return { failed: 'status', status: response.status, statusText: response.statusText };
  const length = Number.parseInt((response.headers.get('content-length') ?? '').trim(), 10);
  state.total = Number.isSafeInteger(length) && length >= 0 ? length : null;
  const pieces = [];
  try {
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pieces.push(value);
        state.done += value.length;
      }
    }
  } catch (error) {
    return { failed: 'body', message: messageOf(error) };
  }
  const bytes = new Uint8Array(state.done);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  pieces.length = 0;
  const downloadMs = performance.now() - t0;
  const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!gzip || typeof DecompressionStream !== 'function') {
    return { bytes, downloadBytes: bytes.length, downloadMs, gunzipMs: 0, inflated: false };
  }
  state.phase = 'inflating';
  const t1 = performance.now();
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    const json = new Uint8Array(await new Response(stream).arrayBuffer());
    return { bytes: json, downloadBytes: bytes.length, downloadMs, gunzipMs: performance.now() - t1, inflated: true };
  } catch (error) {
    return { failed: 'inflate', message: messageOf(error) };
  }
}
