//! What the in-loop gate would use for one question (harness-formats §6.1, §6.2): the
//! confident set, the prepend note and the contrastive hint, built from a [`QuestionRow`].

use serde::Serialize;

use super::confidence::high_confidence_set;
use super::question_rows::QuestionRow;
use super::report::ReportOptions;

/// Tables listed by the prepend note (`--topk`, default 5, §6.1).
pub const NOTE_TOP_K: usize = 5;

/// Tables listed by the contrastive hint (§6.2).
pub const HINT_TOP: usize = 3;

/// Stands in for `{Q}`, the off-track query's tables, which only a trajectory knows.
pub const OFF_TRACK_PLACEHOLDER: &str = "<tables of the off-track query>";

/// The gate's inputs and texts for one question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GatePreview {
    /// The min-p used (`options.confidence_threshold`).
    pub min_p: f64,
    /// Confident set: tables with stored P ≥ min-p in rank order, else `{ranked[0]}`.
    pub confident: Vec<String>,
    /// Whether the confident set is the `{ranked[0]}` fallback.
    pub confident_is_fallback: bool,
    /// The prepend note exactly as the harness's `build_note` (top 5).
    pub note: String,
    /// The contrastive hint with `{Q}` left as [`OFF_TRACK_PLACEHOLDER`].
    pub hint: String,
}

/// Builds the gate preview of `row` at `options.confidence_threshold`.
///
/// The ranking is `row.scores` (rank order). With fewer tables than the note or hint asks
/// for, the lists are shorter (Python slicing); with an empty ranking `{ranked[0]}` is `""`.
pub fn gate_preview(row: &QuestionRow, options: &ReportOptions) -> GatePreview {
    let ranked: Vec<&str> = row.scores.iter().map(|s| s.table.as_str()).collect();
    let p_of = |t: &str| row.scores.iter().find(|s| s.table == t).map(|s| s.p);
    let t = options.confidence_threshold;
    let confident = high_confidence_set(&ranked, p_of, t);
    let confident_is_fallback = !ranked.iter().any(|&x| p_of(x).is_some_and(|p| p >= t));
    GatePreview {
        min_p: t,
        confident_is_fallback: confident_is_fallback && !confident.is_empty(),
        confident: confident.into_iter().map(str::to_string).collect(),
        note: build_note(&ranked, NOTE_TOP_K),
        hint: contrastive_hint(&ranked, OFF_TRACK_PLACEHOLDER),
    }
}

/// The prepend note (§6.1): a header, `"  {i}. {table}"` lines for the top `k`, a footer,
/// joined with `\n`.
pub fn build_note(ranked: &[&str], k: usize) -> String {
    let mut lines =
        vec!["The tables most likely relevant to this question, ranked, are:".to_string()];
    lines.extend(
        ranked
            .iter()
            .take(k)
            .enumerate()
            .map(|(i, t)| format!("  {}. {t}", i + 1)),
    );
    lines.push(
        "Start from these. The full schema above still applies and other tables may be \
         needed, so do not treat this as the complete set."
            .to_string(),
    );
    lines.join("\n")
}

/// The contrastive hint (§6.2) with `q` for `{Q}` and the top three joined by `", "`.
pub fn contrastive_hint(ranked: &[&str], q: &str) -> String {
    let top = ranked
        .iter()
        .take(HINT_TOP)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    let first = ranked.first().copied().unwrap_or("");
    format!(
        "Your last query read {q}. For this question the most relevant tables, ranked, are: \
         {top}. Check whether {q} holds the asked-for data; if not, query {first} instead. \
         The full schema still applies."
    )
}
