//! The error of an audit-log or overrides-file import: names the line, the field and what
//! was expected.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A file that could not be imported.
///
/// Display form: `audit CSV: line 3: field verdict: expected one of grader_wrong,
/// grader_right, unsure, found "maybe"`. `line` is 1-based (`None` when unknown);
/// `field` is a path such as `decisions[2].verdict` (`None` for the document itself).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render())]
pub struct FormatError {
    /// What was being read (`audit JSON`, `audit CSV`, `overrides file`).
    pub what: &'static str,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Field path, when the problem is one field.
    pub field: Option<String>,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
}

impl FormatError {
    fn render(&self) -> String {
        let mut s = self.what.to_owned();
        if let Some(line) = self.line {
            s.push_str(&format!(": line {line}"));
        }
        if let Some(field) = &self.field {
            s.push_str(&format!(": field {field}"));
        }
        s.push_str(&format!(
            ": expected {}, found {}",
            self.expected, self.found
        ));
        s
    }
}

/// Builds [`FormatError`]s for one document kind.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Errors {
    pub what: &'static str,
}

impl Errors {
    /// An error about `field` (no line yet).
    pub fn field(self, field: impl Into<String>, expected: &str, found: String) -> FormatError {
        FormatError {
            what: self.what,
            line: None,
            field: Some(field.into()),
            expected: expected.to_owned(),
            found,
        }
    }

    /// Parses `text` as JSON, reporting syntax errors with their line.
    pub fn parse_json(self, text: &str) -> Result<Value, FormatError> {
        serde_json::from_str(text).map_err(|e| FormatError {
            what: self.what,
            line: Some(e.line()),
            field: None,
            expected: "valid JSON".into(),
            found: format!("a syntax error at column {}: {e}", e.column()),
        })
    }
}

/// The line of the first error serde finds when reading `text` as `T`: the validator walks
/// the document in the same order, so this is the line of the problem it reports (or of an
/// earlier field of the same record). `None` when `T` reads fine (e.g. a wrong `format`).
pub(crate) fn first_error_line<T: DeserializeOwned>(text: &str) -> Option<usize> {
    serde_json::from_str::<T>(text).err().map(|e| e.line())
}

/// Short description of a JSON value: `string "abc"`, `number 1.5`, `null`, `an object`.
/// Strings are cut at 40 characters.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            let ellipsis = if cut.len() < s.len() { "…" } else { "" };
            format!("string {cut:?}{ellipsis}")
        }
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(_) => "an object".into(),
    }
}

/// The string at `object[key]`, or an error naming `path.key`.
pub(crate) fn string_field(
    errors: Errors,
    object: &serde_json::Map<String, Value>,
    path: &str,
    key: &str,
) -> Result<String, FormatError> {
    match object.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(errors.field(join(path, key), "a string", describe(other))),
        None => Err(errors.field(join(path, key), "a string", "nothing (missing)".into())),
    }
}

/// `path.key`, or `key` at the top level.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}
