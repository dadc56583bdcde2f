//! The harness's failure-labelling request, exactly (harness-formats.md §7.2, §7.4, §7.5):
//! one request per failed cell, four questions in a fixed order, the trajectory as state.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::{Question, SystemOneRequest};
use crate::metrics::taxonomy::SUB_MODES;

/// Question ids, in the order they are sent.
pub const LABEL_QUESTION_IDS: [&str; 4] = [
    "sub_mode",
    "prevented_by_rule",
    "schema_hint_would_help",
    "correct_despite_fail",
];
/// Instruction of the `sub_mode` Choice.
pub const SUB_MODE_INSTRUCTION: &str = "Given the question, the reference SQL and answer, and the candidate's SQL, results, and final answer, pick the single most specific sub-mode for why the candidate failed. Its family is derived from your choice, so pick the sub-mode that fits best.";
/// Instruction of the `prevented_by_rule` Choice.
pub const PREVENTED_BY_RULE_INSTRUCTION: &str = "Which of these judgment-call schema-prompt rules best explains why the candidate failed? The mechanically checkable rules are scored separately in code, so they are not listed here; the state field `mechanical_checks` shows what the SQL did. Choose 'none' if no listed rule explains the failure.";
/// Instruction of the `schema_hint_would_help` Noul.
pub const SCHEMA_HINT_INSTRUCTION: &str = "Would giving the candidate a correct schema-use hint (the right table, column, join, or grain) before it queried most likely have prevented this failure?";
/// Instruction of the `correct_despite_fail` Noul.
pub const CORRECT_DESPITE_FAIL_INSTRUCTION: &str = "Does the candidate's final answer actually look correct for the question, despite being scored a failure?";
/// The extra `prevented_by_rule` option, always last.
pub const NO_RULE: (&str, &str) = ("none", "no semantic rule explains this failure");
/// Default `--max-result-chars`.
pub const DEFAULT_MAX_RESULT_CHARS: usize = 2000;
/// Appended to a clipped result.
pub const TRUNCATION_MARK: &str = " ...(truncated)";

/// One failed cell, as the labeller reads it (missing ground truth = empty SQL list and "").
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FailedCell {
    /// `nl_question`.
    pub question: String,
    /// The winning annotator's `gt_sql` statements.
    pub reference_sql: Vec<String>,
    /// `gt_answer`.
    pub reference_answer: String,
    /// The candidate's SQL statements.
    pub candidate_sqls: Vec<String>,
    /// The candidate's raw `sql_results` (strings or JSON), clipped when sent.
    pub candidate_results: Vec<Value>,
    /// `final_answer` as stored (usually a string).
    pub candidate_final_answer: Value,
    /// `turns` as stored (an integer or null).
    pub candidate_turns: Value,
    /// `error` as stored (a string or null).
    pub candidate_error: Value,
}

/// The four questions; `semantic_rules` (key → description, config order) become the
/// `prevented_by_rule` options, followed by [`NO_RULE`].
pub fn label_questions(semantic_rules: &IndexMap<String, String>) -> IndexMap<String, Question> {
    let sub_modes = SUB_MODES
        .iter()
        .map(|s| (s.key.to_owned(), Value::from(s.description)))
        .collect();
    let mut rules: IndexMap<String, Value> = semantic_rules
        .iter()
        .map(|(k, d)| (k.clone(), Value::from(d.as_str())))
        .collect();
    rules.insert(NO_RULE.0.to_owned(), Value::from(NO_RULE.1));
    let choice = |text: &str, criteria| Question::Choice {
        instructions: Some(Value::from(text)),
        criteria,
    };
    let noul = |text: &str| Question::Noul {
        instructions: Some(Value::from(text)),
        criteria: None,
    };
    IndexMap::from([
        (
            "sub_mode".to_owned(),
            choice(SUB_MODE_INSTRUCTION, sub_modes),
        ),
        (
            "prevented_by_rule".to_owned(),
            choice(PREVENTED_BY_RULE_INSTRUCTION, rules),
        ),
        (
            "schema_hint_would_help".to_owned(),
            noul(SCHEMA_HINT_INSTRUCTION),
        ),
        (
            "correct_despite_fail".to_owned(),
            noul(CORRECT_DESPITE_FAIL_INSTRUCTION),
        ),
    ])
}

