//! Property tests: the importer and the bundle reader return errors, never panic, on
//! arbitrary bytes and on mutations of a valid harness file.

#![cfg(not(target_arch = "wasm32"))] // proptest needs std features the wasm32 runner lacks

use proptest::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::import::{ImportOptions, InputFile, import_files};

const NAMES: [&str; 8] = [
    "c/annotated.jsonl",
    "c/results.jsonl",
    "c/fm_labels.jsonl",
    "c/board_manifest.json",
    "out/schema_retrieval.jsonl",
    "out/failure_labels.jsonl",
    "out/schema_retrieval_agent.jsonl",
    "rules.yaml",
];

const VALID_ROW: &str = r#"{"trace_id": "q1", "candidates": {"m": {"sqls": ["SELECT 1"], "sql_results": ["{\"1\":1}"], "turns": 2, "latency": 1.5, "result_score": {"outcome": "pass", "tally": {"pass": 2}, "votes": [{"verdict": "equivalent"}]}, "usage": {"per_turn": [[1, 2, 0, 0, 0]]}}}}"#;

fn import_bytes(name: &str, bytes: Vec<u8>) {
    let files = vec![InputFile {
        path: name.to_owned(),
        bytes,
    }];
    if let Ok(imported) = import_files(&files, &ImportOptions::default()) {
        // Whatever imports must round-trip through the bundle codec.
        let json = imported.bundle.to_json_vec();
        assert_eq!(Bundle::from_slice(&json).unwrap(), imported.bundle);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(name in 0usize..NAMES.len(), bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        import_bytes(NAMES[name], bytes);
    }

    #[test]
    fn mutated_rows_never_panic(pos in 0usize..VALID_ROW.len(), byte in any::<u8>(), cut in 0usize..VALID_ROW.len()) {
        let mut bytes = VALID_ROW.as_bytes().to_vec();
        bytes[pos] = byte;
        import_bytes("c/results.jsonl", bytes.clone());
        bytes.truncate(cut);
        import_bytes("c/results.jsonl", bytes);
    }

    #[test]
    fn arbitrary_bundle_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Bundle::from_slice(&bytes);
        let mut gz = vec![0x1f, 0x8b];
        gz.extend(&bytes);
        let _ = Bundle::from_slice(&gz);
    }
}
