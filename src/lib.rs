//! runlens-web: the dashboard, a Leptos CSR app built by trunk.
//!
//! Single owners: [`api`] makes every HTTP call, [`data`] turns URLs and files into loaded
//! bundles (in the [`loader`] worker), [`state`] holds the view state mirrored in the URL,
//! [`export`] performs every file download, [`panic`] shows a visible error if the app ever
//! panics, [`derived`] keeps what views compute from a bundle. Pages compose components; every
//! number comes from `runlens-core`, every chart from `runlens-charts`. The modules sit in
//! layers (platform, loading, derived data, pages, entry points: `src/layers.txt`), checked
//! by `scripts/check-imports.py`.

pub mod api;
pub mod app;
pub mod chunks;
pub mod clock;
pub mod components;
pub mod data;
pub mod derived;
pub mod export;
pub mod gunzip;
pub mod loader;
pub mod pages;
pub mod panic;
pub mod per_bundle;
pub mod state;
pub mod theme;
pub mod warm_fonts;
pub mod worker;
pub mod yield_now;

pub use app::App;

/// Installs the panic hooks, then mounts [`App`] on `<body>` in the next task (the module's
/// start runs in the browser's task that finishes compiling it; with the first render in it
/// too, that task was a long one: docs/performance.md), then (in tasks of their own,
/// usually while a bundle downloads) readies the fonts of the charts and the page and opens
/// `localStorage`.
pub fn start() {
    panic::install();
    wasm_bindgen_futures::spawn_local(async {
        yield_now::yield_now().await;
        leptos::mount::mount_to_body(App);
        yield_now::yield_now().await;
        warm_fonts::warm_fonts().await;
        yield_now::yield_now().await;
        state::warm_storage();
    });
}
