//! Parsing the harness's rules YAML (`config/rules.example.yaml`) into [`RulesConfig`], with
//! the loader validation of harness-formats.md §7.7: both groups must be mappings, no key may
//! appear in both groups, `kind` must be `forbidden_when` or `required_when`, and `scope`
//! must be `per_statement` or `global`. A missing group is an empty group.

use indexmap::IndexMap;
use serde_norway::Value;

use crate::import::ImportError;
use crate::rules::{DecidableRule, RuleKind, RulesConfig, Scope};

impl RulesConfig {
    /// Parses and validates a rules YAML text; `file_name` is used in errors.
    ///
    /// ```
    /// use runlens_core::rules::RulesConfig;
    /// let yaml = "semantic_rules:\n  crm_join: join on tenant_id\ndecidable_rules: {}\n";
    /// let rules = RulesConfig::from_yaml_str(yaml, "rules.yaml").unwrap();
    /// assert_eq!(rules.semantic_rules["crm_join"], "join on tenant_id");
    /// ```
    pub fn from_yaml_str(text: &str, file_name: &str) -> Result<RulesConfig, ImportError> {
        let err = |field: &str, expected: &str, found: String| ImportError {
            file: file_name.to_owned(),
            line: None,
            field: (!field.is_empty()).then(|| field.to_owned()),
            expected: expected.to_owned(),
            found,
        };
        let root: Value = serde_norway::from_str(text).map_err(|e| ImportError {
            file: file_name.to_owned(),
            line: e.location().map(|l| l.line()),
            field: None,
            expected: "valid YAML".to_owned(),
            found: e.to_string(),
        })?;
        let root = match root {
            Value::Mapping(m) => m,
            Value::Null => {
                return Err(err(
                    "",
                    "a mapping with semantic_rules and decidable_rules",
                    "an empty document".to_owned(),
                ));
            }
            other => {
                return Err(err(
                    "",
                    "a mapping with semantic_rules and decidable_rules",
                    describe(&other),
                ));
            }
        };
        let group = |key: &str| -> Result<serde_norway::Mapping, ImportError> {
            match root.get(key) {
                None | Some(Value::Null) => Ok(serde_norway::Mapping::new()),
                Some(Value::Mapping(m)) => Ok(m.clone()),
                Some(other) => Err(err(key, "a mapping", describe(other))),
            }
        };
        let mut semantic_rules = IndexMap::new();
        for (k, v) in group("semantic_rules")? {
            let key =
                key_str(&k).ok_or_else(|| err("semantic_rules", "string keys", describe(&k)))?;
            let path = format!("semantic_rules.{key}");
            let Value::String(desc) = v else {
                return Err(err(&path, "a one-line description string", describe(&v)));
            };
            semantic_rules.insert(key, desc);
        }
        let mut decidable_rules = IndexMap::new();
        for (k, v) in group("decidable_rules")? {
            let key =
                key_str(&k).ok_or_else(|| err("decidable_rules", "string keys", describe(&k)))?;
            let path = format!("decidable_rules.{key}");
            if semantic_rules.contains_key(&key) {
                return Err(err(
                    &path,
                    "a key not also in semantic_rules",
                    format!("{key:?} in both groups"),
                ));
            }
            let Value::Mapping(rule) = v else {
                return Err(err(&path, "a mapping with kind and regexes", describe(&v)));
            };
            let text_field = |name: &str, required: bool| -> Result<Option<String>, ImportError> {
                match rule.get(name) {
                    Some(Value::String(s)) => Ok(Some(s.clone())),
                    None | Some(Value::Null) if !required => Ok(None),
                    None => Err(err(
                        &format!("{path}.{name}"),
                        "a string",
                        "no such field".to_owned(),
                    )),
                    Some(other) => Err(err(&format!("{path}.{name}"), "a string", describe(other))),
                }
            };
            let description = text_field("description", false)?;
            let kind_name = text_field("kind", true)?.unwrap_or_default();
            let kind = match kind_name.as_str() {
                "forbidden_when" => RuleKind::ForbiddenWhen {
                    forbidden_regex: text_field("forbidden_regex", true)?.unwrap_or_default(),
                    ok_regex: text_field("ok_regex", false)?,
                },
                "required_when" => {
                    let scope = match text_field("scope", false)?.as_deref() {
                        None | Some("per_statement") => Scope::PerStatement,
                        Some("global") => Scope::Global,
                        Some(other) => {
                            return Err(err(
                                &format!("{path}.scope"),
                                "per_statement or global",
                                format!("{other:?}"),
                            ));
                        }
                    };
                    RuleKind::RequiredWhen {
                        applies_regex: text_field("applies_regex", true)?.unwrap_or_default(),
                        required_regex: text_field("required_regex", true)?.unwrap_or_default(),
                        scope,
                    }
                }
                other => {
                    return Err(err(
                        &format!("{path}.kind"),
                        "forbidden_when or required_when",
                        format!("{other:?}"),
                    ));
                }
            };
            decidable_rules.insert(key, DecidableRule { description, kind });
        }
        Ok(RulesConfig {
            semantic_rules,
            decidable_rules,
        })
    }
}

fn key_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => format!("string {s:?}"),
        Value::Sequence(s) => format!("a list of {} items", s.len()),
        Value::Mapping(_) => "a mapping".to_owned(),
        Value::Tagged(t) => format!("a tagged value {}", t.tag),
    }
}
