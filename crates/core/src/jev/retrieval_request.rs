//! The harness's schema-retrieval request, exactly (harness-formats.md §5.3): one Noul per
//! universe table under positional ids `t0`, `t1`, …, state `{"question", "schema"}`, and the
//! ranking by P(yes).

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::{Answer, Question, SystemOneRequest};

/// Default `--max-schema-chars` (applies to the full prompt, not to `--schema-only`).
pub const DEFAULT_MAX_SCHEMA_CHARS: usize = 16_000;
/// Lines dropped by `--schema-only` (after trimming), by prefix.
pub const GUIDANCE_PREFIXES: [&str; 8] = [
    "To get",
    "For monthly",
    "Standard queries",
    "- Total users",
    "- Active users",
    "- New users",
    "An org can",
    "Always take the latest",
];

/// The instruction asked about `table`.
///
/// ```
/// use runlens_core::jev::retrieval_request::table_instruction;
/// assert_eq!(
///     table_instruction("crm.dim_account"),
///     "Is the table `crm.dim_account` needed to answer the question? The full warehouse schema is in the state."
/// );
/// ```
pub fn table_instruction(table: &str) -> String {
    format!(
        "Is the table `{table}` needed to answer the question? The full warehouse schema is in the state."
    )
}

/// The schema text sent as state: the raw prompt cut to `max_chars` characters, or with
/// `schema_only` the table definitions only (from the first line starting `` Table ` ``,
/// stopping before the first starting `**MRR guidance`, without fenced blocks or
/// [`GUIDANCE_PREFIXES`] lines, trimmed; not cut).
pub fn schema_text(prompt: &str, max_chars: usize, schema_only: bool) -> String {
    if !schema_only {
        return match prompt.char_indices().nth(max_chars) {
            Some((cut, _)) => prompt[..cut].to_owned(),
            None => prompt.to_owned(),
        };
    }
    let lines: Vec<&str> = prompt.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("Table `"))
        .unwrap_or(0);
    let end = lines
        .iter()
        .position(|l| l.trim().starts_with("**MRR guidance"))
        .unwrap_or(lines.len());
    let mut kept = Vec::new();
    let mut in_fence = false;
    for line in lines.get(start..end.max(start)).unwrap_or(&[]) {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || GUIDANCE_PREFIXES.iter().any(|p| trimmed.starts_with(p)) {
            continue;
        }
        kept.push(*line);
    }
    kept.join("\n").trim().to_owned()
}

/// The request for one question over `universe` (alphabetical table names).
///
/// ```
/// use runlens_core::jev::retrieval_request::retrieval_request;
/// let universe = ["crm.dim_account".to_owned(), "marts.usage_daily".to_owned()];
/// let request = retrieval_request("How many seats?", "Table `crm.dim_account` ...", &universe);
/// assert_eq!(request.questions.keys().collect::<Vec<_>>(), ["t0", "t1"]);
/// assert_eq!(request.state["question"], "How many seats?");
/// ```
pub fn retrieval_request(question: &str, schema: &str, universe: &[String]) -> SystemOneRequest {
    let questions = universe
        .iter()
        .enumerate()
        .map(|(i, table)| {
            let noul = Question::Noul {
                instructions: Some(Value::from(table_instruction(table))),
                criteria: None,
            };
            (format!("t{i}"), noul)
        })
        .collect();
    SystemOneRequest {
        model: None,
        state: json!({"question": question, "schema": schema}),
        questions,
    }
}

/// The universe ranked by P(yes) descending (a missing or non-noul answer scores 0.0);
/// ties keep universe order (a stable sort). Scores are unrounded.
pub fn rank_tables(universe: &[String], answers: &IndexMap<String, Answer>) -> Vec<(String, f64)> {
    let mut scored: Vec<(String, f64)> = universe
        .iter()
        .enumerate()
        .map(|(i, table)| {
            let p = match answers.get(&format!("t{i}")) {
                Some(Answer::Noul { noul }) if noul.is_finite() => *noul,
                _ => 0.0,
            };
            (table.clone(), p)
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}
