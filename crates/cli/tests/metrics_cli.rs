//! `runlens metrics` end to end on a small hand-built bundle; expected values as arithmetic.

mod common;

use std::path::{Path, PathBuf};

use runlens_core::bundle::{Bundle, BundleBody, Provenance};
use serde_json::{Value, json};

fn fixture_body() -> BundleBody {
    let u = [
        "crm.dim_account",
        "crm.fct_opportunity",
        "crm.fct_support_case",
        "marts.usage_daily",
    ];
    serde_json::from_value(json!({
        "namespaces": ["marts", "crm"],
        "universe": u,
        "models": [{"key": "a", "display_name": "Model A"}, {"key": "b", "display_name": "Model B"}],
        "corpora": [{
            "name": "saas",
            "models": ["a", "b"],
            "questions": [
                {"trace_id": "q1", "nl_question": "?", "gt_sql": ["SELECT * FROM marts.usage_daily u JOIN crm.dim_account a ON a.tenant_id = u.tenant_id"]},
                {"trace_id": "q2", "nl_question": "?", "gt_sql": ["SELECT 1 FROM crm.fct_support_case s, crm.dim_account a"]}
            ],
            "rankings": [
                {"trace_id": "q1", "gold": ["crm.dim_account", "marts.usage_daily"],
                 "ranked": ["marts.usage_daily", "crm.dim_account", "crm.fct_support_case", "crm.fct_opportunity"],
                 "scores": {"marts.usage_daily": 0.9, "crm.dim_account": 0.6, "crm.fct_support_case": 0.2, "crm.fct_opportunity": 0.1},
                 "latency_s": 1.0},
                {"trace_id": "q2", "gold": ["crm.fct_support_case"],
                 "ranked": ["crm.dim_account", "crm.fct_opportunity", "crm.fct_support_case", "marts.usage_daily"],
                 "scores": {"crm.dim_account": 0.4, "crm.fct_opportunity": 0.3, "crm.fct_support_case": 0.2, "marts.usage_daily": 0.1},
                 "latency_s": 3.0}
            ],
            "results": [
                {"trace_id": "q1", "candidates": {
                    "a": {"sqls": ["SELECT 1"], "turns": 2, "result_score": {"outcome": "pass"}},
                    "b": {"sqls": ["SELECT 1", "SELECT 2"], "turns": 2, "result_score": {"outcome": "tie"}}}},
                {"trace_id": "q2", "candidates": {
                    "a": {"sqls": ["SELECT 1"], "turns": 10, "error": "max turns (10)", "final_answer": "", "result_score": {"outcome": "fail"}},
                    "b": {"turns": 0, "error": "boom", "result_score": {"outcome": "error"}}}}
            ],
            "failure_labels": [
                {"trace_id": "q2", "model": "a", "sub_mode": "wrong_join", "correct_despite_fail": 0.7, "schema_hint_would_help": 0.9, "prevented_by_rule": "crm_join"},
                {"trace_id": "q1", "model": "b", "sub_mode": "wrong_table", "correct_despite_fail": 0.5, "schema_hint_would_help": 0.2, "prevented_by_rule": "none"},
                {"trace_id": "q3", "model": "a", "sub_mode": "ran_out_of_budget", "correct_despite_fail": 0.1}
            ],
            "gate_rows": [
                {"trace_id": "q1", "model": "a", "fired": 1, "baseline_outcome": "fail", "gated_outcome": "pass"},
                {"trace_id": "q2", "model": "a", "fired": 0, "baseline_outcome": "error", "gated_outcome": "error", "cell_error": "rank: X: y"},
                {"trace_id": "q1", "model": "b", "fired": 1, "baseline_outcome": "pass", "gated_outcome": "fail"}
            ]
        }]
    }))
    .unwrap()
}

fn write_bundle(dir: &Path) -> PathBuf {
    let path = dir.join("bundle.json");
    std::fs::write(
        &path,
        Bundle::new(Provenance::default(), fixture_body()).to_json_vec(),
    )
    .unwrap();
    path
}

fn run(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["metrics"];
    all.extend_from_slice(args);
    common::runlens(&all)
}

fn json_report(extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = write_bundle(dir.path());
    let mut args = vec![path.to_str().unwrap(), "--json", "--resamples", "200"];
    args.extend_from_slice(extra);
    let (ok, stdout, stderr) = run(&args);
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Every object of the JSON report has unique keys (the retrieval section once wrote
/// `n_questions` twice: its own and its flattened curves').
#[test]
fn the_json_report_has_no_duplicate_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_bundle(dir.path());
    let (ok, stdout, stderr) = run(&[path.to_str().unwrap(), "--json", "--resamples", "200"]);
    assert!(ok, "{stderr}");
    struct Unique;
    impl<'de> serde::de::Visitor<'de> for Unique {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key.clone()) {
                    return Err(serde::de::Error::custom(format!("duplicate key {key}")));
                }
                map.next_value::<UniqueValue>()?;
            }
            Ok(())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element::<UniqueValue>()?.is_some() {}
            Ok(())
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
    }
    struct UniqueValue;
    impl<'de> serde::Deserialize<'de> for UniqueValue {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(Unique).map(|()| UniqueValue)
        }
    }
    let checked: Result<UniqueValue, _> = serde_json::from_str(&stdout);
    assert!(checked.is_ok(), "{:?}", checked.err());
}

