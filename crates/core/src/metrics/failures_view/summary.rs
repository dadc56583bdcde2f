//! What the failures view's charts, tables and headline show for the rows under the base
//! filter.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::rows::{BINS, BaseFilter, FailRow, Labelled};
use crate::bundle::FailureLabel;
use crate::metrics::failures::{
    FailureCounts, RuleBlame, count_at_least, count_failures, count_failures_by_model, histogram,
    rule_blame, verdict_counts,
};
use crate::metrics::fm_shares::{FmShareRow, fm_shares};

/// One decidable rule and its `(verdict, count)` pairs.
pub type RuleVerdicts = (String, Vec<(String, usize)>);

/// The aggregates of the rows under the base filter.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FailuresSummary {
    /// Sub-mode, family and bucket counts.
    pub counts: FailureCounts,
    /// The same per model, models by failure count (most first, ties in first-seen order).
    pub by_model: Vec<(String, FailureCounts)>,
    /// 20-bin histogram of `correct_despite_fail`.
    pub cdf_hist: Vec<usize>,
    /// 20-bin histogram of `schema_hint_would_help`.
    pub hint_hist: Vec<usize>,
    /// `prevented_by_rule`, ranked.
    pub blame: RuleBlame,
    /// Decidable rule → (verdict, count), rules and verdicts in first-seen order.
    pub verdicts: Vec<RuleVerdicts>,
    /// FM1–FM5 shares per model over the FM labels of the chosen corpora and models.
    pub fm: Vec<FmShareRow>,
    /// Display name of every model key above (the bundle's, else the key).
    pub names: HashMap<String, String>,
}

impl FailuresSummary {
    /// The display name of the model `key`.
    pub fn name<'a>(&'a self, key: &'a str) -> &'a str {
        self.names.get(key).map_or(key, String::as_str)
    }
}

/// Aggregates `rows` (already filtered); FM shares read every FM label of the corpora and
/// models that `base` keeps (FM labels have no sub-mode confidence).
pub fn summarise(b: Labelled<'_>, rows: &[FailRow], base: &BaseFilter) -> FailuresSummary {
    let labels: Vec<&FailureLabel> = rows.iter().filter_map(|r| b.label(r)).collect();
    let mut by_model: Vec<(String, FailureCounts)> = count_failures_by_model(
        labels
            .iter()
            .map(|l| (l.model.as_str(), l.sub_mode.as_deref())),
    )
    .into_iter()
    .collect();
    by_model.sort_by_key(|(_, c)| std::cmp::Reverse(c.n));
    let verdicts = labels.iter().flat_map(|l| {
        l.decidable()
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    });
    let fm_rows = b
        .body
        .corpora
        .iter()
        .filter(|c| base.corpus.as_deref().is_none_or(|n| n == c.name))
        .flat_map(|c| c.fm_labels.iter())
        .filter(|f| base.models.is_empty() || base.models.contains(&f.model))
        .map(|f| (f.model.as_str(), f.fm.as_str()));
    let fm = fm_shares(fm_rows);
    let names = by_model
        .iter()
        .map(|(m, _)| m.as_str())
        .chain(fm.iter().map(|r| r.model.as_str()))
        .map(|m| (m.to_owned(), b.body.display_name(m).to_owned()))
        .collect();
    FailuresSummary {
        counts: count_failures(labels.iter().map(|l| l.sub_mode.as_deref())),
        by_model,
        cdf_hist: histogram(
            labels.iter().map(|l| l.correct_despite_fail),
            BINS,
            0.0,
            1.0,
        ),
        hint_hist: histogram(
            labels.iter().map(|l| l.schema_hint_would_help),
            BINS,
            0.0,
            1.0,
        ),
        blame: rule_blame(labels.iter().map(|l| l.prevented_by_rule.as_deref())),
        verdicts: verdict_counts(verdicts)
            .into_iter()
            .map(|(rule, v)| (rule, v.into_iter().collect()))
            .collect(),
        fm,
        names,
    }
}

/// Rows with `correct_despite_fail ≥ t`.
pub fn cdf_above(b: Labelled<'_>, rows: &[FailRow], t: f64) -> usize {
    count_at_least(
        rows.iter()
            .map(|r| b.label(r).and_then(|l| l.correct_despite_fail)),
        t,
    )
}
