//! tests/test_rule_checks.py vectors on the shipped example rules.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::rules::DecidableRule;

const EXAMPLE: &str = include_str!("../../tests/data/vectors/rules.example.yaml");

fn rules() -> CompiledRules {
    let config: RulesConfig = RulesConfig::from_yaml_str(EXAMPLE, "rules.example.yaml").unwrap();
    CompiledRules::new(&config).unwrap()
}

fn one(rule: &str, sqls: &[&str]) -> Verdict {
    rules().verdicts(sqls)[rule]
}

#[test]
fn reference_date_vectors() {
    assert_eq!(
        one(
            "reference_date",
            &["SELECT 1 FROM t WHERE day >= now() - INTERVAL 7 DAY"]
        ),
        Verdict::Violation
    );
    assert_eq!(
        one(
            "reference_date",
            &["SELECT 1 FROM t WHERE day >= toDate('2026-06-30')"]
        ),
        Verdict::Ok
    );
    assert_eq!(
        one("reference_date", &["SELECT count() FROM crm.dim_account"]),
        Verdict::NotApplicable
    );
    // A forbidden hit wins over an ok hit.
    assert_eq!(
        one("reference_date", &["SELECT toDate(now())"]),
        Verdict::Violation
    );
}

#[test]
fn default_to_usage_mart_vectors() {
    let rule = "default_to_usage_mart";
    assert_eq!(
        one(rule, &["SELECT sum(daily_spend) FROM marts.usage_daily"]),
        Verdict::Violation
    );
    assert_eq!(
        one(
            rule,
            &["SELECT sum(daily_spend) FROM marts.usage_daily WHERE day = toDate('2026-06-30')"]
        ),
        Verdict::Ok
    );
    assert_eq!(
        one(rule, &["SELECT account_name FROM crm.dim_account"]),
        Verdict::NotApplicable
    );
    let per_statement = [
        "SELECT max(day) FROM marts.usage_daily WHERE tenant_id = 't1'",
        "SELECT sum(daily_spend) FROM marts.usage_daily",
    ];
    assert_eq!(one(rule, &per_statement), Verdict::Violation);
}

#[test]
fn global_scope_is_satisfied_by_any_statement() {
    let mut config: RulesConfig =
        RulesConfig::from_yaml_str(EXAMPLE, "rules.example.yaml").unwrap();
    let rule = config
        .decidable_rules
        .get_mut("default_to_usage_mart")
        .unwrap();
    if let RuleKind::RequiredWhen { scope, .. } = &mut rule.kind {
        *scope = Scope::Global;
    }
    let compiled = CompiledRules::new(&config).unwrap();
    let sqls = [
        "SELECT max(day) FROM marts.usage_daily WHERE tenant_id = 't1'",
        "SELECT sum(daily_spend) FROM marts.usage_daily",
    ];
    assert_eq!(
        compiled.verdicts(&sqls)["default_to_usage_mart"],
        Verdict::Ok
    );
}

#[test]
fn output_column_naming_vectors() {
    assert_eq!(
        one(
            "output_column_naming",
            &["SELECT tenant_name AS t FROM crm.dim_account"]
        ),
        Verdict::Violation
    );
    assert_eq!(
        one(
            "output_column_naming",
            &["SELECT tenant_name FROM crm.dim_account"]
        ),
        Verdict::NotApplicable
    );
}

#[test]
fn generic_facts_and_keys() {
    let checks = rules().checks(&["SELECT 1", "select   1", "SELECT 2"]);
    assert_eq!((checks.n_queries, checks.has_repeated_query), (3, true));
    assert!(!has_repeated_query(&["SELECT 1", "SELECT 2", " ", ""]));
    assert_eq!(n_queries(&["SELECT 1", "  "]), 1);
    let keys: Vec<&str> = checks.decidable.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        vec![
            "reference_date",
            "default_to_usage_mart",
            "output_column_naming"
        ]
    );
    assert_eq!(
        serde_json::to_string(&Verdict::NotApplicable).unwrap(),
        "\"n/a\""
    );
}

#[test]
fn config_errors_name_rule_and_field() {
    let mut config: RulesConfig =
        RulesConfig::from_yaml_str(EXAMPLE, "rules.example.yaml").unwrap();
    config
        .semantic_rules
        .insert("reference_date".into(), "dup".into());
    assert_eq!(
        CompiledRules::new(&config).unwrap_err(),
        MetricsError::DuplicateRuleKey("reference_date".into())
    );
    let mut config = RulesConfig::default();
    config.decidable_rules.insert(
        "bad".into(),
        DecidableRule {
            description: None,
            kind: RuleKind::ForbiddenWhen {
                forbidden_regex: "(".into(),
                ok_regex: None,
            },
        },
    );
    match CompiledRules::new(&config).unwrap_err() {
        MetricsError::InvalidRuleRegex { rule, field, .. } => {
            assert_eq!((rule.as_str(), field), ("bad", "forbidden_regex"))
        }
        other => panic!("unexpected {other:?}"),
    }
}
