//! Reading one Jev question into the model's view: its kind, instruction text and options.
//!
//! Mirrors the package's `_options`:
//! * `type` defaults to `noul` when absent;
//! * **noul**: options `false`, `true` with the default descriptions "the statement does not
//!   hold for this state" / "the statement holds for this state", each replaced by the
//!   question's `criteria.false` / `criteria.true` when that key is present (a `null` value
//!   gives an empty description; other keys are ignored). `criteria` absent or `null` keeps the
//!   defaults; any other non-object `criteria` is an error;
//! * **choice**: `criteria` must be an object; options are its keys in order, descriptions its
//!   values. The package needs ≥ 2 options; this port also accepts exactly 1 (see
//!   [`crate::Decider::answer`]);
//! * **score**: `criteria` must be a list of 2..=10 levels; options are named `"0"`, `"1"`, ...
//!
//! Every description and the instructions go through [`crate::text::content_text`], so a
//! JSON object or array is read as its indented JSON text and `null` as empty text.

use crate::SparrowError;
use crate::model::Kind;
use crate::text::content_text;
use serde_json::Value;

/// The package's default descriptions of a noul's two outcomes.
pub const NOUL_DEFAULT_FALSE: &str = "the statement does not hold for this state";
/// See [`NOUL_DEFAULT_FALSE`].
pub const NOUL_DEFAULT_TRUE: &str = "the statement holds for this state";

/// A question as the model sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedQuestion {
    /// noul, choice or score.
    pub kind: Kind,
    /// The instructions' text (`""` when absent or null).
    pub instructions: String,
    /// (option name, description text), in answer order.
    pub options: Vec<(String, String)>,
}

impl ParsedQuestion {
    /// Parses question `id` (used in errors only).
    ///
    /// ```
    /// use runlens_sparrow::question::ParsedQuestion;
    /// let q = serde_json::json!({"type": "score", "instructions": " How urgent? ",
    ///                             "criteria": ["later", {"when": "now"}]});
    /// let p = ParsedQuestion::parse("u", &q).unwrap();
    /// assert_eq!(p.instructions, "How urgent?");
    /// assert_eq!(p.options[1], ("1".to_string(), "{\n  \"when\": \"now\"\n}".to_string()));
    /// ```
    pub fn parse(id: &str, question: &Value) -> Result<ParsedQuestion, SparrowError> {
        let Value::Object(q) = question else {
            return Err(SparrowError::question(
                id,
                "a question must be a JSON object",
            ));
        };
        let kind = match q.get("type") {
            None => Kind::Noul,
            Some(Value::String(t)) if t == "noul" => Kind::Noul,
            Some(Value::String(t)) if t == "choice" => Kind::Choice,
            Some(Value::String(t)) if t == "score" => Kind::Score,
            Some(other) => {
                return Err(SparrowError::question(
                    id,
                    format!("type {other} is not one of \"noul\", \"choice\", \"score\""),
                ));
            }
        };
        let criteria = q.get("criteria").unwrap_or(&Value::Null);
        let options = match kind {
            Kind::Noul => noul_options(id, criteria)?,
            Kind::Choice => choice_options(id, criteria)?,
            Kind::Score => score_options(id, criteria)?,
        };
        let instructions = content_text(q.get("instructions").unwrap_or(&Value::Null));
        Ok(ParsedQuestion {
            kind,
            instructions,
            options,
        })
    }
}

fn noul_options(id: &str, criteria: &Value) -> Result<Vec<(String, String)>, SparrowError> {
    let described = |key: &str, default: &str| match criteria.get(key) {
        Some(v) => content_text(v),
        None => default.to_owned(),
    };
    match criteria {
        Value::Null | Value::Object(_) => Ok(vec![
            ("false".into(), described("false", NOUL_DEFAULT_FALSE)),
            ("true".into(), described("true", NOUL_DEFAULT_TRUE)),
        ]),
        other => Err(SparrowError::question(
            id,
            format!(
                "noul criteria must be an object {{\"true\": .., \"false\": ..}} or null, found {}",
                kind_of(other)
            ),
        )),
    }
}

fn choice_options(id: &str, criteria: &Value) -> Result<Vec<(String, String)>, SparrowError> {
    match criteria {
        Value::Object(map) if !map.is_empty() => Ok(map
            .iter()
            .map(|(name, desc)| (name.clone(), content_text(desc)))
            .collect()),
        Value::Object(_) => Err(SparrowError::question(id, "choice criteria has no options")),
        other => Err(SparrowError::question(
            id,
            format!(
                "choice criteria must be an object {{label: description}}, found {}",
                kind_of(other)
            ),
        )),
    }
}

fn score_options(id: &str, criteria: &Value) -> Result<Vec<(String, String)>, SparrowError> {
    match criteria {
        Value::Array(levels) if (2..=10).contains(&levels.len()) => Ok(levels
            .iter()
            .enumerate()
            .map(|(i, level)| (i.to_string(), content_text(level)))
            .collect()),
        Value::Array(levels) => Err(SparrowError::question(
            id,
            format!(
                "score criteria must have 2 to 10 levels, found {}",
                levels.len()
            ),
        )),
        other => Err(SparrowError::question(
            id,
            format!(
                "score criteria must be a list of levels, lowest first, found {}",
                kind_of(other)
            ),
        )),
    }
}

/// "a string", "a number", ... for error messages.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn noul_defaults_and_partial_criteria() {
        let p = ParsedQuestion::parse("n", &json!({"instructions": "Is it on?"})).unwrap();
        assert_eq!(p.kind, Kind::Noul);
        assert_eq!(p.options[0], ("false".into(), NOUL_DEFAULT_FALSE.into()));
        let q = json!({"type": "noul", "criteria": {"true": "It is on", "false": null, "x": 1}});
        let p = ParsedQuestion::parse("n", &q).unwrap();
        assert_eq!(
            p.options,
            vec![
                ("false".into(), "".into()),
                ("true".into(), "It is on".into())
            ]
        );
        assert_eq!(p.instructions, "");
    }

    #[test]
    fn bad_questions_are_errors_naming_the_id() {
        let cases = [
            (
                json!("noul"),
                "question `q`: a question must be a JSON object",
            ),
            (
                json!({"type": "box"}),
                "question `q`: type \"box\" is not one of",
            ),
            (
                json!({"type": "choice"}),
                "question `q`: choice criteria must be an object",
            ),
            (
                json!({"type": "choice", "criteria": {}}),
                "question `q`: choice criteria has no options",
            ),
            (
                json!({"type": "score", "criteria": ["a"]}),
                "question `q`: score criteria must have 2 to 10 levels, found 1",
            ),
            (
                json!({"type": "noul", "criteria": "yes"}),
                "question `q`: noul criteria must be an object",
            ),
        ];
        for (q, want) in cases {
            let got = ParsedQuestion::parse("q", &q)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(got.starts_with(want), "{got}");
        }
    }
}
