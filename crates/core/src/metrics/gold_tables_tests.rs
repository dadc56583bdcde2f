//! Harness vectors (tests/test_schema_retrieval.py) and the two rules' documented quirks.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeSet;

use super::*;

fn matcher() -> TableMatcher {
    TableMatcher::new(&["marts", "crm"]).unwrap()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn harness_vector_join() {
    let sql = [
        "SELECT u.daily_spend FROM marts.usage_daily u JOIN crm.dim_account a ON a.tenant_id = u.tenant_id",
    ];
    assert_eq!(
        matcher().gold_tables_harness(&sql),
        set(&["marts.usage_daily", "crm.dim_account"])
    );
    assert_eq!(
        matcher().gold_tables_parsed(&sql).tables,
        set(&["marts.usage_daily", "crm.dim_account"])
    );
}

#[test]
fn harness_vector_other_namespaces_ignored() {
    let sql = [
        "SELECT * FROM crm.fct_opportunity",
        "SELECT * FROM other.foo",
    ];
    assert_eq!(
        matcher().gold_tables_harness(&sql),
        set(&["crm.fct_opportunity"])
    );
    assert_eq!(
        matcher().gold_tables(&sql, GoldRule::Parser),
        set(&["crm.fct_opportunity"])
    );
}

#[test]
fn harness_vector_universe() {
    let text = "Table `marts.usage_daily` stores ...\nTable `crm.dim_account` ...\njoin crm.fct_support_case on ...";
    assert_eq!(
        matcher().universe(text),
        vec![
            "crm.dim_account",
            "crm.fct_support_case",
            "marts.usage_daily"
        ]
    );
}

#[test]
fn harness_quirks_are_kept() {
    let m = matcher();
    assert_eq!(
        m.gold_tables_harness(&["SELECT 1 FROM crm.a a, crm.b b"]),
        set(&["crm.a"])
    );
    assert!(
        m.gold_tables_harness(&["SELECT 1 FROM `crm`.`dim_account`"])
            .is_empty()
    );
    assert!(
        m.gold_tables_harness(&["SELECT 1 FROM(SELECT 2)"])
            .is_empty()
    );
    assert!(m.gold_tables_harness(&["DESCRIBE crm.x"]).is_empty());
    assert_eq!(
        m.gold_tables_harness(&["select x FROM\n  CRM.Dim_Account"]),
        set(&["crm.dim_account"])
    );
    assert_eq!(
        m.gold_tables_harness(&["SELECT 1 FROM crm.dim_account.tenant_id"]),
        set(&["crm.dim_account"])
    );
    // No leading word boundary: "datefrom crm.x" matches.
    assert_eq!(
        m.gold_tables_harness(&["SELECT datefrom crm.x"]),
        set(&["crm.x"])
    );
    // Statements are joined with single spaces.
    assert_eq!(
        m.gold_tables_harness(&["SELECT 1 FROM", "crm.a"]),
        set(&["crm.a"])
    );
    // CTE bodies and subqueries count.
    let cte = ["WITH t AS (SELECT * FROM crm.a) SELECT * FROM t LEFT JOIN crm.b ON 1"];
    assert_eq!(m.gold_tables_harness(&cte), set(&["crm.a", "crm.b"]));
}

#[test]
fn parser_rule_handles_commas_quotes_ctes_and_subqueries() {
    let m = matcher();
    let p = m.gold_tables_parsed(&["SELECT 1 FROM crm.a a, crm.b b"]);
    assert_eq!(p.tables, set(&["crm.a", "crm.b"]));
    assert!(p.unparsed.is_empty());
    assert_eq!(
        m.gold_tables_parsed(&["SELECT 1 FROM `crm`.`Dim_Account`"])
            .tables,
        set(&["crm.dim_account"])
    );
    let cte = "WITH crm_x AS (SELECT * FROM crm.a) SELECT * FROM crm_x WHERE id IN (SELECT id FROM marts.u)";
    assert_eq!(
        m.gold_tables_parsed(&[cte]).tables,
        set(&["crm.a", "marts.u"])
    );
}

#[test]
fn parser_rule_falls_back_per_statement() {
    let m = matcher();
    let p = m.gold_tables_parsed(&["SELECT * FROM crm.a", "SELEC oops FROM crm.b WHERE ((("]);
    assert_eq!(p.tables, set(&["crm.a", "crm.b"]));
    assert_eq!(p.unparsed, vec![1]);
}

#[test]
fn differences_list_only_disagreeing_questions() {
    let q1: Vec<String> = vec!["SELECT 1 FROM crm.a a, crm.b b".into()];
    let q2: Vec<String> = vec!["SELECT 1 FROM crm.a".into()];
    let d = gold_rule_differences(&matcher(), [("q1", q1.as_slice()), ("q2", q2.as_slice())]);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].trace_id, "q1");
    assert_eq!(d[0].only_parser, vec!["crm.b".to_string()]);
    assert!(d[0].only_harness.is_empty());
}

#[test]
fn bad_namespace_is_an_error_and_empty_list_matches_nothing() {
    assert_eq!(
        TableMatcher::new(&["a.b"]).unwrap_err(),
        MetricsError::InvalidNamespace("a.b".into())
    );
    let none: [&str; 0] = [];
    let m = TableMatcher::new(&none).unwrap();
    assert!(m.gold_tables_harness(&["SELECT * FROM crm.a"]).is_empty());
    assert!(m.universe("crm.a marts.b").is_empty());
}

#[test]
fn statement_parses_record_each_distinct_statement_once() {
    let m = matcher();
    let sql = [
        "SELECT 1 FROM crm.a a, `crm`.`B`",
        "SELEC oops FROM crm.b WHERE (((",
        "SELECT 1 FROM crm.a a, `crm`.`B`",
    ];
    let p = m.statement_parses(sql);
    assert_eq!(p.namespaces, ["marts", "crm"]);
    assert_eq!(p.statements.len(), 2);
    assert_eq!(
        p.statements[sql[0]],
        Some(vec!["crm.a".to_string(), "crm.b".to_string()])
    );
    assert_eq!(p.statements[sql[1]], None);
}

#[test]
fn a_matcher_with_parses_answers_from_them_and_falls_back_to_parsing() {
    use std::sync::Arc;
    // An entry that parsing would never give proves the answer came from the parses.
    let mut p = matcher().statement_parses(["SELECT 1 FROM crm.a"]);
    p.statements.insert(
        "SELECT 1 FROM crm.a".into(),
        Some(vec!["crm.from_parses".into()]),
    );
    p.statements.insert("SELECT 2 FROM crm.b".into(), None);
    let m = matcher().with_parses(Arc::new(p.clone()));
    assert!(m.has_parses());
    let got = m.gold_tables_parsed(&[
        "SELECT 1 FROM crm.a",
        "SELECT 2 FROM crm.b",
        "SELECT 3 FROM crm.c",
    ]);
    // Statement 1 as recorded; statement 2 recorded as unparsed: the harness rule's crm.b;
    // statement 3 unknown: parsed here.
    assert_eq!(got.tables, set(&["crm.from_parses", "crm.b", "crm.c"]));
    assert_eq!(got.unparsed, vec![1]);
    // Parses found for other namespaces are not used.
    let other = TableMatcher::new(&["crm"])
        .unwrap()
        .with_parses(Arc::new(p));
    assert!(!other.has_parses());
    assert_eq!(
        other.gold_tables_parsed(&["SELECT 1 FROM crm.a"]).tables,
        set(&["crm.a"])
    );
}
