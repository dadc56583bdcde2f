//! Shared test helpers: reading a test-data folder into `InputFile`s.

#![allow(dead_code)]

use std::path::Path;

use runlens_core::import::InputFile;

/// The crate's `tests/data` folder.
pub fn data_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Reads `tests/data/<rel>` as an input file whose path is `as_path`.
pub fn input(rel: &str, as_path: &str) -> InputFile {
    let bytes = std::fs::read(data_dir().join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"));
    InputFile {
        path: as_path.to_owned(),
        bytes,
    }
}

/// The hand-written corpus `import/dev` plus its Jev `out/` folder.
pub fn dev_corpus_files() -> Vec<InputFile> {
    [
        "dev/annotated.jsonl",
        "dev/results.jsonl",
        "dev/fm_labels.jsonl",
        "dev/board_manifest.json",
        "out/schema_retrieval.jsonl",
        "out/failure_labels.jsonl",
        "out/schema_retrieval_agent.jsonl",
    ]
    .iter()
    .map(|p| input(&format!("import/{p}"), p))
    .collect()
}
