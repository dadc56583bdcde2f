//! Content checks of `article`: SQL parses, hostile strings are present, cells are shaped
//! like the harness's (usage, errors, nulls), and generation is deterministic.

mod common;

use common::{article, board, dedup, dev, out};
use serde_json::Value;
use sqlparser::dialect::ClickHouseDialect;
use sqlparser::parser::Parser;

fn all_statements() -> Vec<String> {
    let f = article();
    let mut sqls = Vec::new();
    let mut push_list = |v: &Value| {
        if let Some(a) = v.as_array() {
            sqls.extend(a.iter().filter_map(|s| s.as_str().map(String::from)));
        }
    };
    for rows in [dev(f, "annotated.jsonl"), board(f, "annotated.jsonl")] {
        for r in rows {
            push_list(&r["gt_sql"]);
            for (_, a) in r["annotators"].as_object().into_iter().flatten() {
                push_list(&a["sqls"]);
            }
        }
    }
    for rows in [dev(f, "results.jsonl"), board(f, "results.jsonl")] {
        for r in rows {
            for (_, c) in r["candidates"].as_object().into_iter().flatten() {
                push_list(&c["sqls"]);
            }
        }
    }
    sqls
}

#[test]
fn every_sql_statement_parses_as_clickhouse() {
    let sqls = all_statements();
    assert!(sqls.len() > 10_000, "{}", sqls.len());
    let mut distinct: Vec<&String> = sqls.iter().collect();
    distinct.sort();
    distinct.dedup();
    for s in distinct {
        if let Err(e) = Parser::parse_sql(&ClickHouseDialect {}, s) {
            panic!("does not parse: {e}\n{s}");
        }
    }
}

#[test]
fn hostile_strings_appear_in_every_free_text_field() {
    let f = article();
    let read = |p: &str| std::fs::read_to_string(f.root.join(p)).unwrap_or_default();
    let results = read("text2sqlbench-synthetic-dev/results.jsonl")
        + &read("text2sqlbench-synthetic/results.jsonl");
    let annotated = read("text2sqlbench-synthetic-dev/annotated.jsonl")
        + &read("text2sqlbench-synthetic/annotated.jsonl");
    let fm = read("text2sqlbench-synthetic-dev/fm_labels.jsonl");
    for h in runlens_synth::names::hostile_samples() {
        let json = serde_json::to_string(h).unwrap_or_default();
        let inner = &json[1..json.len() - 1];
        assert!(
            results.contains(inner) || annotated.contains(inner),
            "missing {h}"
        );
    }
    let any = |text: &str| {
        runlens_synth::names::hostile_samples().iter().any(|h| {
            let json = serde_json::to_string(h).unwrap_or_default();
            text.contains(&json[1..json.len() - 1])
        }) || text.contains(&runlens_synth::names::long_line(2400))
    };
    let rows = dedup(dev(f, "results.jsonl"))
        .into_iter()
        .chain(dedup(board(f, "results.jsonl")));
    let (mut q, mut answer, mut vote, mut comment) = (false, false, false, false);
    for r in rows {
        q |= any(r["nl_question"].as_str().unwrap_or(""));
        for (_, c) in r["candidates"].as_object().into_iter().flatten() {
            answer |= any(c["final_answer"].as_str().unwrap_or(""));
            comment |= c["sqls"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|s| s.as_str().is_some_and(|s| s.starts_with("-- ") && any(s)));
            for v in c["result_score"]["votes"].as_array().into_iter().flatten() {
                vote |= any(v["reasoning"].as_str().unwrap_or(""));
            }
        }
    }
    assert!(
        q && answer && vote && comment,
        "question {q} answer {answer} vote {vote} comment {comment}"
    );
    assert!(any(&fm), "fm_labels reasons");
    assert!(
        annotated.contains("\"comment\\\":\\\"<")
            || annotated.contains("\\u202e")
            || any(&annotated),
        "result values"
    );
    // Machine-readable keys stay clean.
    for r in out(f, "schema_retrieval.jsonl") {
        let id = r["trace_id"].as_str().unwrap_or("");
        assert!(
            id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{id}"
        );
    }
}

