//! One `sql_results` string as the trajectory viewer shows it (harness-formats.md §3.1).
//!
//! The warehouse tool returns exactly one of:
//! - the literal `(empty result)`;
//! - `Error: <message>` (any exception, including `Error: only SELECT queries are allowed.`);
//! - JSONEachRow text (one JSON object per line), cut at 30,000 characters and suffixed
//!   [`TRUNCATION_MARKER`] when longer.
//!
//! [`result_table`] never fails: text that is none of these is shown as
//! [`ResultView::Text`] with a note saying why it is not a table.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

/// The suffix the warehouse appends to a result cut at 30,000 characters.
pub const TRUNCATION_MARKER: &str = "\n... (truncated)";
/// The warehouse's literal empty result.
pub const EMPTY_RESULT: &str = "(empty result)";
/// The prefix of an error result.
pub const ERROR_PREFIX: &str = "Error: ";

/// How to show one `sql_results` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ResultView {
    /// JSONEachRow rows.
    Table {
        /// Column names in first-seen order over all rows.
        columns: Vec<String>,
        /// One entry per row and column: the value as display text (strings unquoted,
        /// other JSON compact, e.g. `[1,2]`, `null`), `None` when the row lacks the column.
        rows: Vec<Vec<Option<String>>>,
        /// True when the text ended with [`TRUNCATION_MARKER`] (rows are missing).
        truncated: bool,
        /// A cut-off last line dropped because of the truncation (it did not parse).
        partial_line_dropped: bool,
    },
    /// The literal `(empty result)`.
    Empty,
    /// `Error: <message>`; holds the message without the prefix.
    Error(String),
    /// Anything else, verbatim, with why it is not shown as a table.
    Text {
        /// The full result text.
        text: String,
        /// Why it is not a table, e.g. `line 2 is not a JSON object`.
        note: String,
    },
}

/// Parses one `sql_results` string. Never panics.
///
/// ```
/// use runlens_core::trajectory::{ResultView, result_table};
/// let ResultView::Table { columns, rows, truncated, .. } = result_table("{\"n\":3}") else {
///     panic!("a table");
/// };
/// assert_eq!((columns, rows, truncated), (vec!["n".to_string()], vec![vec![Some("3".to_string())]], false));
/// assert_eq!(result_table("(empty result)"), ResultView::Empty);
/// ```
pub fn result_table(text: &str) -> ResultView {
    if text == EMPTY_RESULT {
        return ResultView::Empty;
    }
    if let Some(message) = text.strip_prefix(ERROR_PREFIX) {
        return ResultView::Error(message.to_owned());
    }
    let (body, truncated) = match text.strip_suffix(TRUNCATION_MARKER) {
        Some(body) => (body, true),
        None => (text, false),
    };
    match parse_rows(body, truncated) {
        Ok((columns, rows, partial_line_dropped)) => ResultView::Table {
            columns,
            rows,
            truncated,
            partial_line_dropped,
        },
        Err(note) => ResultView::Text {
            text: text.to_owned(),
            note,
        },
    }
}

type Parsed = (Vec<String>, Vec<Vec<Option<String>>>, bool);

fn parse_rows(body: &str, truncated: bool) -> Result<Parsed, String> {
    let lines: Vec<(usize, &str)> = body
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return Err("blank result (expected JSONEachRow, `(empty result)` or `Error: …`)".into());
    }
    let last = lines.len() - 1;
    let mut objects: Vec<IndexMap<String, Value>> = Vec::with_capacity(lines.len());
    let mut partial_line_dropped = false;
    for (i, (number, line)) in lines.iter().enumerate() {
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(map)) => objects.push(map.into_iter().collect()),
            Ok(_) => return Err(format!("line {number} is not a JSON object")),
            Err(_) if truncated && i == last => partial_line_dropped = true,
            Err(e) => {
                return Err(format!(
                    "line {number}, column {}: not valid JSON",
                    e.column()
                ));
            }
        }
    }
    let mut columns: IndexMap<&str, ()> = IndexMap::new();
    for object in &objects {
        for key in object.keys() {
            columns.entry(key.as_str()).or_insert(());
        }
    }
    let rows = objects
        .iter()
        .map(|object| {
            columns
                .keys()
                .map(|c| object.get(*c).map(display_value))
                .collect()
        })
        .collect();
    let columns = columns.keys().map(|c| (*c).to_owned()).collect();
    Ok((columns, rows, partial_line_dropped))
}

/// A JSON value as table text: strings without quotes, everything else compact JSON.
fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
#[path = "result_view_tests.rs"]
mod tests;
