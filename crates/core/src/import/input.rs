//! What the importer reads: one harness file, by path.

/// One input file: a relative path (e.g. `dev/annotated.jsonl`, `out/failure_labels.jsonl`)
/// and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    /// Relative path; its parent names the corpus for corpus files.
    pub path: String,
    /// Raw bytes.
    pub bytes: Vec<u8>,
}
