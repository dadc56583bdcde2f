//! Import problems that do not stop the import (harness-formats: "warnings listed in
//! `runlens validate` and in the UI").

use serde::{Deserialize, Serialize};

/// One non-fatal import problem, with where it was found.
///
/// `line` is 1-based; `None` for whole-file problems (e.g. a JSON document).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Input path as given (e.g. `out/failure_labels.jsonl`).
    pub file: String,
    /// 1-based line, when the problem is on one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Stable machine-readable kind, e.g. `label_for_unknown_cell`.
    pub kind: String,
    /// Human sentence.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(
                f,
                "{}:{}: {} ({})",
                self.file, line, self.message, self.kind
            ),
            None => write!(f, "{}: {} ({})", self.file, self.message, self.kind),
        }
    }
}
