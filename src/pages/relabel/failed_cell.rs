//! The harness's labelling request for one cell of a bundle (harness-formats.md §7.3–7.5):
//! the failed cell as `label_failure_modes.py` reads it and the mechanical checks computed
//! here from the bundle's rules config.

use runlens_core::bundle::{BundleBody, Checks, FailureLabel, Outcome};
use runlens_core::jev::SystemOneRequest;
use runlens_core::jev::label_request::{DEFAULT_MAX_RESULT_CHARS, FailedCell, label_request};
use runlens_core::metrics::rule_checks::MechanicalChecks;
use runlens_core::trajectory::OpenedCell;
use serde_json::Value;

use crate::derived::compiled_rules::compiled_rules;

/// The cell as the labeller reads it: missing ground truth gives `[]` and `""`.
pub fn failed_cell(opened: &OpenedCell) -> FailedCell {
    let (question, cell) = (opened.question.as_ref(), &opened.cell);
    FailedCell {
        question: question.map_or_else(|| opened.question_text.clone(), |q| q.nl_question.clone()),
        reference_sql: question.map(|q| q.gt_sql.clone()).unwrap_or_default(),
        reference_answer: question.map(|q| q.gt_answer.clone()).unwrap_or_default(),
        candidate_sqls: cell.sqls.clone(),
        candidate_results: cell.sql_results.iter().cloned().map(Value::from).collect(),
        candidate_final_answer: cell.final_answer.clone().map_or(Value::Null, Value::from),
        candidate_turns: cell.turns.map_or(Value::Null, Value::from),
        candidate_error: cell.error.clone().map_or(Value::Null, Value::from),
    }
}

/// The mechanical checks of `sqls` under the bundle's rules config (`Ok(None)` without one).
pub fn mechanical_checks(
    body: &BundleBody,
    sqls: &[String],
) -> Result<Option<MechanicalChecks>, String> {
    let Some(rules) = &body.rules else {
        return Ok(None);
    };
    match compiled_rules(rules).as_ref() {
        Ok(compiled) => Ok(Some(compiled.checks(sqls))),
        Err(e) => Err(format!("rules config: {e}")),
    }
}

/// The exact request the harness sends for the open cell (default 2,000-character
/// clipping), with `body`'s rules config.
pub fn build_label_request(
    body: &BundleBody,
    opened: &OpenedCell,
) -> Result<SystemOneRequest, String> {
    let failed = failed_cell(opened);
    let checks = mechanical_checks(body, &opened.cell.sqls)?;
    let checks = checks.and_then(|c| serde_json::to_value(c).ok());
    let semantic = body
        .rules
        .as_ref()
        .map(|r| r.semantic_rules.clone())
        .unwrap_or_default();
    Ok(label_request(
        &failed,
        DEFAULT_MAX_RESULT_CHARS,
        checks.as_ref(),
        &semantic,
    ))
}

/// The label a re-label starts from: the recorded one, or (no label yet) a fail record
/// carrying the computed checks, as the harness would write it.
pub fn base_label(
    recorded: Option<&FailureLabel>,
    model: &str,
    trace: &str,
    checks: Option<&MechanicalChecks>,
) -> FailureLabel {
    if let Some(label) = recorded {
        return label.clone();
    }
    let decidable = checks.map(|c| {
        c.decidable
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().to_owned()))
            .collect()
    });
    FailureLabel {
        trace_id: trace.to_owned(),
        model: model.to_owned(),
        outcome: Some(Outcome::Fail),
        checks: checks.map(|c| Checks {
            decidable: decidable.clone().unwrap_or_default(),
            n_queries: Some(c.n_queries as u64),
            has_repeated_query: Some(c.has_repeated_query),
            ..Checks::default()
        }),
        decidable_verdicts: decidable,
        ..FailureLabel::default()
    }
}
