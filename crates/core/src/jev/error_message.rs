//! Human-readable message of an error body, in the official SDK's extraction order (§7).

use serde_json::Value;

/// Extracts the message of a Jev error body, trying in order: `error` (string),
/// `error.message`, `message`, `detail` (string), `detail.message`, then the FastAPI
/// `detail[]` list joined as `"loc: msg"` with `"; "` (the leading `"body"` of each `loc`
/// dropped and the rest joined with `.`). A bare JSON string is its own message.
/// Returns `None` when nothing applies, e.g. `{"detail":{"error_type":"max_tokens_exceeded"}}`.
///
/// ```
/// use runlens_core::jev::error_message;
/// use serde_json::json;
/// let unknown = json!({"detail": {"error_type": "api_usage_error", "message": "Unknown model: jev-9"}});
/// assert_eq!(error_message(&unknown).as_deref(), Some("Unknown model: jev-9"));
/// let missing = json!({"detail": [{"type": "missing", "loc": ["body", "state"], "msg": "Field required"}]});
/// assert_eq!(error_message(&missing).as_deref(), Some("state: Field required"));
/// ```
pub fn error_message(body: &Value) -> Option<String> {
    if let Value::String(text) = body {
        return non_empty(text);
    }
    let object = body.as_object()?;
    let nested_message = |value: Option<&Value>| {
        value
            .and_then(|v| v.get("message"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    if let Some(Value::String(error)) = object.get("error") {
        return Some(error.clone());
    }
    if let Some(message) = nested_message(object.get("error")) {
        return Some(message);
    }
    if let Some(Value::String(message)) = object.get("message") {
        return Some(message.clone());
    }
    match object.get("detail") {
        Some(Value::String(detail)) => Some(detail.clone()),
        Some(detail @ Value::Object(_)) => nested_message(Some(detail)),
        Some(Value::Array(items)) => join_validation_items(items),
        _ => None,
    }
}

fn non_empty(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_owned())
}

/// `"questions.q1.choice.criteria: Input should be a valid dictionary; state: Field required"`.
fn join_validation_items(items: &[Value]) -> Option<String> {
    let parts: Vec<String> = items
        .iter()
        .filter_map(|item| {
            let msg = item.get("msg")?.as_str()?;
            let path = item
                .get("loc")
                .and_then(Value::as_array)
                .map(|loc| {
                    loc.iter()
                        .filter(|part| part.as_str() != Some("body"))
                        .map(|part| match part {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(".")
                })
                .unwrap_or_default();
            Some(if path.is_empty() {
                msg.to_owned()
            } else {
                format!("{path}: {msg}")
            })
        })
        .collect();
    non_empty(&parts.join("; "))
}
