//! The moved reader against the general one (merge the columns into the record as JSON,
//! deserialise the whole): the same rows, and the same errors, on rows chosen to hit every
//! way a value can sit (in its column, left in the record for not fitting, absent).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{FromColumns, typed_row};
use crate::bundle::v2::schema::{FAILURE_LABELS, FM_LABELS, GATE_ROWS, QUESTIONS, RANKINGS, Table};
use crate::bundle::v2::split::{empty_columns, merge_row, split_row};
use crate::bundle::{FailureLabel, FmLabel, GateRow, Question, RankingRow};

/// Each row split as the writer splits it, then read back both ways: `Ok` rows or the
/// errors' column names, per reader.
fn both<T: FromColumns + std::fmt::Debug + PartialEq>(
    table: &Table,
    rows: &[Value],
    edit_record: impl Fn(usize, &mut Map<String, Value>),
) -> Vec<(Result<T, String>, Result<T, String>)> {
    let mut columns = empty_columns(table);
    let mut records = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut row = row.as_object().expect("an object").clone();
        split_row(table, &mut columns, &mut row);
        edit_record(i, &mut row);
        records.push(row);
    }
    let general = |i: usize| -> Result<T, String> {
        let mut record = records[i].clone();
        merge_row(table, &columns, i, &mut record)
            .map_err(|e| format!("column {} has a value but no place in the record", e.column))?;
        serde_json::from_value(Value::Object(record)).map_err(|e| e.to_string())
    };
    let general: Vec<Result<T, String>> = (0..rows.len()).map(general).collect();
    let moved = (0..rows.len()).map(|i| {
        let bytes = if records[i].is_empty() {
            Vec::new()
        } else {
            serde_json::to_vec(&records[i]).expect("json")
        };
        typed_row::<T>(&mut columns, i, &bytes)
    });
    general.into_iter().zip(moved).collect()
}

fn same<T: FromColumns + DeserializeOwned + std::fmt::Debug + PartialEq>(
    table: &Table,
    rows: &[Value],
) {
    for (i, (general, moved)) in both::<T>(table, rows, |_, _| {}).into_iter().enumerate() {
        match (&general, &moved) {
            (Ok(g), Ok(m)) => assert_eq!(g, m, "row {i}"),
            (Err(g), Err(m)) => assert_eq!(field_in(g), field_in(m), "row {i}: {g} / {m}"),
            _ => panic!("row {i}: general {general:?}, moved {moved:?}"),
        }
    }
}

/// The backquoted field or column an error names (serde's wording differs by input).
fn field_in(message: &str) -> String {
    message
        .split('`')
        .nth(1)
        .map(str::to_owned)
        .or_else(|| message.split_whitespace().nth(1).map(str::to_owned))
        .unwrap_or_default()
}

#[test]
fn gate_rows_read_the_same_both_ways() {
    same::<GateRow>(
        &GATE_ROWS,
        &[
            json!({"trace_id": "q\"1\u{e9}", "model": "m", "fired": 1, "topk": ["a.t", "b.t"],
                "gold": ["a.t"], "missed_gold": [], "baseline_outcome": "fail",
                "gated_outcome": "pass", "recorded_baseline": "loss", "baseline_turns": 3,
                "gated_turns": 2, "baseline_latency": 1.5, "gated_latency": 2.25,
                "baseline_usage": {"prompt_tokens": 10, "total_tokens": 12,
                    "per_turn": [[1, 2, 0, 0, 0]]},
                "gated_usage": {}, "zeta": [1, {"x": null}], "alpha": "kept in order"}),
            // Values that do not fit their columns stay in the record.
            json!({"trace_id": "q2", "model": "m", "fired": 0, "gated_latency": 4,
                "cell_error": "boom", "topk": ["a", 3], "gated_outcome": 7}),
            // A number past u32 in a u32 field.
            json!({"trace_id": "q3", "model": "m", "fired": 5_000_000_000_u64}),
            json!({"trace_id": "q4", "model": "m", "baseline_turns": 4_294_967_296_u64}),
            // A required field missing.
            json!({"trace_id": "q5", "fired": 1}),
            // Fields of the wrong type where the record keeps them.
            json!({"trace_id": "q6", "model": "m", "fired": "one"}),
            json!({"trace_id": 6, "model": "m"}),
            json!({"trace_id": "q7", "model": "m", "baseline_usage": null}),
        ],
    );
}

