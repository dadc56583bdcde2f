//! The import error: names the file, the line, the field and what was expected.

use serde_json::Value;

/// A problem that stops the import.
///
/// Display form: `dev/results.jsonl:12: field candidates.gpt-4.1.turns: expected a
/// non-negative integer, found string "5"`. `line` is 1-based and `None` for whole-file
/// documents; `field` is a dotted path (`None` when the line itself is malformed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct ImportError {
    /// Input path as given (e.g. `out/failure_labels.jsonl`).
    pub file: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<usize>,
    /// Dotted field path (`candidates.gpt-4.1.usage.per_turn[2]`).
    pub field: Option<String>,
    /// What was expected (`a non-negative integer`).
    pub expected: String,
    /// What was found (`string "5"`).
    pub found: String,
}

impl ImportError {
    fn render(&self) -> String {
        let mut s = self.file.clone();
        if let Some(line) = self.line {
            s.push(':');
            s.push_str(&line.to_string());
        }
        s.push_str(": ");
        if let Some(field) = &self.field {
            s.push_str("field ");
            s.push_str(field);
            s.push_str(": ");
        }
        s.push_str("expected ");
        s.push_str(&self.expected);
        s.push_str(", found ");
        s.push_str(&self.found);
        s
    }

    /// An error about a whole file or line (no field).
    pub(crate) fn at(file: &str, line: Option<usize>, expected: &str, found: String) -> Self {
        ImportError {
            file: file.to_owned(),
            line,
            field: None,
            expected: expected.to_owned(),
            found,
        }
    }
}

/// Short description of a JSON value for error messages: `string "abc"`, `number 1.5`,
/// `null`, `true`, `an array of 3 items`, `an object`. Strings are cut at 40 characters.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("string {cut:?}...")
            } else {
                format!("string {cut:?}")
            }
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}
