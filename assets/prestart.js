// Starts the loader Web Worker while the app's own module is still downloading, when the page
// was opened to load a bundle (`?bundle=`): the worker fetches and compiles its module at the
// same time as the page instead of after it. The app adopts the worker and the events it sent
// before the app listened (src/loader/prestart.rs). Without this script the app starts its
// own worker, as it does for every later load.
// The worker also starts downloading the bundle at once (`?prefetch=`, assets/loader-prefetch.js),
// resolved against the page as the app resolves it (src/loader/client.rs, `absolute`).
const bundle = (new URLSearchParams(window.location.search).get('bundle') ?? '').trim();
if (window.Worker && bundle) {
  try {
    const url = new URL(bundle, document.baseURI).href;
    const worker = new Worker(`./loader-worker.js?prefetch=${encodeURIComponent(url)}`, { type: 'module' });
    const early = [];
    const keep = (event) => early.push(event);
    worker.addEventListener('message', keep);
    worker.addEventListener('error', keep);
    const stop = () => {
      worker.removeEventListener('message', keep);
      worker.removeEventListener('error', keep);
    };
    window.__runlensLoader = { worker, early, stop };
  } catch (_) {
    // No worker here: the app loads on its own.
  }
}
