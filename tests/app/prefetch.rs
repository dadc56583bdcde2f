//! Browser tests of the loader worker's early download: the real `assets/loader-prefetch.js`
//! starts it, `loader::pipeline::load_full` adopts it, and what it gives (bundle, figures,
//! every error's wording) is what the worker's own download would have given.

use std::cell::RefCell;
use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, ResultRow};
use runlens_web::data::{BundleRequest, LoadStats, Phase, Progress};
use runlens_web::loader::pipeline::load_full;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/assets/loader-prefetch.js")]
extern "C" {
    /// Starts the early download of `url` into `globalThis.__runlensPrefetch`.
    fn prefetch(url: &str);
}

fn bundle() -> Bundle {
    let body = BundleBody {
        corpora: vec![Corpus {
            name: "dev".into(),
            models: vec!["m1".into()],
            results: vec![ResultRow {
                trace_id: "q1".into(),
                ..ResultRow::default()
            }],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// A `blob:` URL serving `bytes`.
fn blob_url(bytes: &[u8]) -> String {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap();
    web_sys::Url::create_object_url_with_blob(&blob).unwrap()
}

fn slot_is_empty() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"__runlensPrefetch".into())
        .unwrap()
        .is_undefined()
}

/// Loads `url` as the worker does (content hash checked), recording the progress reports.
async fn load(url: &str) -> (Result<(Bundle, LoadStats), String>, Vec<Progress>) {
    let seen = RefCell::new(Vec::new());
    let result = load_full(
        &BundleRequest::Url(url.to_owned()),
        &|p| seen.borrow_mut().push(p),
        runlens_web::loader::progress::Early::NONE,
        true,
    )
    .await
    .map_err(|e| e.to_string());
    (result, seen.into_inner())
}

#[wasm_bindgen_test]
async fn a_gzip_bundle_is_downloaded_and_inflated_early_and_adopted() {
    let b = bundle();
    let json = b.to_json_vec();
    let gz = gzip(&json);
    let url = blob_url(&gz);
    prefetch(&url);
    let (result, seen) = load(&url).await;
    let (loaded, stats) = result.unwrap();
    assert_eq!(loaded, b);
    assert!(stats.prefetched);
    assert_eq!(stats.download_bytes, gz.len());
    assert_eq!(stats.json_bytes, json.len());
    assert!(slot_is_empty(), "the download is taken once");
    // The adopter reports downloading first and ends with parsing and the hash check.
    assert_eq!(seen.first().map(|p| p.phase), Some(Phase::Downloading));
    let phases: Vec<Phase> = seen.iter().map(|p| p.phase).collect();
    assert_eq!(
        phases[phases.len() - 2..],
        [Phase::Parsing, Phase::Checking],
        "{phases:?}"
    );
    assert_eq!(
        seen[phases.len() - 2],
        Progress {
            phase: Phase::Parsing,
            done: json.len() as u64,
            total: None
        }
    );
}

#[wasm_bindgen_test]
async fn plain_json_is_adopted_without_inflating() {
    let b = bundle();
    let json = b.to_json_vec();
    let url = blob_url(&json);
    prefetch(&url);
    let (result, _) = load(&url).await;
    let (loaded, stats) = result.unwrap();
    assert_eq!(loaded, b);
    assert!(stats.prefetched);
    assert_eq!(stats.download_bytes, json.len());
    assert_eq!(stats.json_bytes, json.len());
}

/// Each failure of the early download reads exactly as the same failure of the worker's own.
#[wasm_bindgen_test]
async fn failures_read_as_the_workers_own_download_failures() {
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    let missing = format!("{origin}/runlens-no-such-bundle.json.gz");
    let mut corrupt = vec![0x1f, 0x8b];
    corrupt.extend_from_slice(b"not gzip at all");
    let corrupt = blob_url(&corrupt);
    let bad_json = blob_url(b"{\"format\": ");
    for url in [missing, corrupt, bad_json] {
        let (direct, _) = load(&url).await;
        prefetch(&url);
        let (early, _) = load(&url).await;
        let direct = direct.unwrap_err();
        assert_eq!(early.unwrap_err(), direct);
        assert!(slot_is_empty());
    }
    let (missing, _) = load(&format!("{origin}/runlens-no-such-bundle.json.gz")).await;
    assert_eq!(
        missing.unwrap_err(),
        format!(
            "could not download {origin}/runlens-no-such-bundle.json.gz: the server answered \
             HTTP 404 Not Found (not found: check the bundle address)"
        )
    );
}

#[wasm_bindgen_test]
async fn an_early_download_of_another_url_is_dropped() {
    let other = bundle();
    let wanted = Bundle::new(Provenance::default(), BundleBody::default());
    let other_url = blob_url(&other.to_json_vec());
    let wanted_url = blob_url(&wanted.to_json_vec());
    prefetch(&other_url);
    let (result, _) = load(&wanted_url).await;
    let (loaded, stats) = result.unwrap();
    assert_eq!(loaded, wanted);
    assert!(!stats.prefetched);
    assert!(slot_is_empty());
}