#[test]
fn retrieval_section_harness_rule() {
    let r = json_report(&["--k-max", "4"]);
    let rt = &r["retrieval"];
    assert_eq!(rt["n_questions"], 2);
    assert_eq!(rt["k"], json!([1, 2, 3, 4]));
    // q1 gold at positions 0,1 of 2; q2 gold at position 2 of 1.
    assert_eq!(
        rt["recall"],
        json!([(0.5 + 0.0) / 2.0, (1.0 + 0.0) / 2.0, (1.0 + 1.0) / 2.0, 1.0])
    );
    assert_eq!(rt["all_required"], json!([0.0, 0.5, 1.0, 1.0]));
    let q2_ndcg3 = 1.0 / 4f64.log2();
    assert!((f(&rt["ndcg"][2]) - (1.0 + q2_ndcg3) / 2.0).abs() < 1e-15);
    // The runlens extensions, lists aligned with k like the harness's three: q2's one gold
    // table enters at k = 3 (rank 3).
    assert_eq!(
        rt["mrr"],
        json!([
            (1.0 + 0.0) / 2.0,
            (1.0 + 0.0) / 2.0,
            (1.0 + 1.0 / 3.0) / 2.0,
            (1.0 + 1.0 / 3.0) / 2.0
        ])
    );
    assert_eq!(
        rt["precision"],
        json!([
            (1.0 / 1.0 + 0.0) / 2.0,
            (2.0 / 2.0 + 0.0) / 2.0,
            (2.0 / 3.0 + 1.0 / 3.0) / 2.0,
            (2.0 / 4.0 + 1.0 / 4.0) / 2.0
        ])
    );
    assert_eq!(rt["success"], json!([0.5, 0.5, 1.0, 1.0]));
    assert!(rt.get("hit").is_none());
    // High-confidence set at 0.5: q1 {usage_daily, dim_account} covers; q2 falls back to {dim_account}.
    assert_eq!(rt["high_confidence"]["mean_size"], json!((2.0 + 1.0) / 2.0));
    assert_eq!(rt["high_confidence"]["full_coverage"], json!(0.5));
    assert_eq!(rt["latency"]["median_report"], json!(3.0)); // sorted [1, 3][2 / 2]
    assert_eq!(rt["gold_rule_differences"][0]["trace_id"], "q2");
    assert_eq!(
        rt["gold_rule_differences"][0]["only_parser"],
        json!(["crm.dim_account"])
    );
}

#[test]
fn the_readable_table_has_a_column_per_ranking_metric() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_bundle(dir.path());
    let (ok, stdout, stderr) = run(&[path.to_str().unwrap(), "--k-max", "3", "--resamples", "200"]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("## Table ranking"))
        .unwrap();
    assert_eq!(
        &lines[at + 1..at + 5],
        [
            "   k     nDCG   recall  all-req      P@k  success      MRR",
            // k = 1: nDCG (1 + 0) / 2; precision (1 + 0) / 2.
            "   1    0.500    0.250    0.000    0.500    0.500    0.500",
            "   2    0.500    0.500    0.500    0.500    0.500    0.500",
            // k = 3: q2's gold at rank 3: nDCG (1 + 1/log2 4) / 2 = 0.75; MRR (1 + 1/3) / 2.
            "   3    0.750    1.000    1.000    0.500    1.000    0.667",
        ]
    );
}

#[test]
fn retrieval_section_parser_rule() {
    let r = json_report(&["--gold-rule", "parser", "--k-max", "1"]);
    // q2 gold becomes {fct_support_case, dim_account}; dim_account is ranked first.
    assert_eq!(r["retrieval"]["gold_rule"], "parser");
    assert_eq!(r["retrieval"]["recall"], json!([(0.5 + 0.5) / 2.0]));
}

