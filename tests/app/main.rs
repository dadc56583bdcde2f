//! Browser tests of the app (headless Chromium via wasm-bindgen-test-runner), one test binary
//! for all of them: each `tests/*.rs` would link the whole app into its own wasm file (a
//! cold `make test` then wrote ~1 GB of test binaries for this crate alone).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod audit;
mod compare;
mod export;
mod failures;
mod gate;
mod import;
mod leaderboard;
mod loading;
mod matrix;
mod model_filter;
mod newest_answer;
mod page_nav;
mod prefetch;
mod ranking;
mod relabel;
mod relabel_fixture;
mod sample;
mod sample_files;
mod site_trend;
mod state;
mod summary;
mod trajectory;
mod wait;
mod web;
