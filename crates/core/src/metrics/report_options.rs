//! The knobs of a metrics report ([`ReportOptions`]) and how its thresholds are written as
//! JSON keys, shared by the report's sections.

use serde::Serialize;

use super::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use super::gold_tables::GoldRule;
use crate::bundle::LossRule;

/// Knobs of a report; [`ReportOptions::default`] is what the CLI uses without flags.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportOptions {
    /// Largest cutoff `K` of the curves (`k = 1..=K`); default 10.
    pub k_max: usize,
    /// Gold-table definition for the retrieval metrics; default the harness rule.
    pub gold_rule: GoldRule,
    /// High-confidence threshold `t` (P ≥ t); default 0.5 (the gate's `--min-p`).
    pub confidence_threshold: f64,
    /// Thresholds for `correct_despite_fail` counts; default 0.5 (report) and 0.65 (plot).
    pub correct_despite_fail_thresholds: Vec<f64>,
    /// Thresholds for `schema_hint_would_help` counts; default 0.5.
    pub schema_hint_thresholds: Vec<f64>,
    /// Bootstrap resamples; default 10,000.
    pub bootstrap_resamples: usize,
    /// Bootstrap seed; default 42.
    pub bootstrap_seed: u64,
    /// How the leaderboard (and pass@B) scores legacy `loss` cells; default excluded, as the
    /// harness's board does. The gate keeps its own rule.
    pub loss_rule: LossRule,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            k_max: 10,
            gold_rule: GoldRule::Harness,
            confidence_threshold: 0.5,
            correct_despite_fail_thresholds: vec![0.5, 0.65],
            schema_hint_thresholds: vec![0.5],
            bootstrap_resamples: DEFAULT_RESAMPLES,
            bootstrap_seed: DEFAULT_SEED,
            loss_rule: LossRule::Excluded,
        }
    }
}

/// Formats a threshold as a JSON object key: the shortest decimal that round-trips
/// (`0.5` → `"0.5"`, `0.65` → `"0.65"`, `1.0` → `"1"`).
pub fn threshold_key(t: f64) -> String {
    format!("{t}")
}
