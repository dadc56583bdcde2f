//! Request validation with the API's own error bodies (jev-api.md §4, §7, §9).
//!
//! Schema problems give 422 with a FastAPI `detail[]` list (all problems at once, `loc`
//! naming the field and question id), among them a choice with no option and a score with
//! fewer than 2 levels (`too_short`, §9.2); the semantic limits (more than 255 options or 10
//! levels) give 400 with a plain-string `detail` (§7), checked only once the schema is
//! valid, as the API does.

use serde::Deserialize;
use serde_json::{Value, json};

use super::SystemOneRequest;
pub use super::schema_issue::SchemaIssue;
use super::schema_issue::{Issues, at};

/// Most options a choice question may have.
pub const MAX_CHOICES: usize = 255;
/// Fewest levels a score question may have.
pub const MIN_SCORE_LEVELS: usize = 2;
/// Most levels a score question may have.
pub const MAX_SCORE_LEVELS: usize = 10;
const TAGS: &str = "'noul', 'choice', 'score'";

/// Why a request was refused, with the exact status and body to answer.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    /// 422: schema validation failed; FastAPI `detail[]` items in document order.
    Schema(Vec<SchemaIssue>),
    /// 400: a semantic limit (options, levels); the plain-string detail.
    Limit(String),
}

impl RequestError {
    /// HTTP status: 422 or 400.
    pub fn status(&self) -> u16 {
        match self {
            RequestError::Schema(_) => 422,
            RequestError::Limit(_) => 400,
        }
    }

    /// The response body, `{"detail": [...]}` or `{"detail": "..."}`.
    pub fn body(&self) -> Value {
        match self {
            RequestError::Schema(issues) => {
                json!({"detail": issues.iter().map(SchemaIssue::to_json).collect::<Vec<_>>()})
            }
            RequestError::Limit(text) => json!({ "detail": text }),
        }
    }

    /// A log-safe summary (codes and locations, never input values).
    pub fn log_summary(&self) -> String {
        match self {
            RequestError::Schema(issues) => {
                let labels: Vec<String> = issues.iter().map(SchemaIssue::log_label).collect();
                labels.join(", ")
            }
            RequestError::Limit(text) => text.clone(),
        }
    }
}

/// Validates a parsed JSON body and returns the typed request (unknown fields dropped).
///
/// ```
/// use runlens_core::jev::validate_request;
/// use serde_json::json;
/// let error = validate_request(&json!({"questions": {}})).unwrap_err();
/// assert_eq!(error.status(), 422);
/// assert_eq!(error.body()["detail"][0]["loc"], json!(["body", "state"]));
/// let levels: Vec<String> = (0..11).map(|i| i.to_string()).collect();
/// let body = json!({"state": "s", "questions": {"q": {"type": "score", "criteria": levels}}});
/// let error = validate_request(&body).unwrap_err();
/// assert_eq!(error.body(), json!({"detail": "Too many score levels. Must have at most 10 levels."}));
/// ```
pub fn validate_request(body: &Value) -> Result<SystemOneRequest, RequestError> {
    let mut issues = Issues::default();
    check_schema(body, &mut issues);
    if !issues.0.is_empty() {
        return Err(RequestError::Schema(issues.0));
    }
    check_limits(body)?;
    SystemOneRequest::deserialize(body).map_err(|err| {
        let mut issues = Issues::default();
        issues.push(
            "value_error",
            vec!["body".into()],
            &format!("Value error, {err}"),
            body,
        );
        RequestError::Schema(issues.0)
    })
}

fn check_schema(body: &Value, issues: &mut Issues) {
    let root = vec![Value::from("body")];
    let Some(fields) = body.as_object() else {
        let msg = "Input should be a valid dictionary or object to extract fields from";
        issues.push("model_attributes_type", root, msg, body);
        return;
    };
    match fields.get("model") {
        None | Some(Value::Null | Value::String(_)) => {}
        Some(other) => issues.push(
            "string_type",
            at(&root, "model"),
            "Input should be a valid string",
            other,
        ),
    }
    match fields.get("state") {
        None => issues.missing(at(&root, "state"), body),
        Some(state) => issues.content(&at(&root, "state"), state, false),
    }
    match fields.get("questions") {
        None => issues.missing(at(&root, "questions"), body),
        Some(Value::Object(questions)) if questions.is_empty() => {
            issues.too_short(
                at(&root, "questions"),
                "Dictionary",
                1,
                &Value::Object(questions.clone()),
            );
        }
        Some(Value::Object(questions)) => {
            for (id, question) in questions {
                check_question(&at(&at(&root, "questions"), id.as_str()), question, issues);
            }
        }
        Some(other) => issues.push(
            "dict_type",
            at(&root, "questions"),
            "Input should be a valid dictionary",
            other,
        ),
    }
    if fields.get("assets").is_some_and(|assets| !assets.is_null()) {
        let msg = "Value error, image assets are not supported by this server";
        issues.0.push(SchemaIssue {
            kind: "value_error",
            loc: at(&root, "assets"),
            msg: msg.to_owned(),
            input: None,
            ctx: None,
        });
    }
}

