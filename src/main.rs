//! Entry point of the dashboard. The same module also runs the loader Web Worker: in a
//! worker (no `window`) `main` does nothing and `loader-worker.js` calls
//! [`start_loader_worker`] instead, so the page and the worker share one download.
use wasm_bindgen::prelude::wasm_bindgen;

fn main() {
    if web_sys::window().is_some() {
        runlens_web::start();
    }
}

/// Called by `loader-worker.js` (written by `scripts/csp.mjs`) once the module is loaded
/// inside the loader worker.
#[wasm_bindgen]
pub fn start_loader_worker() {
    runlens_web::worker::start();
}

/// Bytes of this wasm instance's linear memory (it never shrinks, so this is its peak so
/// far): what `e2e/bench/v1v2.mjs` reads for the page; the worker reports its own in
/// `LoadStats::worker_wasm_bytes`.
#[wasm_bindgen]
pub fn wasm_memory_bytes() -> f64 {
    runlens_web::loader::wasm_memory_bytes()
}
