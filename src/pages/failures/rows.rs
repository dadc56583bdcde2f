//! The failure rows of a bundle (one per Jev failure label) as indices into the bundle,
//! the base filter (corpus, models, confidence range) and the aggregates the charts show.

use std::collections::HashMap;

use runlens_core::bundle::{Bundle, FailureLabel};
use runlens_core::metrics::failures::{
    FailureCounts, RuleBlame, count_at_least, count_failures, count_failures_by_model, histogram,
    rule_blame, verdict_counts,
};
use runlens_core::metrics::fm_shares::{FmShareRow, fm_shares};

/// Bins of the probability histograms (the harness's `fm_cdf.png`).
pub const BINS: usize = 20;

/// One failure label: where it lives in the bundle, plus its joined question and FM label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailRow {
    /// Index into `bundle.body.corpora`.
    pub corpus: usize,
    /// Index into that corpus's `failure_labels`.
    pub label: usize,
    /// Index into that corpus's `questions` (same trace id), if any.
    pub question: Option<usize>,
    /// Index into that corpus's `fm_labels` (same model and trace id), if any.
    pub fm: Option<usize>,
}

/// Every failure row of `bundle`, corpus by corpus, in file order.
pub fn all_rows(bundle: &Bundle) -> Vec<FailRow> {
    let mut out = Vec::new();
    for (ci, c) in bundle.body.corpora.iter().enumerate() {
        let questions: HashMap<&str, usize> = c
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q.trace_id.as_str(), i))
            .collect();
        let fms: HashMap<(&str, &str), usize> = c
            .fm_labels
            .iter()
            .enumerate()
            .map(|(i, f)| ((f.model.as_str(), f.trace_id.as_str()), i))
            .collect();
        out.extend(c.failure_labels.iter().enumerate().map(|(li, l)| FailRow {
            corpus: ci,
            label: li,
            question: questions.get(l.trace_id.as_str()).copied(),
            fm: fms.get(&(l.model.as_str(), l.trace_id.as_str())).copied(),
        }));
    }
    out
}

/// The label of `row` (`None` only for a row of another bundle).
pub fn label<'a>(bundle: &'a Bundle, row: &FailRow) -> Option<&'a FailureLabel> {
    bundle
        .body
        .corpora
        .get(row.corpus)?
        .failure_labels
        .get(row.label)
}

/// One decidable rule and its `(verdict, count)` pairs.
pub type RuleVerdicts = (String, Vec<(String, usize)>);

/// Corpus, models and sub-mode confidence range. A label without a confidence passes only
/// when the range is the full `[0, 1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct BaseFilter {
    /// One corpus by name, or all.
    pub corpus: Option<String>,
    /// Model keys (empty = all).
    pub models: Vec<String>,
    /// Lowest and highest `sub_mode_confidence`.
    pub conf: (f64, f64),
}

impl BaseFilter {
    /// Whether `row` passes.
    pub fn keeps(&self, bundle: &Bundle, row: &FailRow) -> bool {
        let Some(c) = bundle.body.corpora.get(row.corpus) else {
            return false;
        };
        let Some(l) = c.failure_labels.get(row.label) else {
            return false;
        };
        if self.corpus.as_deref().is_some_and(|n| n != c.name) {
            return false;
        }
        if !self.models.is_empty() && !self.models.contains(&l.model) {
            return false;
        }
        let full = self.conf.0 <= 0.0 && self.conf.1 >= 1.0;
        match l.sub_mode_confidence {
            Some(v) => full || (v >= self.conf.0 && v <= self.conf.1),
            None => full,
        }
    }
}

/// What the charts, tables and headline show for the rows under the base filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
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

impl Summary {
    /// The display name of the model `key`.
    pub fn name<'a>(&'a self, key: &'a str) -> &'a str {
        self.names.get(key).map_or(key, String::as_str)
    }
}

/// Aggregates `rows` (already filtered) of `bundle`; FM shares read every FM label of the
/// corpora and models that `base` keeps (FM labels have no sub-mode confidence).
pub fn summarise(bundle: &Bundle, rows: &[FailRow], base: &BaseFilter) -> Summary {
    let labels: Vec<&FailureLabel> = rows.iter().filter_map(|r| label(bundle, r)).collect();
    let mut by_model: Vec<(String, FailureCounts)> = count_failures_by_model(
        labels
            .iter()
            .map(|l| (l.model.as_str(), l.sub_mode.as_deref())),
    )
    .into_iter()
    .collect();
    by_model.sort_by_key(|(_, c)| std::cmp::Reverse(c.n));
    let verdicts = labels.iter().flat_map(|l| {
        let map = l
            .decidable_verdicts
            .as_ref()
            .or(l.checks.as_ref().map(|c| &c.decidable));
        map.into_iter()
            .flat_map(|m| m.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    });
    let fm_rows = bundle
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
        .map(|m| (m.to_owned(), bundle.body.display_name(m).to_owned()))
        .collect();
    Summary {
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
pub fn cdf_above(bundle: &Bundle, rows: &[FailRow], t: f64) -> usize {
    count_at_least(
        rows.iter()
            .map(|r| label(bundle, r).and_then(|l| l.correct_despite_fail)),
        t,
    )
}