#[test]
fn cells_include_every_harness_quirk() {
    let f = article();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for r in dedup(dev(f, "results.jsonl"))
        .into_iter()
        .chain(dedup(board(f, "results.jsonl")))
    {
        for (_, c) in r["candidates"].as_object().into_iter().flatten() {
            if c.is_null() {
                *seen.entry("null cell").or_default() += 1;
                continue;
            }
            let err = c["error"].as_str().unwrap_or("");
            if err == "max turns (60)" {
                assert_eq!(c["turns"], 60);
                assert_eq!(c["final_answer"], "");
                assert_eq!(
                    c["result_score"]["reasoning"],
                    "max turns (60) reached with no final answer"
                );
                *seen.entry("max turns").or_default() += 1;
            }
            if err == "max output tokens" {
                *seen.entry("max output tokens").or_default() += 1;
            }
            if c["turns"] == 0 {
                assert_eq!(c["latency"], Value::Null);
                assert_eq!(c["result_score"]["outcome"], "error");
                *seen.entry("infra error").or_default() += 1;
            }
            match &c["usage"] {
                Value::Null => *seen.entry("usage null").or_default() += 1,
                u => {
                    let n = |k: &str| u[k].as_u64().unwrap_or(0);
                    let total = n("prompt_tokens")
                        + n("completion_tokens")
                        + n("cache_read_tokens")
                        + n("cache_write_tokens");
                    assert_eq!(n("total_tokens"), total);
                    match u.get("per_turn").and_then(|p| p.as_array()) {
                        Some(p) => {
                            assert_eq!(p.len() as u64 + n("calls_missing_usage"), n("api_calls"));
                            let prompt: u64 = p.iter().map(|t| t[0].as_u64().unwrap_or(0)).sum();
                            assert_eq!(prompt, n("prompt_tokens"));
                        }
                        None => *seen.entry("no per_turn").or_default() += 1,
                    }
                }
            }
            for v in c["result_score"]["votes"].as_array().into_iter().flatten() {
                if v.get("outcome").is_none() {
                    *seen.entry("verdict-only vote").or_default() += 1;
                }
            }
        }
    }
    let gt_string = dev(f, "annotated.jsonl")
        .iter()
        .chain(&board(f, "annotated.jsonl"))
        .filter(|r| r["gt_sql"].is_string())
        .count();
    assert!(gt_string > 0, "gt_sql as a single string");
    for k in [
        "null cell",
        "max turns",
        "max output tokens",
        "infra error",
        "usage null",
        "no per_turn",
        "verdict-only vote",
    ] {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "no {k}: {seen:?}");
    }
}

#[test]
fn fm_labels_follow_the_07_rules() {
    let labels = dev(article(), "fm_labels.jsonl");
    assert!(labels.iter().any(|l| l["fm"] == "FM?"));
    for l in &labels {
        let keys: Vec<&String> = l
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys.len(), 4);
        assert!(
            ["FM1", "FM2", "FM3", "FM4", "FM5", "FM?"].contains(&l["fm"].as_str().unwrap_or(""))
        );
    }
}

#[test]
fn same_seed_gives_identical_bytes_and_another_seed_differs() {
    let f = article();
    let dir = tempfile::tempdir().expect("temp dir");
    let again = dir.path().join("again");
    let other = dir.path().join("other");
    runlens_synth::generate(runlens_synth::Preset::Article, 1, &again).expect("again");
    runlens_synth::generate(runlens_synth::Preset::Article, 2, &other).expect("other");
    let mut same = 0;
    for (rel, _) in &f.summary.files {
        let a = std::fs::read(f.root.join(rel)).expect("a");
        assert_eq!(
            a,
            std::fs::read(again.join(rel)).expect("b"),
            "{rel} differs for the same seed"
        );
        same += usize::from(std::fs::read(other.join(rel)).ok().as_ref() == Some(&a));
    }
    assert_eq!(
        same, 2,
        "only schema.md and rules.yaml are seed-independent"
    );
}

#[test]
fn files_use_python_json_separators_and_layout() {
    let f = article();
    let first = std::fs::read_to_string(f.root.join("text2sqlbench-synthetic-dev/results.jsonl"))
        .unwrap_or_default();
    assert!(first.starts_with("{\"trace_id\": \""));
    let md = std::fs::read_to_string(f.root.join("SYNTHETIC.md")).unwrap_or_default();
    assert!(md.contains("runlens synth --preset article --seed 1"));
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(f.root.join("text2sqlbench-synthetic/board_manifest.json"))
            .unwrap_or_default(),
    )
    .expect("manifest");
    assert_eq!(manifest["schema_version"], 2);
    assert_eq!(
        manifest["partition"].as_object().map(|p| p.len()),
        Some(201)
    );
    eprintln!("article generated in {:.2} s", f.seconds);
}
