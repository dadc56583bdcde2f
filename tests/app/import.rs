//! The harness importer runs in the browser: the same hand-written harness corpus the native
//! tests use (crates/core/tests/data/import, see import_harness.rs) imports in WASM with the
//! same results.

use runlens_core::import::{ImportOptions, InputFile, import_files};
use wasm_bindgen_test::*;

macro_rules! input {
    ($rel:literal) => {
        InputFile {
            path: $rel.to_owned(),
            bytes: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/crates/core/tests/data/import/",
                $rel
            ))
            .to_vec(),
        }
    };
}

fn files() -> Vec<InputFile> {
    vec![
        input!("dev/annotated.jsonl"),
        input!("dev/results.jsonl"),
        input!("dev/fm_labels.jsonl"),
        input!("dev/board_manifest.json"),
        input!("out/schema_retrieval.jsonl"),
        input!("out/failure_labels.jsonl"),
        input!("out/schema_retrieval_agent.jsonl"),
    ]
}

#[wasm_bindgen_test]
fn harness_files_import_in_wasm_as_natively() {
    let imported = import_files(&files(), &ImportOptions::default()).unwrap();
    let corpus = &imported.bundle.body.corpora[0];
    assert_eq!(corpus.name, "dev");
    let questions: Vec<&str> = corpus
        .questions
        .iter()
        .map(|q| q.trace_id.as_str())
        .collect();
    assert_eq!(questions, ["q1", "q2", "q3"]);
    assert_eq!(corpus.questions[0].extra["split"], "mart-only");
    // A later duplicate results row replaces the earlier one in place.
    let results: Vec<&str> = corpus.results.iter().map(|r| r.trace_id.as_str()).collect();
    assert_eq!(results, ["q2", "q1"]);
    assert_eq!(corpus.models, ["gpt-4.1", "kimi-k3", "glm-5.2"]);
    // A null cell stays null, a missing cell stays missing: 2 cells on q2 + 2 on q1.
    assert_eq!(corpus.results[1].candidates.get("glm-5.2"), Some(&None));
    assert_eq!(corpus.results[0].candidates.get("glm-5.2"), None);
    assert_eq!(corpus.cell_count(), 2 + 2);
    let q2_gpt = corpus.cell("q2", "gpt-4.1").unwrap();
    assert_eq!(q2_gpt.error.as_deref(), Some("max turns (60)"));
    // The bundle survives its own codec in WASM.
    let bytes = imported.bundle.to_json_gz_vec();
    let back = runlens_web::data::decode_bundle("x.json.gz", &bytes).unwrap();
    assert_eq!(*back, imported.bundle);
}

#[wasm_bindgen_test]
fn a_broken_line_names_file_line_and_field_in_wasm() {
    let mut files = files();
    files[1].bytes =
        b"{\"trace_id\": \"q1\", \"candidates\": {\"m\": {\"turns\": \"five\"}}}\n".to_vec();
    let err = import_files(&files, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("dev/results.jsonl:1: field candidates.m.turns: expected"),
        "{err}"
    );
}
