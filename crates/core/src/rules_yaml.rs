//! Parsing the harness's rules YAML (`config/rules.example.yaml`) into [`RulesConfig`], with
//! the loader validation of harness-formats.md §7.7: both groups must be mappings, no key may
//! appear in both groups, `kind` must be `forbidden_when` or `required_when`, and `scope`
//! must be `per_statement` or `global`. A missing group is an empty group.
//!
//! The YAML is read as the harness's PyYAML reads it ([`crate::yaml`]): a plain `yes` is a
//! boolean, not the string "yes". Every error names the line of the value it is about.

use indexmap::IndexMap;

use crate::import::ImportError;
use crate::rules::{DecidableRule, RuleKind, RulesConfig, Scope};
use crate::yaml::{Node, Value, load};

impl RulesConfig {
    /// Parses and validates a rules YAML text; `file_name` is used in errors.
    ///
    /// ```
    /// use runlens_core::rules::RulesConfig;
    /// let yaml = "semantic_rules:\n  crm_join: join on tenant_id\ndecidable_rules: {}\n";
    /// let rules = RulesConfig::from_yaml_str(yaml, "rules.yaml").unwrap();
    /// assert_eq!(rules.semantic_rules["crm_join"], "join on tenant_id");
    /// let err = RulesConfig::from_yaml_str("semantic_rules:\n  strict: yes\n", "rules.yaml");
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "rules.yaml:2: field semantic_rules.strict: expected a one-line description string, found true"
    /// );
    /// ```
    pub fn from_yaml_str(text: &str, file_name: &str) -> Result<RulesConfig, ImportError> {
        let err = |line: Option<usize>, field: &str, expected: &str, found: String| ImportError {
            file: file_name.to_owned(),
            line,
            field: (!field.is_empty()).then(|| field.to_owned()),
            expected: expected.to_owned(),
            found,
        };
        let root = load(text).map_err(|e| err(Some(e.line), "", "valid YAML", e.message))?;
        let whole = "a mapping with semantic_rules and decidable_rules";
        let root = match root {
            Some(
                node @ Node {
                    value: Value::Map(_),
                    ..
                },
            ) => node,
            None
            | Some(Node {
                value: Value::Null, ..
            }) => return Err(err(None, "", whole, "an empty document".to_owned())),
            Some(other) => return Err(err(Some(other.line), "", whole, other.value.describe())),
        };
        let group = |key: &str| -> Result<Vec<(Node, Node)>, ImportError> {
            match root.value.get(key) {
                None
                | Some(Node {
                    value: Value::Null, ..
                }) => Ok(Vec::new()),
                Some(Node {
                    value: Value::Map(m),
                    ..
                }) => Ok(m.clone()),
                Some(other) => Err(err(
                    Some(other.line),
                    key,
                    "a mapping",
                    other.value.describe(),
                )),
            }
        };
        let mut semantic_rules = IndexMap::new();
        for (k, v) in group("semantic_rules")? {
            let Value::Str(key) = k.value else {
                return Err(err(
                    Some(k.line),
                    "semantic_rules",
                    "string keys",
                    k.value.describe(),
                ));
            };
            let path = format!("semantic_rules.{key}");
            let Value::Str(desc) = v.value else {
                return Err(err(
                    Some(v.line),
                    &path,
                    "a one-line description string",
                    v.value.describe(),
                ));
            };
            semantic_rules.insert(key, desc);
        }
        let mut decidable_rules = IndexMap::new();
        for (k, v) in group("decidable_rules")? {
            let Value::Str(key) = k.value else {
                return Err(err(
                    Some(k.line),
                    "decidable_rules",
                    "string keys",
                    k.value.describe(),
                ));
            };
            let path = format!("decidable_rules.{key}");
            if semantic_rules.contains_key(&key) {
                return Err(err(
                    Some(k.line),
                    &path,
                    "a key not also in semantic_rules",
                    format!("{key:?} in both groups"),
                ));
            }
            if !matches!(v.value, Value::Map(_)) {
                return Err(err(
                    Some(v.line),
                    &path,
                    "a mapping with kind and regexes",
                    v.value.describe(),
                ));
            }
            let text_field = |name: &str, required: bool| -> Result<Option<String>, ImportError> {
                let field = format!("{path}.{name}");
                match v.value.get(name) {
                    Some(Node {
                        value: Value::Str(s),
                        ..
                    }) => Ok(Some(s.clone())),
                    None
                    | Some(Node {
                        value: Value::Null, ..
                    }) if !required => Ok(None),
                    None => Err(err(
                        Some(v.line),
                        &field,
                        "a string",
                        "no such field".to_owned(),
                    )),
                    Some(other) => Err(err(
                        Some(other.line),
                        &field,
                        "a string",
                        other.value.describe(),
                    )),
                }
            };
            let line_of = |name: &str| v.value.get(name).map_or(v.line, |n| n.line);
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
                                Some(line_of("scope")),
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
                        Some(line_of("kind")),
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
