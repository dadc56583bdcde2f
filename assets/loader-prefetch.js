// The loader worker's early download. `prestart.js` starts the worker as
// `loader-worker.js?prefetch=<absolute bundle URL>` when the page is opened with `?bundle=`;
// `loader-worker.js` calls `startPrefetch()` before it imports the dashboard's module, so the
// download and the browser's gunzip run while that module is fetched and compiled, instead of
// after it. The worker's WASM adopts the result when the page asks for the same URL
// (src/loader/prefetched.rs), or aborts it when the page asks for another.
//
// A v1 bundle is downloaded whole. A v2 zip's first read is started here: its last
// `ZIP_TAIL` bytes (the end records and, for a bundle's directory, the directory), asked for
// with a `Range` header; the worker reads everything else of it itself (src/loader/v2.rs). A
// v2 directory is not started here.
//
// The result never rejects: failures are values, so the Rust side words them exactly as it
// words its own download errors.
//   { failed: 'network' | 'body' | 'inflate', message }
//   { failed: 'status', status, statusText }
//   { bytes: Uint8Array, downloadBytes, downloadMs, gunzipMs, inflated: boolean,
//     status, contentRange }
// gzip is inflated as it arrives (never a ranged read's bytes); `gunzipMs` is the inflate time
// left after the last byte came. `status` and `contentRange` (the header, or null) say
// whether a host answered the range (206) or sent the whole file (200).
// While it runs, `phase` ('downloading', then 'inflating' for gzip), `done` (bytes so far) and
// `total` (the Content-Length, or null) say how far it is; `settled` turns true at the end.
// `range` is the `Range` header sent (null for a whole download): the worker adopts a
// ranged read only when it is the one it would have made.

const SLOT = '__runlensPrefetch';

/** The bytes a zip's first read asks for: `TAIL_BYTES` of runlens-core's
 * `bundle::v2::zip_index` (the end record with the longest comment, and the zip64 locator and
 * record). The worker ignores a read of any other range. */
const ZIP_TAIL = 22 + 65535 + 20 + 56;

/** Starts the download named by this worker's `?prefetch=` parameter, if any: a v1 bundle
 * whole, a v2 zip's tail; a v2 directory (`…/`, `…/manifest.json`) is read by the worker
 * alone (the forms as `url_form` in src/loader/v2.rs tells them). */
export function startPrefetch() {
  const url = new URL(self.location.href).searchParams.get('prefetch');
  if (!url) return;
  const form = formOf(url);
  if (form === 'v1') prefetch(url, null);
  else if (form === 'zip') prefetch(url, `bytes=-${ZIP_TAIL}`);
}

/** `'zip'`, `'dir'` or `'v1'`: the form `url` names, by its path. */
export function formOf(url) {
  const path = url.split(/[?#]/)[0].toLowerCase();
  if (path.endsWith('.zip')) return 'zip';
  if (path.endsWith('/') || path.endsWith('/manifest.json')) return 'dir';
  return 'v1';
}

/** Starts downloading `url` (only the `range` header's bytes when given; else whole, and
 * inflated when it is gzip) into `globalThis.__runlensPrefetch`. */
export function prefetch(url, range) {
  const controller = new AbortController();
  const state = { url, range, phase: 'downloading', done: 0, total: null, settled: false, abort: () => controller.abort() };
  state.result = run(url, range, controller.signal, state).finally(() => { state.settled = true; });
  globalThis[SLOT] = state;
}

function messageOf(error) {
  return error && typeof error.message === 'string' ? error.message : String(error);
}

async function run(url, range, signal, state) {
  const t0 = performance.now();
  let response;
  try {
    response = await fetch(url, range ? { signal, headers: { Range: range } } : { signal });
  } catch (error) {
    return { failed: 'network', message: messageOf(error) };
  }
  if (!response.ok) return { failed: 'status', status: response.status, statusText: response.statusText };
  const answer = { status: response.status, contentRange: response.headers.get('content-range') };
  const length = Number.parseInt((response.headers.get('content-length') ?? '').trim(), 10);
  state.total = Number.isSafeInteger(length) && length >= 0 ? length : null;
  const reader = response.body ? response.body.getReader() : null;
  let bodyError = null;
  let downloadMs = 0;
  const next = async () => {
    if (!reader) return { done: true };
    try {
      const chunk = await reader.read();
      if (!chunk.done) state.done += chunk.value.length;
      return chunk;
    } catch (error) {
      bodyError = error;
      throw error;
    }
  };
  // The first bytes tell gzip from plain JSON.
  const head = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < 2) {
      const { done, value } = await next();
      if (done) { ended = true; break; }
      head.push(value);
      headBytes += value.length;
    }
  } catch (error) {
    return { failed: 'body', message: messageOf(error) };
  }
  const first = join(head, headBytes);
  const gzip = first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
  if (range || !gzip || typeof DecompressionStream !== 'function') {
    const pieces = [first];
    try {
      while (!ended) {
        const { done, value } = await next();
        if (done) break;
        pieces.push(value);
      }
    } catch (error) {
      return { failed: 'body', message: messageOf(error) };
    }
    const bytes = join(pieces, state.done);
    return { ...answer, bytes, downloadBytes: bytes.length, downloadMs: performance.now() - t0, gunzipMs: 0, inflated: false };
  }
  // gzip: inflated as it arrives, so the inflate overlaps the download.
  const source = new ReadableStream({
    start(controller) { controller.enqueue(first); },
    async pull(controller) {
      const { done, value } = await next();
      if (!done) return controller.enqueue(value);
      downloadMs = performance.now() - t0;
      state.phase = 'inflating';
      controller.close();
    },
    cancel(reason) { return reader?.cancel(reason); },
  });
  try {
    const stream = source.pipeThrough(new DecompressionStream('gzip'));
    const json = new Uint8Array(await new Response(stream).arrayBuffer());
    // The inflate left after the last byte arrived (the rest overlapped the download).
    const gunzipMs = performance.now() - t0 - downloadMs;
    return { ...answer, bytes: json, downloadBytes: state.done, downloadMs, gunzipMs, inflated: true };
  } catch (error) {
    if (bodyError) return { failed: 'body', message: messageOf(bodyError) };
    return { failed: 'inflate', message: messageOf(error) };
  }
}

/** The `pieces` (`total` bytes in all) as one array. */
function join(pieces, total) {
  if (pieces.length === 1 && pieces[0].length === total) return pieces[0];
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}
