//! FastAPI/pydantic-v2 style validation items (`{"type","loc","msg","input","ctx"}`).

use serde_json::{Map, Value, json};

/// One 422 validation item, as FastAPI writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaIssue {
    /// Machine-readable code (`missing`, `dict_type`, `union_tag_invalid`, …).
    pub kind: &'static str,
    /// Path: `"body"`, then field names, question ids, tags and list indices.
    pub loc: Vec<Value>,
    /// Human-readable explanation.
    pub msg: String,
    /// The offending value (echoes user data: never log it).
    pub input: Option<Value>,
    /// Extra context (`min_length`, `tag`, …).
    pub ctx: Option<Value>,
}

impl SchemaIssue {
    /// The item as JSON, keys in FastAPI's order.
    pub fn to_json(&self) -> Value {
        let mut item = Map::new();
        item.insert("type".into(), Value::from(self.kind));
        item.insert("loc".into(), Value::Array(self.loc.clone()));
        item.insert("msg".into(), Value::from(self.msg.clone()));
        if let Some(input) = &self.input {
            item.insert("input".into(), input.clone());
        }
        if let Some(ctx) = &self.ctx {
            item.insert("ctx".into(), ctx.clone());
        }
        Value::Object(item)
    }

    /// `"missing@body.state"`: code and location only, safe to log.
    pub fn log_label(&self) -> String {
        let path: Vec<String> = self
            .loc
            .iter()
            .map(|part| match part {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        format!("{}@{}", self.kind, path.join("."))
    }
}

/// Builds locations and issues while walking a request.
#[derive(Debug, Default)]
pub(crate) struct Issues(pub(crate) Vec<SchemaIssue>);

impl Issues {
    pub(crate) fn push(&mut self, kind: &'static str, loc: Vec<Value>, msg: &str, input: &Value) {
        self.0.push(SchemaIssue {
            kind,
            loc,
            msg: msg.to_owned(),
            input: Some(input.clone()),
            ctx: None,
        });
    }

    pub(crate) fn push_ctx(
        &mut self,
        kind: &'static str,
        loc: Vec<Value>,
        msg: String,
        input: &Value,
        ctx: Value,
    ) {
        self.0.push(SchemaIssue {
            kind,
            loc,
            msg,
            input: Some(input.clone()),
            ctx: Some(ctx),
        });
    }

    /// `missing`: the field is absent from `parent`.
    pub(crate) fn missing(&mut self, loc: Vec<Value>, parent: &Value) {
        self.push("missing", loc, "Field required", parent);
    }

    /// Checks a "content" value (string, object or array; `null` only when `nullable`), the
    /// way pydantic reports a failed `str | dict[str, Any] | list[Any]` union: one item per member.
    pub(crate) fn content(&mut self, loc: &[Value], value: &Value, nullable: bool) {
        let ok = matches!(value, Value::String(_) | Value::Object(_) | Value::Array(_))
            || (nullable && value.is_null());
        if ok {
            return;
        }
        let members = [
            ("str", "string_type", "Input should be a valid string"),
            (
                "dict[str,any]",
                "dict_type",
                "Input should be a valid dictionary",
            ),
            ("list[any]", "list_type", "Input should be a valid list"),
        ];
        for (member, kind, msg) in members {
            self.push(kind, at(loc, member), msg, value);
        }
    }

    /// `too_short` for a dictionary or list with fewer than `min` items, as pydantic
    /// words it: `"List should have at least 2 items after validation, not 1"`.
    pub(crate) fn too_short(
        &mut self,
        loc: Vec<Value>,
        field_type: &str,
        min: usize,
        input: &Value,
    ) {
        let actual = match input {
            Value::Array(items) => items.len(),
            Value::Object(fields) => fields.len(),
            _ => 0,
        };
        let items = if min == 1 { "item" } else { "items" };
        let msg = format!(
            "{field_type} should have at least {min} {items} after validation, not {actual}"
        );
        let ctx = json!({"field_type": field_type, "min_length": min, "actual_length": actual});
        self.push_ctx("too_short", loc, msg, input, ctx);
    }
}

/// `loc` extended by one segment.
pub(crate) fn at(loc: &[Value], segment: impl Into<Value>) -> Vec<Value> {
    let mut extended = loc.to_vec();
    extended.push(segment.into());
    extended
}
