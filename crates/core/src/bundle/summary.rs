//! Counts shown by `runlens validate` and the UI's bundle header.

use serde::{Deserialize, Serialize};

use super::BundleBody;

/// Row counts of a bundle body, summed over corpora.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Summary {
    /// Corpora.
    pub corpora: usize,
    /// `annotated.jsonl` rows.
    pub questions: usize,
    /// `results.jsonl` rows.
    pub result_rows: usize,
    /// Distinct candidate models over all corpora.
    pub models: usize,
    /// Non-null cells.
    pub cells: usize,
    /// Jev failure labels.
    pub failure_labels: usize,
    /// FM1–FM5 labels.
    pub fm_labels: usize,
    /// Table-ranking rows.
    pub rankings: usize,
    /// Gate rows (error rows included).
    pub gate_rows: usize,
    /// Universe size.
    pub universe: usize,
    /// Import warnings.
    pub warnings: usize,
}

impl BundleBody {
    /// Counts rows of every kind.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            corpora: self.corpora.len(),
            models: self.models.len(),
            universe: self.universe.len(),
            warnings: self.warnings.len(),
            ..Summary::default()
        };
        for c in &self.corpora {
            s.questions += c.questions.len();
            s.result_rows += c.results.len();
            s.cells += c.cell_count();
            s.failure_labels += c.failure_labels.len();
            s.fm_labels += c.fm_labels.len();
            s.rankings += c.rankings.len();
            s.gate_rows += c.gate().len();
        }
        s
    }
}
