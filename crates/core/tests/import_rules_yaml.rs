//! `RulesConfig::from_yaml_str` on the harness's example rules and on every loader
//! validation failure of harness-formats.md §7.7.

mod common;

use runlens_core::rules::{RuleKind, RulesConfig, Scope};

fn example_yaml() -> String {
    std::fs::read_to_string(common::data_dir().join("harness-examples/config/rules.example.yaml"))
        .expect("example rules")
}

#[test]
fn the_harness_example_parses_in_config_order() {
    let rules = RulesConfig::from_yaml_str(&example_yaml(), "rules.example.yaml").unwrap();
    let semantic: Vec<&str> = rules.semantic_rules.keys().map(String::as_str).collect();
    assert_eq!(
        semantic,
        [
            "point_in_time_filter",
            "time_series_window",
            "crm_join",
            "spend_guidance"
        ]
    );
    let decidable: Vec<&str> = rules.decidable_rules.keys().map(String::as_str).collect();
    assert_eq!(
        decidable,
        [
            "reference_date",
            "default_to_usage_mart",
            "output_column_naming"
        ]
    );
    let reference_date = &rules.decidable_rules["reference_date"];
    assert_eq!(
        reference_date.kind,
        RuleKind::ForbiddenWhen {
            forbidden_regex: r"\b(?:now|today|yesterday)\s*\(".into(),
            ok_regex: Some(r"\btoDate(?:Time)?\s*\(".into()),
        }
    );
    assert_eq!(
        rules.decidable_rules["default_to_usage_mart"].kind,
        RuleKind::RequiredWhen {
            applies_regex: r"\busage_daily\b".into(),
            required_regex: r"\b(?:day|tenant_id)\b".into(),
            scope: Scope::PerStatement,
        }
    );
    assert_eq!(
        rules.semantic_rules["crm_join"],
        "join the CRM dimension to the usage mart on tenant_id, rather than reading the mart alone"
    );
}

fn error_of(yaml: &str) -> String {
    RulesConfig::from_yaml_str(yaml, "rules.yaml")
        .unwrap_err()
        .to_string()
}

#[test]
fn a_key_in_both_groups_is_rejected() {
    let yaml = "semantic_rules:\n  crm_join: x\ndecidable_rules:\n  crm_join:\n    kind: forbidden_when\n    forbidden_regex: a\n";
    assert_eq!(
        error_of(yaml),
        "rules.yaml:4: field decidable_rules.crm_join: expected a key not also in semantic_rules, found \"crm_join\" in both groups"
    );
}

#[test]
fn groups_must_be_mappings() {
    assert_eq!(
        error_of("semantic_rules: [a, b]\n"),
        "rules.yaml:1: field semantic_rules: expected a mapping, found a list of 2 items"
    );
    assert_eq!(
        error_of("decidable_rules: 3\n"),
        "rules.yaml:1: field decidable_rules: expected a mapping, found number 3"
    );
}

#[test]
fn kind_and_scope_must_be_known() {
    assert_eq!(
        error_of("decidable_rules:\n  r:\n    kind: maybe_when\n"),
        "rules.yaml:3: field decidable_rules.r.kind: expected forbidden_when or required_when, found \"maybe_when\""
    );
    assert_eq!(
        error_of(
            "decidable_rules:\n  r:\n    kind: required_when\n    applies_regex: a\n    required_regex: b\n    scope: everywhere\n"
        ),
        "rules.yaml:6: field decidable_rules.r.scope: expected per_statement or global, found \"everywhere\""
    );
    assert_eq!(
        error_of("decidable_rules:\n  r:\n    kind: forbidden_when\n"),
        "rules.yaml:3: field decidable_rules.r.forbidden_regex: expected a string, found no such field"
    );
}

#[test]
fn global_scope_and_missing_groups_are_accepted() {
    let yaml = "decidable_rules:\n  r:\n    kind: required_when\n    applies_regex: a\n    required_regex: b\n    scope: global\n";
    let rules = RulesConfig::from_yaml_str(yaml, "rules.yaml").unwrap();
    assert!(rules.semantic_rules.is_empty());
    assert_eq!(rules.decidable_rules["r"].description, None);
    assert!(matches!(
        rules.decidable_rules["r"].kind,
        RuleKind::RequiredWhen {
            scope: Scope::Global,
            ..
        }
    ));
}

#[test]
fn yaml_syntax_errors_name_the_line() {
    let err = RulesConfig::from_yaml_str("semantic_rules:\n  a: b\n  c: [unclosed\n", "rules.yaml")
        .unwrap_err();
    assert_eq!(
        (err.file.as_str(), err.expected.as_str()),
        ("rules.yaml", "valid YAML")
    );
    assert!(err.line.is_some_and(|l| l >= 3), "{err}");
    assert_eq!(
        error_of(""),
        "rules.yaml: expected a mapping with semantic_rules and decidable_rules, found an empty document"
    );
}
