//! The failure rows of a bundle (one per Jev failure label, re-labels applied) as indices,
//! and the base filter (corpus, models, sub-mode confidence range).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::bundle::{BundleBody, Corpus, FailureLabel};

/// Bins of the probability histograms (the harness's `fm_cdf.png`).
pub const BINS: usize = 20;

/// One failure label: where it lives, plus its joined question and FM label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailRow {
    /// Index into the body's `corpora`.
    pub corpus: usize,
    /// Index into that corpus's failure labels (re-labels applied: see [`Labelled`]).
    pub label: usize,
    /// Index into that corpus's `questions` (same trace id), if any.
    pub question: Option<usize>,
    /// Index into that corpus's `fm_labels` (same model and trace id), if any.
    pub fm: Option<usize>,
}

/// A bundle body with, per corpus, the failure labels in force: the body's own, or a
/// re-labelled copy ([`crate::overrides::relabelled`]).
#[derive(Debug, Clone, Copy)]
pub struct Labelled<'a> {
    /// The bundle body.
    pub body: &'a BundleBody,
    relabelled: &'a [Option<Vec<FailureLabel>>],
}

impl<'a> Labelled<'a> {
    /// The body with its own labels.
    pub fn of(body: &'a BundleBody) -> Labelled<'a> {
        Labelled {
            body,
            relabelled: &[],
        }
    }

    /// The body with `relabelled[i]`, where it is `Some`, in place of corpus `i`'s labels.
    pub fn with(body: &'a BundleBody, relabelled: &'a [Option<Vec<FailureLabel>>]) -> Self {
        Labelled { body, relabelled }
    }

    /// The labels in force of corpus `i` (empty for an index out of range).
    pub fn labels(&self, i: usize) -> &'a [FailureLabel] {
        match self.relabelled.get(i) {
            Some(Some(labels)) => labels,
            _ => self
                .body
                .corpora
                .get(i)
                .map_or(&[], |c| c.failure_labels.as_slice()),
        }
    }

    /// Names of the corpora with labels in force, in body order.
    pub fn corpora_with_labels(&self) -> Vec<String> {
        (0..self.body.corpora.len())
            .filter(|&i| !self.labels(i).is_empty())
            .map(|i| self.body.corpora[i].name.clone())
            .collect()
    }

    /// The corpus and label of `row` (`None` only for a row of another bundle).
    pub fn row(&self, row: &FailRow) -> Option<(&'a Corpus, &'a FailureLabel)> {
        let c = self.body.corpora.get(row.corpus)?;
        Some((c, self.labels(row.corpus).get(row.label)?))
    }

    /// The label of `row`.
    pub fn label(&self, row: &FailRow) -> Option<&'a FailureLabel> {
        self.row(row).map(|(_, l)| l)
    }
}

/// Every failure row, corpus by corpus, in label order.
pub fn all_rows(b: Labelled<'_>) -> Vec<FailRow> {
    let mut out = Vec::new();
    for (ci, c) in b.body.corpora.iter().enumerate() {
        let labels = b.labels(ci);
        if labels.is_empty() {
            continue;
        }
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
        out.extend(labels.iter().enumerate().map(|(li, l)| FailRow {
            corpus: ci,
            label: li,
            question: questions.get(l.trace_id.as_str()).copied(),
            fm: fms.get(&(l.model.as_str(), l.trace_id.as_str())).copied(),
        }));
    }
    out
}

/// Corpus, models and sub-mode confidence range. A label without a confidence passes only
/// when the range is the full `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaseFilter {
    /// One corpus by name, or all.
    pub corpus: Option<String>,
    /// Model keys (empty = all).
    pub models: Vec<String>,
    /// Lowest and highest `sub_mode_confidence`.
    pub conf: (f64, f64),
}

impl Default for BaseFilter {
    fn default() -> Self {
        BaseFilter {
            corpus: None,
            models: Vec::new(),
            conf: (0.0, 1.0),
        }
    }
}

impl BaseFilter {
    /// Whether `row` passes.
    pub fn keeps(&self, b: Labelled<'_>, row: &FailRow) -> bool {
        let Some((c, l)) = b.row(row) else {
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
