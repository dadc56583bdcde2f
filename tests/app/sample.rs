//! The exported synthetic sample, decoded in the browser by the same core code as the CLI,
//! gives bit-identical metrics to `runlens metrics --json` run natively (scripts/test.sh
//! writes the sample and the native reports before this test is compiled).

use crate::sample_files::{NATIVE_BOARD, NATIVE_DEV, SAMPLE};
use runlens_core::metrics::report::{ReportOptions, metrics_report};
use runlens_web::data::decode_bundle;
use wasm_bindgen_test::*;

/// Must equal `--resamples` in scripts/test.sh (10,000 would only slow the debug build down).
const RESAMPLES: usize = 1000;

#[wasm_bindgen_test]
fn the_sample_decodes_with_the_published_shape() {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let body = &bundle.body;
    assert!(body.synthetic);
    assert_eq!(body.universe.len(), 18);
    assert_eq!(body.models.len(), 20);
    let dev = body.corpus("text2sqlbench-synthetic-dev").unwrap();
    let board = body.corpus("text2sqlbench-synthetic").unwrap();
    assert_eq!(dev.rankings.len(), 136);
    assert_eq!(dev.failure_labels.len(), 277);
    assert_eq!(board.results.len(), 201);
}

#[wasm_bindgen_test]
fn metrics_in_wasm_equal_the_native_cli_exactly() {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let options = ReportOptions {
        bootstrap_resamples: RESAMPLES,
        ..ReportOptions::default()
    };
    for (name, native) in [
        ("text2sqlbench-synthetic-dev", NATIVE_DEV),
        ("text2sqlbench-synthetic", NATIVE_BOARD),
    ] {
        let corpus = bundle.body.corpus(name).unwrap();
        let wasm = serde_json::to_value(metrics_report(&bundle.body, corpus, &options)).unwrap();
        let native: serde_json::Value = serde_json::from_str(native).unwrap();
        assert_eq!(first_difference("", &wasm, &native), None, "corpus {name}");
    }
}

/// The path and both values of the first place where `a` and `b` differ.
fn first_difference(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    use serde_json::Value::{Array, Object};
    match (a, b) {
        (Object(x), Object(y)) => {
            let keys_x: Vec<_> = x.keys().collect();
            let keys_y: Vec<_> = y.keys().collect();
            if keys_x != keys_y {
                return Some(format!("{path}: keys {keys_x:?} vs {keys_y:?}"));
            }
            x.iter()
                .find_map(|(k, v)| first_difference(&format!("{path}.{k}"), v, &y[k]))
        }
        (Array(x), Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(&format!("{path}[{i}]"), v, w)),
        _ if a == b => None,
        _ => Some(format!("{path}: wasm {a} vs native {b}")),
    }
}
