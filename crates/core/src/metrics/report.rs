//! Bundle-level metrics: one [`MetricsReport`] per corpus, the object behind
//! `runlens metrics --json` (schema in `docs/metrics-json.md`).

use serde::Serialize;

use super::gate::{GateGroup, gate_analysis};
use super::report_board::{BoardSection, board_section};
use super::report_failures::{FailuresSection, failures_section};
pub use super::report_options::{ReportOptions, threshold_key};
use super::report_retrieval::{RetrievalSection, retrieval_section};
use crate::bundle::{BundleBody, Corpus};

/// Every metric of one corpus.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricsReport {
    /// Corpus name.
    pub corpus: String,
    /// The options used.
    pub options: ReportOptions,
    /// Table-ranking metrics over the corpus's ranking rows.
    pub retrieval: RetrievalSection,
    /// Failure-label aggregates.
    pub failures: FailuresSection,
    /// Leaderboard rows, sorted by pass descending.
    pub leaderboard: Vec<super::report_board::LeaderboardEntry>,
    /// Top model, pass@B and the questions/models counts.
    pub board: BoardSection,
    /// Gate groups: one per model (first-seen order), then `"(all)"`.
    pub gate: Vec<GateGroup>,
}

/// Computes the report for `corpus` of `body`.
///
/// Example: an empty corpus gives zero counts everywhere and empty lists, never an error.
pub fn metrics_report(
    body: &BundleBody,
    corpus: &Corpus,
    options: &ReportOptions,
) -> MetricsReport {
    let (leaderboard, board) = board_section(body, corpus, options.loss_rule);
    MetricsReport {
        corpus: corpus.name.clone(),
        options: options.clone(),
        retrieval: retrieval_section(body, corpus, options),
        failures: failures_section(corpus, options),
        leaderboard,
        board,
        gate: gate_analysis(
            corpus.gate(),
            options.bootstrap_resamples,
            options.bootstrap_seed,
        ),
    }
}
