//! The `failures` section of a [`super::report::MetricsReport`].

use indexmap::IndexMap;
use serde::Serialize;

use super::failures::{
    FailureCounts, RuleBlame, count_at_least, count_failures, count_failures_by_model, histogram,
    rule_blame, verdict_counts,
};
use super::fm_shares::{FmShareRow, fm_shares};
use super::report_options::{ReportOptions, threshold_key};
use crate::bundle::Corpus;

/// Failure-label aggregates over the corpus's Jev failure labels and FM labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailuresSection {
    /// Counts over all labels (`n`, `sub_mode`, `family`, `fm_bucket`).
    #[serde(flatten)]
    pub counts: FailureCounts,
    /// Per model counts, models in first-seen order.
    pub by_model: IndexMap<String, FailureCounts>,
    /// Threshold (as a key, e.g. `"0.65"`) → rows with `correct_despite_fail ≥ t`.
    pub correct_despite_fail_at_least: IndexMap<String, usize>,
    /// Threshold → rows with `schema_hint_would_help ≥ t`.
    pub schema_hint_would_help_at_least: IndexMap<String, usize>,
    /// 20-bin histogram of `correct_despite_fail` over `[0, 1]` (the `fm_cdf.png` bins).
    pub correct_despite_fail_histogram: Vec<usize>,
    /// 20-bin histogram of `schema_hint_would_help` over `[0, 1]`.
    pub schema_hint_would_help_histogram: Vec<usize>,
    /// Semantic rules blamed, ranked.
    pub rule_blame: RuleBlame,
    /// Decidable rule → verdict → count, from `decidable_verdicts` (else `checks.decidable`).
    pub decidable_verdicts: IndexMap<String, IndexMap<String, usize>>,
    /// Sub-mode → rows with `schema_hint_would_help ≥ 0.5` (the report's section).
    pub schema_hint_by_sub_mode: IndexMap<String, usize>,
    /// FM1–FM5 row-normalised shares per model from `fm_labels.jsonl`.
    pub fm_shares: Vec<FmShareRow>,
}

/// Computes the failures section.
pub fn failures_section(corpus: &Corpus, options: &ReportOptions) -> FailuresSection {
    let labels = &corpus.failure_labels;
    let cdf = || labels.iter().map(|l| l.correct_despite_fail);
    let hint = || labels.iter().map(|l| l.schema_hint_would_help);
    let thresholds =
        |ts: &[f64], values: &dyn Fn() -> Vec<Option<f64>>| -> IndexMap<String, usize> {
            ts.iter()
                .map(|&t| (threshold_key(t), count_at_least(values(), t)))
                .collect()
        };
    let verdicts = labels.iter().flat_map(|l| {
        l.decidable()
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    });
    let mut hint_by_sub: IndexMap<String, usize> = IndexMap::new();
    for l in labels
        .iter()
        .filter(|l| l.schema_hint_would_help.is_some_and(|h| h >= 0.5))
    {
        *hint_by_sub
            .entry(
                l.sub_mode
                    .clone()
                    .unwrap_or_else(|| super::failures::MISSING.into()),
            )
            .or_insert(0) += 1;
    }
    FailuresSection {
        counts: count_failures(labels.iter().map(|l| l.sub_mode.as_deref())),
        by_model: count_failures_by_model(
            labels
                .iter()
                .map(|l| (l.model.as_str(), l.sub_mode.as_deref())),
        ),
        correct_despite_fail_at_least: thresholds(
            &options.correct_despite_fail_thresholds,
            &|| cdf().collect(),
        ),
        schema_hint_would_help_at_least: thresholds(&options.schema_hint_thresholds, &|| {
            hint().collect()
        }),
        correct_despite_fail_histogram: histogram(cdf(), 20, 0.0, 1.0),
        schema_hint_would_help_histogram: histogram(hint(), 20, 0.0, 1.0),
        rule_blame: rule_blame(labels.iter().map(|l| l.prevented_by_rule.as_deref())),
        decidable_verdicts: verdict_counts(verdicts),
        schema_hint_by_sub_mode: hint_by_sub,
        fm_shares: fm_shares(
            corpus
                .fm_labels
                .iter()
                .map(|f| (f.model.as_str(), f.fm.as_str())),
        ),
    }
}