#[test]
fn a_nested_value_without_its_object_is_the_same_error_both_ways() {
    let rows = [
        json!({"trace_id": "q", "model": "m", "gated_usage": {"api_calls": 3}}),
        json!({"trace_id": "q", "model": "m", "checks": {"n_queries": 2}}),
    ];
    let drop_parent = |_: usize, record: &mut Map<String, Value>| {
        record.remove("gated_usage");
        record.remove("checks");
    };
    let gate = both::<GateRow>(&GATE_ROWS, &rows[..1], drop_parent);
    assert_eq!(
        gate[0].0.as_ref().unwrap_err(),
        "column gated_usage_api_calls has a value but no place in the record"
    );
    assert_eq!(
        gate[0].0.as_ref().unwrap_err(),
        gate[0].1.as_ref().unwrap_err()
    );
    let labels = both::<FailureLabel>(&FAILURE_LABELS, &rows[1..], drop_parent);
    assert_eq!(
        labels[0].1.as_ref().unwrap_err(),
        "column checks_n_queries has a value but no place in the record"
    );
    assert_eq!(
        labels[0].0.as_ref().unwrap_err(),
        labels[0].1.as_ref().unwrap_err()
    );
}

#[test]
fn rankings_read_the_same_both_ways() {
    same::<RankingRow>(
        &RANKINGS,
        &[
            json!({"trace_id": "q1", "gold": ["b.t", "a.t"], "ranked": ["a.t", "b.t", "c.t"],
                "scores": {"a.t": 0.9, "b.t": 0.5, "c.t": 0.0}, "latency_s": 0.25,
                "ndcg@10": 0.75, "recall@1": 0.5}),
            json!({"trace_id": "q2", "ranked": [], "latency_s": 1}),
            json!({"trace_id": "q3", "gold": "a.t"}),
            json!({"gold": ["a"]}),
        ],
    );
}

#[test]
fn labels_and_questions_read_the_same_both_ways() {
    same::<FailureLabel>(
        &FAILURE_LABELS,
        &[
            json!({"trace_id": "q1", "model": "m", "outcome": "fail", "sub_mode": "wrong_join",
                "sub_mode_confidence": 0.61, "family": "join", "family_confidence": 0.8,
                "prevented_by_rule": "none", "prevented_by_rule_confidence": 0.7,
                "schema_hint_would_help": 0.25, "correct_despite_fail": 0.125,
                "checks": {"decidable": {"r1": "ok"}, "n_queries": 2,
                    "has_repeated_query": false},
                "decidable_verdicts": {"r1": "ok"}, "reason": "text"}),
            json!({"trace_id": "q2", "model": "m", "sub_mode_confidence": 1,
                "checks": {"n_queries": -1}}),
        ],
    );
    same::<FmLabel>(
        &FM_LABELS,
        &[
            json!({"trace_id": "q1", "model": "m", "fm": "FM2", "reason": "why"}),
            json!({"trace_id": "q2", "model": "m", "fm": 2}),
            json!({"trace_id": "q3", "model": "m"}),
        ],
    );
    same::<Question>(
        &QUESTIONS,
        &[
            json!({"trace_id": "q1", "nl_question": "How many?", "excluded": false,
                "agreers": ["a1", "a2"], "gt_from": "a1", "gt_sql": ["SELECT 1"],
                "gt_results": ["1"], "gt_answer": "1",
                "annotators": {"a1": {"sqls": ["SELECT 1"], "turns": 2}}}),
            json!({"trace_id": "q2", "excluded": "yes"}),
        ],
    );
}
