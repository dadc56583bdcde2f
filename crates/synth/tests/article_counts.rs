//! Exact counts of the `article` preset against the published figures.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{LABELLED, article, board, dedup, dev, out};

#[test]
fn corpora_have_136_and_201_usable_questions_plus_excluded_rows() {
    let f = article();
    let dev_ann = dev(f, "annotated.jsonl");
    let board_ann = board(f, "annotated.jsonl");
    let usable =
        |rows: &[serde_json::Value]| rows.iter().filter(|r| r["excluded"] == false).count();
    assert_eq!((usable(&dev_ann), dev_ann.len()), (136, 136 + 3));
    assert_eq!((usable(&board_ann), board_ann.len()), (201, 201 + 4));
    for r in dev_ann
        .iter()
        .chain(&board_ann)
        .filter(|r| r["excluded"] == true)
    {
        assert_eq!(r["agreers"], serde_json::json!([]));
        assert_eq!(r["gt_from"], serde_json::Value::Null);
        assert_eq!(r["gt_answer"], "");
    }
    let dev_raw = dev(f, "results.jsonl");
    let dev_rows = dedup(dev_raw.clone());
    assert_eq!(
        (dev_rows.len(), dev_raw.len()),
        (136, 137),
        "one duplicate row that a later row replaces"
    );
    assert_eq!(dedup(board(f, "results.jsonl")).len(), 201);
}

#[test]
fn twenty_models_with_board_keys() {
    let f = article();
    let mut keys = BTreeSet::new();
    for r in dedup(board(f, "results.jsonl")) {
        keys.extend(
            r["candidates"]
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default(),
        );
    }
    assert_eq!(keys.len(), 20);
    for k in LABELLED {
        assert!(keys.contains(k), "{k}");
    }
}

#[test]
fn labelled_failures_are_exactly_the_fail_cells_277_of_544() {
    let f = article();
    let mut attempts = 0;
    let mut fails = BTreeSet::new();
    for r in dedup(dev(f, "results.jsonl")) {
        for m in LABELLED {
            let cell = &r["candidates"][m];
            if cell.is_object() {
                attempts += 1;
                if cell["result_score"]["outcome"] == "fail" {
                    fails.insert((
                        r["trace_id"].as_str().unwrap_or("").to_string(),
                        m.to_string(),
                    ));
                }
            }
        }
    }
    assert_eq!(attempts, 136 * 4);
    assert_eq!(fails.len(), 277);
    let labels = out(f, "failure_labels.jsonl");
    let labelled: BTreeSet<(String, String)> = labels
        .iter()
        .map(|l| {
            (
                l["trace_id"].as_str().unwrap_or("").to_string(),
                l["model"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(labels.len(), 277);
    assert_eq!(labelled, fails);
}

#[test]
fn sub_mode_mix_matches_the_published_counts() {
    let f = article();
    let labels = out(f, "failure_labels.jsonl");
    let mut by: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_model: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for l in &labels {
        let s = l["sub_mode"].as_str().unwrap_or("");
        *by.entry(s).or_default() += 1;
        *by_model
            .entry((s, l["model"].as_str().unwrap_or("")))
            .or_default() += 1;
    }
    // Data selection 87 = 29 + 20 + 28 + 10 (published-figures.md).
    assert_eq!(
        [
            by["wrong_identifier"],
            by["unresolved_lookup"],
            by["wrong_table"],
            by["wrong_column"]
        ],
        [29, 20, 28, 10]
    );
    assert_eq!(by["correct_but_judged_fail"], 7);
    assert_eq!(by_model[&("correct_but_judged_fail", "sonnet46")], 6);
    assert_eq!(by["ambiguous_question"], 1);
    let largest = by.iter().max_by_key(|(_, n)| **n).map(|(k, _)| *k);
    assert_eq!(largest, Some("stopped_early"));
    assert!(by_model[&("stopped_early", "gemini-2.5-flash")] * 10 >= by["stopped_early"] * 8);
    assert_eq!(
        by_model[&("clickhouse_error", "gpt-4.1")] * 2,
        by["clickhouse_error"]
    );
    let fm2 = by["misread_question"] + by["wrong_filter"] + by["wrong_time_window"];
    let fm3 = 29 + 20 + 28 + 10;
    let fm4 = by["wrong_join"] + by["wrong_grain"] + by["wrong_aggregation"];
    assert!(fm2 > fm3 && fm2 > fm4 && fm2 > by["clickhouse_error"] && fm2 > by["stopped_early"]);
}

#[test]
fn judge_audit_thresholds_37_and_18() {
    let labels = out(article(), "failure_labels.jsonl");
    let cdf: Vec<f64> = labels
        .iter()
        .map(|l| l["correct_despite_fail"].as_f64().unwrap_or(-1.0))
        .collect();
    assert_eq!(cdf.iter().filter(|&&x| x >= 0.5).count(), 37);
    assert_eq!(cdf.iter().filter(|&&x| x >= 0.65).count(), 18);
}

#[test]
fn failure_label_rows_carry_every_field_of_7_6() {
    let keys = [
        "trace_id",
        "model",
        "outcome",
        "sub_mode",
        "sub_mode_confidence",
        "family",
        "family_confidence",
        "prevented_by_rule",
        "prevented_by_rule_confidence",
        "schema_hint_would_help",
        "correct_despite_fail",
        "checks",
        "decidable_verdicts",
    ];
    for l in out(article(), "failure_labels.jsonl") {
        let obj = l.as_object().expect("object");
        assert_eq!(obj.len(), keys.len());
        for k in keys {
            assert!(obj.contains_key(k), "missing {k}");
        }
        assert_eq!(l["checks"]["decidable"], l["decidable_verdicts"]);
    }
}
