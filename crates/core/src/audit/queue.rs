//! The judge audit queue: failures the labeller thinks were graded wrongly, most likely first.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::bundle::{Corpus, FailureLabel, Outcome, Vote};

/// One failure to review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditItem {
    /// `"<model key>/<trace_id>"` (the trajectory deep-link key).
    pub key: String,
    /// Candidate model key.
    pub model: String,
    /// Question key.
    pub trace_id: String,
    /// The label's `correct_despite_fail` (P(yes)); the queue's sort key.
    pub correct_despite_fail: f64,
    /// The question text (`annotated.jsonl`, else the `results.jsonl` copy; empty if neither).
    pub question: String,
    /// The gold answer, when the question is annotated.
    pub gold_answer: Option<String>,
    /// The gold SQL statements (empty when not annotated).
    pub gold_sql: Vec<String>,
    /// The candidate's final answer (`None` when absent or the cell is missing).
    pub candidate_answer: Option<String>,
    /// The cell's outcome (`None` when unscored or the cell is missing).
    pub outcome: Option<Outcome>,
    /// Every judge vote with verdict and reason, in panel order.
    pub votes: Vec<Vote>,
    /// The deterministic comparator's verdict shown to the judges (`data_equiv` of the first
    /// vote that records it: `EQUIVALENT` / `NOT EQUIVALENT`).
    pub data_equiv: Option<String>,
    /// The Jev failure label.
    pub label: FailureLabel,
}

/// The audit key of a cell: `"<model key>/<trace_id>"`.
pub fn audit_key(model: &str, trace_id: &str) -> String {
    format!("{model}/{trace_id}")
}

/// Failures whose `correct_despite_fail ≥ threshold`, most likely first.
///
/// ## Definition
/// Every failure label of the corpus whose `correct_despite_fail` is present, not NaN and at
/// or above `threshold`, unless its cell exists and its outcome is `pass` (a failure is a
/// non-pass cell; a label whose cell is missing stays in, so the count matches the
/// histogram's count above the threshold). Sorted by `correct_despite_fail` descending,
/// ties by model key, then `trace_id` (byte order). A repeated `(model, trace_id)` label
/// appears once (the first).
/// ## Example
/// Labels `a/q1` 0.9, `b/q2` 0.7, `a/q3` 0.3 at threshold 0.65 → `a/q1`, `b/q2`.
pub fn audit_queue(corpus: &Corpus, threshold: f64) -> Vec<AuditItem> {
    audit_queue_of(corpus, &corpus.failure_labels, threshold)
}

/// [`audit_queue`] with `labels` in force instead of the corpus's own (re-labels applied:
/// [`crate::overrides::RelabelledLabels`]).
pub fn audit_queue_of(corpus: &Corpus, labels: &[FailureLabel], threshold: f64) -> Vec<AuditItem> {
    let rows = corpus.result_index();
    let questions = corpus.question_index();
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut items: Vec<AuditItem> = Vec::new();
    for label in labels {
        let Some(p) = label.correct_despite_fail.filter(|p| *p >= threshold) else {
            continue;
        };
        if !seen.insert((label.model.as_str(), label.trace_id.as_str())) {
            continue;
        }
        let at = rows.get(label.trace_id.as_str()).copied();
        let row = at.and_then(|i| corpus.results.get(i));
        let cell = at.and_then(|i| corpus.row_cells(i).get(label.model.as_str()));
        let cell = cell.as_deref();
        if cell.and_then(|c| c.outcome()) == Some(&Outcome::Pass) {
            continue;
        }
        let question = questions
            .get(label.trace_id.as_str())
            .and_then(|&i| corpus.questions.get(i));
        let score = cell.and_then(|c| c.result_score.as_ref());
        let votes = score.and_then(|s| s.votes.clone()).unwrap_or_default();
        items.push(AuditItem {
            key: audit_key(&label.model, &label.trace_id),
            model: label.model.clone(),
            trace_id: label.trace_id.clone(),
            correct_despite_fail: p,
            question: question
                .map(|q| q.nl_question.clone())
                .or_else(|| row.and_then(|r| r.nl_question.clone()))
                .unwrap_or_default(),
            gold_answer: question.map(|q| q.gt_answer.clone()),
            gold_sql: question.map(|q| q.gt_sql.clone()).unwrap_or_default(),
            candidate_answer: cell.and_then(|c| c.final_answer.clone()),
            outcome: score.and_then(|s| s.outcome.clone()),
            data_equiv: votes.iter().find_map(|v| v.data_equiv.clone()),
            votes,
            label: label.clone(),
        });
    }
    items.sort_by(|a, b| {
        b.correct_despite_fail
            .total_cmp(&a.correct_despite_fail)
            .then_with(|| a.model.cmp(&b.model))
            .then_with(|| a.trace_id.cmp(&b.trace_id))
    });
    items
}