#[test]
fn failures_leaderboard_and_gate_sections() {
    let r = json_report(&[]);
    let fl = &r["failures"];
    assert_eq!(fl["n"], 3);
    assert_eq!(fl["fm_bucket"]["FM4 wrong impl"], 1);
    assert_eq!(fl["fm_bucket"]["FM3 wrong data"], 1);
    assert_eq!(fl["fm_bucket"]["budget"], 1);
    assert_eq!(
        fl["correct_despite_fail_at_least"],
        json!({"0.5": 2, "0.65": 1})
    );
    assert_eq!(fl["rule_blame"]["ranked"], json!([["crm_join", 1]]));

    let lb = r["leaderboard"].as_array().unwrap();
    assert_eq!(lb[0]["model"], "a");
    assert_eq!(lb[0]["name"], "Model A");
    assert_eq!(
        (f(&lb[0]["pass"]), lb[0]["n"].clone(), lb[0]["tl"].clone()),
        ((1.0 + 0.0) / 2.0, json!(2), json!(1))
    );
    assert_eq!(
        (
            f(&lb[1]["pass"]),
            lb[1]["n"].clone(),
            lb[1]["cells"].clone()
        ),
        (0.5, json!(1), json!(2))
    );
    assert!((f(&lb[0]["se"]) - (0.5f64).sqrt() / 2f64.sqrt()).abs() < 1e-15);
    assert_eq!(r["board"]["max_turns"], 10);
    assert_eq!(r["board"]["pass_at_budget"]["n_common"], 1); // only q1 is scored for both

    let gate = r["gate"].as_array().unwrap();
    assert_eq!(gate[0]["model"], "a");
    assert_eq!(
        (
            gate[0]["cells"].clone(),
            gate[0]["fired"].clone(),
            gate[0]["recovered"].clone()
        ),
        (json!(2), json!(1), json!(1))
    );
    assert_eq!(
        (gate[1]["model"].clone(), gate[1]["regressed"].clone()),
        (json!("b"), json!(1))
    );
    assert_eq!(gate[2]["model"], "(all)");
    assert_eq!(gate[2]["cells"], 3);
}

#[test]
fn tables_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_bundle(dir.path());
    let (ok, stdout, _) = run(&[path.to_str().unwrap(), "--resamples", "10"]);
    assert!(ok);
    assert!(stdout.contains("## Table ranking (2 questions, universe 4"));
    assert!(stdout.contains("Model A"));
    let (ok, _, stderr) = run(&[path.to_str().unwrap(), "--corpus", "nope"]);
    assert!(!ok);
    assert!(
        stderr.contains("no corpus named `nope` (corpora: saas)"),
        "{stderr}"
    );
    let (ok, _, stderr) = run(&[dir.path().join("missing.json").to_str().unwrap()]);
    assert!(!ok && stderr.contains("reading bundle"), "{stderr}");
    let (ok, _, _) = run(&[path.to_str().unwrap(), "--k-max", "0"]);
    assert!(!ok);
}

/// The fixture with model b's `error` cell on q2 turned into a legacy `loss`.
fn write_loss_bundle(dir: &Path) -> PathBuf {
    let mut body = serde_json::to_value(fixture_body()).unwrap();
    body["corpora"][0]["results"][1]["candidates"]["b"] =
        json!({"turns": 3, "sqls": ["SELECT 3"], "result_score": {"outcome": "loss"}});
    let path = dir.join("loss.json");
    let body: BundleBody = serde_json::from_value(body).unwrap();
    std::fs::write(
        &path,
        Bundle::new(Provenance::default(), body).to_json_vec(),
    )
    .unwrap();
    path
}

#[test]
fn legacy_loss_is_excluded_by_default_and_scored_zero_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_loss_bundle(dir.path());
    let path = path.to_str().unwrap();
    let report = |extra: &[&str]| -> Value {
        let mut args = vec![path, "--json", "--resamples", "10"];
        args.extend_from_slice(extra);
        let (ok, stdout, stderr) = run(&args);
        assert!(ok, "{stderr}");
        serde_json::from_str(&stdout).unwrap()
    };
    // Default (08_results_stats): b = {tie on q1}; the loss on q2 is excluded.
    let r = report(&[]);
    assert_eq!(r["options"]["loss_rule"], "excluded");
    let b = &r["leaderboard"][1];
    assert_eq!(b["model"], "b");
    assert_eq!((f(&b["pass"]), b["n"].clone()), (0.5, json!(1)));
    assert_eq!(
        (b["excluded"].clone(), b["loss_cells"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(b["vs_top"]["n"], 1); // only q1 is scored for both a and b
    assert_eq!(r["board"]["pass_at_budget"]["n_common"], 1);
    // --loss-as-fail (06_eval's tally): b = {0.5, 0} over two questions.
    let r = report(&["--loss-as-fail"]);
    assert_eq!(r["options"]["loss_rule"], "as_fail");
    let b = &r["leaderboard"][1];
    assert_eq!(
        (f(&b["pass"]), b["n"].clone()),
        ((0.5 + 0.0) / 2.0, json!(2))
    );
    assert_eq!(
        (b["excluded"].clone(), b["loss_cells"].clone()),
        (json!(0), json!(1))
    );
    assert_eq!(b["vs_top"]["n"], 2);
    assert_eq!(r["board"]["pass_at_budget"]["n_common"], 2);
    // The tables say what happened to them.
    let (ok, stdout, _) = run(&[path, "--resamples", "10"]);
    assert!(ok);
    assert!(
        stdout.contains("1 legacy loss cell excluded, as the harness's board does"),
        "{stdout}"
    );
    let (_, stdout, _) = run(&[path, "--resamples", "10", "--loss-as-fail"]);
    assert!(
        stdout.contains("1 legacy loss cell scored as fail"),
        "{stdout}"
    );
}
