//! The failure list under the charts: one row per listed label, and the list as CSV.

use serde::{Deserialize, Serialize};

use super::rows::{FailRow, Labelled};
use crate::csv::{number_cell, to_csv};
use crate::metrics::taxonomy::{bucket_of, family_of};

/// One row of the list as the view shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListRow {
    /// Position in the whole list (0-based).
    pub index: usize,
    /// Corpus name.
    pub corpus: String,
    /// Model key.
    pub model: String,
    /// The model's display name (the bundle's, else the key).
    pub name: String,
    /// Trace id.
    pub trace_id: String,
    /// The question's text (empty when the bundle lacks the question).
    pub question: String,
    /// Sub-mode.
    pub sub_mode: Option<String>,
    /// `sub_mode_confidence`.
    pub confidence: Option<f64>,
    /// `correct_despite_fail`.
    pub correct_despite_fail: Option<f64>,
    /// `prevented_by_rule`.
    pub rule: Option<String>,
}

/// The rows `[start, end)` of the list `rows` (fewer at its end).
pub fn list_page(b: Labelled<'_>, rows: &[FailRow], start: usize, end: usize) -> Vec<ListRow> {
    let end = end.min(rows.len());
    let start = start.min(end);
    rows[start..end]
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let (c, l) = b.row(r)?;
            Some(ListRow {
                index: start + i,
                corpus: c.name.clone(),
                model: l.model.clone(),
                name: b.body.display_name(&l.model).to_owned(),
                trace_id: l.trace_id.clone(),
                question: question(b, r),
                sub_mode: l.sub_mode.clone(),
                confidence: l.sub_mode_confidence,
                correct_despite_fail: l.correct_despite_fail,
                rule: l.prevented_by_rule.clone(),
            })
        })
        .collect()
}

fn question(b: Labelled<'_>, r: &FailRow) -> String {
    r.question
        .and_then(|i| b.body.corpora.get(r.corpus)?.questions.get(i))
        .map_or_else(String::new, |q| q.nl_question.clone())
}

/// The columns of [`list_csv`].
pub const CSV_HEADER: [&str; 12] = [
    "corpus",
    "model",
    "trace_id",
    "question",
    "sub_mode",
    "family",
    "fm_bucket",
    "sub_mode_confidence",
    "correct_despite_fail",
    "schema_hint_would_help",
    "prevented_by_rule",
    "fm",
];

/// The list as CSV: unrounded numbers, full question text, the family and FM bucket of the
/// sub-mode, and the cell's 07 FM label.
pub fn list_csv(b: Labelled<'_>, rows: &[FailRow]) -> String {
    let out: Vec<Vec<String>> = rows
        .iter()
        .filter_map(|r| {
            let (c, l) = b.row(r)?;
            let sub = l.sub_mode.as_deref();
            let fm =
                r.fm.and_then(|i| c.fm_labels.get(i))
                    .map_or_else(String::new, |f| f.fm.clone());
            Some(vec![
                c.name.clone(),
                l.model.clone(),
                l.trace_id.clone(),
                question(b, r),
                sub.unwrap_or_default().to_owned(),
                sub.and_then(family_of).unwrap_or_default().to_owned(),
                sub.map(|s| bucket_of(s).label())
                    .unwrap_or_default()
                    .to_owned(),
                number_cell(l.sub_mode_confidence),
                number_cell(l.correct_despite_fail),
                number_cell(l.schema_hint_would_help),
                l.prevented_by_rule.clone().unwrap_or_default(),
                fm,
            ])
        })
        .collect();
    to_csv(&CSV_HEADER, &out)
}
