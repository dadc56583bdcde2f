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

/// The loader worker's reading of a v2 bundle: without the cells' text, every answer but an
/// opened cell's is the whole bundle's; an opened cell is answered whole once its record is
/// put back (`answer_json_filled`), and only the cell the answer opened is.
#[wasm_bindgen_test]
fn a_bundle_read_without_the_cells_text_answers_an_opened_cell_whole_once_filled() {
    use runlens_core::bundle::v2::text::inflate;
    use runlens_core::bundle::v2::{
        MANIFEST, MemoryEntries, cell_text_path, fill_cell, is_cell_text_path, read_bundle_light,
        write_entries,
    };
    use runlens_core::trajectory::{OpenedCell, TrajectoryAnswer, TrajectoryQuery};
    use runlens_web::derived::answers::{ViewQuery, answer_json, answer_json_filled, opened_by};
    use runlens_web::loader::cell_text::Filled;

    let full = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let (manifest, entries) = write_entries(&full).unwrap();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest);
    let mut chunks = Vec::new();
    for e in entries {
        let plain = if e.path.ends_with(".gz") {
            inflate(&e.bytes).unwrap()
        } else {
            e.bytes
        };
        if is_cell_text_path(&e.path) {
            chunks.push((e.path, plain));
        } else {
            memory.0.insert(e.path, plain);
        }
    }
    let light = read_bundle_light(&mut memory).unwrap();
    // A failed cell of the dev corpus with SQL and votes.
    let dev = "text2sqlbench-synthetic-dev";
    let label = &full.body.corpus(dev).unwrap().failure_labels[0];
    let (model, trace) = (label.model.clone(), label.trace_id.clone());
    let whole = full
        .body
        .corpus(dev)
        .unwrap()
        .results
        .iter()
        .find(|r| r.trace_id == trace)
        .unwrap()
        .candidates[model.as_str()]
    .clone()
    .unwrap();
    assert!(!whole.sqls.is_empty());
    let trajectory = ViewQuery::Trajectory(TrajectoryQuery {
        corpus: Some(dev.to_owned()),
        model: Some(model.clone()),
        trace: Some(trace.clone()),
        ..TrajectoryQuery::default()
    });
    let cell = ViewQuery::Cell {
        corpus: dev.to_owned(),
        model: model.clone(),
        trace: trace.clone(),
    };
    let opened = |json: Vec<u8>| {
        serde_json::from_slice::<TrajectoryAnswer>(&json)
            .unwrap()
            .opened
            .unwrap()
            .cell
    };
    let (at, held) = opened_by(&light.body, &trajectory).unwrap();
    assert_eq!(light.body.corpora[at].name, dev);
    let text_at = held.text_at.unwrap();
    assert_eq!(held.n_sqls(), whole.sqls.len());
    // Without the record: the cell's columns only.
    let bare = opened(answer_json(&light, &trajectory));
    assert!(bare.sqls.is_empty() && bare.final_answer.is_none());
    assert_eq!(bare.outcome(), whole.outcome());
    // Filled: the whole cell, for the trajectory and for the cell asked in full.
    let path = cell_text_path(&format!("corpora/{at}"), text_at.chunk);
    let chunk = &chunks.iter().find(|(p, _)| *p == path).unwrap().1;
    let filled = Filled {
        at: text_at,
        cell: fill_cell(&held, chunk, &path).unwrap(),
    };
    assert_eq!(
        opened(answer_json_filled(&light, &trajectory, Some(&filled))),
        whole
    );
    let asked: Option<OpenedCell> =
        serde_json::from_slice(&answer_json_filled(&light, &cell, Some(&filled))).unwrap();
    assert_eq!(asked.unwrap().cell, whole);
    // Another cell's record is never put in its place.
    let other = Filled {
        at: runlens_core::bundle::TextAt {
            row: text_at.row + 1,
            ..text_at
        },
        ..filled
    };
    assert!(
        opened(answer_json_filled(&light, &trajectory, Some(&other)))
            .sqls
            .is_empty()
    );
}