fn check_question(loc: &[Value], question: &Value, issues: &mut Issues) {
    let Some(fields) = question.as_object() else {
        let msg = "Input should be a valid dictionary or object to extract fields from";
        issues.push("model_attributes_type", loc.to_vec(), msg, question);
        return;
    };
    let tag = match fields.get("type") {
        None => {
            let msg = "Unable to extract tag using discriminator 'type'";
            let ctx = json!({"discriminator": "'type'"});
            issues.push_ctx(
                "union_tag_not_found",
                loc.to_vec(),
                msg.to_owned(),
                question,
                ctx,
            );
            return;
        }
        Some(Value::String(tag)) if matches!(tag.as_str(), "noul" | "choice" | "score") => {
            tag.as_str()
        }
        Some(other) => {
            let tag = match other {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let msg = format!(
                "Input tag '{tag}' found using 'type' does not match any of the expected tags: {TAGS}"
            );
            let ctx = json!({"discriminator": "'type'", "tag": tag, "expected_tags": TAGS});
            issues.push_ctx("union_tag_invalid", loc.to_vec(), msg, question, ctx);
            return;
        }
    };
    let loc = at(loc, tag);
    if let Some(instructions) = fields.get("instructions") {
        issues.content(&at(&loc, "instructions"), instructions, true);
    }
    let criteria = fields.get("criteria");
    match tag {
        "noul" => check_noul(&loc, question, criteria, issues),
        "choice" => check_choice(&loc, question, criteria, issues),
        _ => check_score(&loc, question, criteria, issues),
    }
}

fn check_noul(loc: &[Value], question: &Value, criteria: Option<&Value>, issues: &mut Issues) {
    let mut described = question.get("instructions").is_some_and(|v| !v.is_null());
    match criteria {
        None | Some(Value::Null) => {}
        Some(Value::Object(outcomes)) => {
            for outcome in ["true", "false"] {
                if let Some(text) = outcomes.get(outcome) {
                    issues.content(&at(&at(loc, "criteria"), outcome), text, true);
                    described |= !text.is_null();
                }
            }
        }
        Some(other) => {
            let msg = "Input should be a valid dictionary or instance of NoulCriteria".to_owned();
            let ctx = json!({"class_name": "NoulCriteria"});
            issues.push_ctx("model_type", at(loc, "criteria"), msg, other, ctx);
            described = true;
        }
    }
    if !described {
        let msg = "Value error, a noul question needs instructions or at least one criterion";
        issues.push("value_error", loc.to_vec(), msg, question);
    }
}

fn check_choice(loc: &[Value], question: &Value, criteria: Option<&Value>, issues: &mut Issues) {
    match criteria {
        None => issues.missing(at(loc, "criteria"), question),
        Some(Value::Object(options)) if options.is_empty() => {
            let input = Value::Object(options.clone());
            issues.too_short(at(loc, "criteria"), "Dictionary", 1, &input);
        }
        Some(Value::Object(options)) => {
            for (label, description) in options {
                issues.content(&at(&at(loc, "criteria"), label.as_str()), description, true);
            }
        }
        Some(other) => issues.push(
            "dict_type",
            at(loc, "criteria"),
            "Input should be a valid dictionary",
            other,
        ),
    }
}

fn check_score(loc: &[Value], question: &Value, criteria: Option<&Value>, issues: &mut Issues) {
    match criteria {
        None => issues.missing(at(loc, "criteria"), question),
        Some(Value::Array(levels)) => {
            for (index, level) in levels.iter().enumerate() {
                issues.content(&at(&at(loc, "criteria"), index), level, false);
            }
            if levels.len() < MIN_SCORE_LEVELS {
                let input = Value::Array(levels.clone());
                issues.too_short(at(loc, "criteria"), "List", MIN_SCORE_LEVELS, &input);
            }
        }
        Some(other) => issues.push(
            "list_type",
            at(loc, "criteria"),
            "Input should be a valid list",
            other,
        ),
    }
}

/// The 400 checks (too many options or levels), run on a schema-valid body, first failing
/// question wins.
fn check_limits(body: &Value) -> Result<(), RequestError> {
    let questions = body
        .get("questions")
        .and_then(Value::as_object)
        .into_iter()
        .flatten();
    for question in questions.map(|(_, q)| q) {
        let criteria = question.get("criteria");
        match question.get("type").and_then(Value::as_str) {
            Some("choice") => {
                let count = criteria.and_then(Value::as_object).map_or(0, |c| c.len());
                if count > MAX_CHOICES {
                    return Err(RequestError::Limit(format!(
                        "Too many choices. Must have at most {MAX_CHOICES} choices."
                    )));
                }
            }
            Some("score") => {
                let count = criteria.and_then(Value::as_array).map_or(0, Vec::len);
                if count > MAX_SCORE_LEVELS {
                    return Err(RequestError::Limit(format!(
                        "Too many score levels. Must have at most {MAX_SCORE_LEVELS} levels."
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