/// The state of §7.4, keys in the harness's order; `mechanical_checks` is added when given.
pub fn label_state(
    cell: &FailedCell,
    max_result_chars: usize,
    mechanical_checks: Option<&Value>,
) -> Value {
    let strings = |items: &[String]| {
        Value::from(
            items
                .iter()
                .map(|s| Value::from(s.as_str()))
                .collect::<Vec<_>>(),
        )
    };
    let results: Vec<Value> = cell
        .candidate_results
        .iter()
        .map(|r| Value::from(clip_result(r, max_result_chars)))
        .collect();
    let mut state = Map::new();
    state.insert("question".into(), Value::from(cell.question.as_str()));
    state.insert("reference_sql".into(), strings(&cell.reference_sql));
    state.insert(
        "reference_answer".into(),
        Value::from(cell.reference_answer.as_str()),
    );
    state.insert("candidate_sqls".into(), strings(&cell.candidate_sqls));
    state.insert("candidate_results".into(), Value::from(results));
    state.insert(
        "candidate_final_answer".into(),
        cell.candidate_final_answer.clone(),
    );
    state.insert("candidate_turns".into(), cell.candidate_turns.clone());
    state.insert("candidate_error".into(), cell.candidate_error.clone());
    if let Some(checks) = mechanical_checks {
        state.insert("mechanical_checks".into(), checks.clone());
    }
    Value::Object(state)
}

/// The whole request (model left to the server's default).
///
/// ```
/// use indexmap::IndexMap;
/// use runlens_core::jev::label_request::{label_request, FailedCell, DEFAULT_MAX_RESULT_CHARS};
/// let rules = IndexMap::from([("crm_join".to_owned(), "join CRM facts on account_id".to_owned())]);
/// let request = label_request(&FailedCell::default(), DEFAULT_MAX_RESULT_CHARS, None, &rules);
/// let ids: Vec<&str> = request.questions.keys().map(String::as_str).collect();
/// assert_eq!(ids, ["sub_mode", "prevented_by_rule", "schema_hint_would_help", "correct_despite_fail"]);
/// ```
pub fn label_request(
    cell: &FailedCell,
    max_result_chars: usize,
    mechanical_checks: Option<&Value>,
    semantic_rules: &IndexMap<String, String>,
) -> SystemOneRequest {
    SystemOneRequest {
        model: None,
        state: label_state(cell, max_result_chars, mechanical_checks),
        questions: label_questions(semantic_rules),
    }
}

/// One result as sent: strings as they are, anything else as Python `json.dumps` text
/// (`", "` and `": "` separators, non-ASCII kept); longer than `max_chars` characters
/// (Unicode scalar values, like Python's `len`) keeps the first `max_chars` plus
/// [`TRUNCATION_MARK`].
///
/// ```
/// use runlens_core::jev::label_request::clip_result;
/// use serde_json::json;
/// assert_eq!(clip_result(&json!([{"n": 1, "name": "Zoë"}]), 2000), r#"[{"n": 1, "name": "Zoë"}]"#);
/// assert_eq!(clip_result(&json!("abcdef"), 3), "abc ...(truncated)");
/// ```
pub fn clip_result(result: &Value, max_chars: usize) -> String {
    let text = match result {
        Value::String(s) => s.clone(),
        other => python_dumps(other),
    };
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}{TRUNCATION_MARK}", &text[..cut]),
        None => text,
    }
}

/// `json.dumps(value, ensure_ascii=False)` for the shapes results take.
fn python_dumps(value: &Value) -> String {
    match value {
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(python_dumps)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), python_dumps(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}
