//! Loading off the main thread: a dedicated Web Worker (`loader-worker.js`, running the app's
//! own module; see `start_loader_worker` in src/main.rs and [`crate::worker`]) owns
//! download, gunzip, parse, the content-hash check and the import of raw harness files, and
//! keeps the bundle: the page receives its skeleton and asks the worker what its views show.
//! The protocol is described in docs/architecture.md, "Loading".

pub mod ask;
pub mod boards;
pub mod cell_text;
pub mod client;
pub mod decode;
pub mod digest;
pub mod entries;
pub mod files;
pub mod parses;
pub mod pipeline;
pub mod prefetched;
pub mod prestart;
pub mod progress;
pub mod protocol;
pub mod request;
pub mod skeleton;
pub mod summary;
pub mod v2;
pub mod view_query;

/// Bytes of this wasm instance's linear memory (page or worker; it never shrinks).
pub fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as f64
        })
        .unwrap_or(0.0)
}
