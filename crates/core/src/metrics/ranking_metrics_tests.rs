// Expected values are written as arithmetic (`2.0 / 3.0`: 2 of 3 gold tables).
#![allow(clippy::eq_op)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

#[test]
fn keys_are_unique_and_in_the_order_tables_show_them() {
    let keys: Vec<&str> = RANKING_METRICS.iter().map(|m| m.key).collect();
    assert_eq!(
        keys,
        [
            "ndcg",
            "recall",
            "all_required",
            "precision",
            "success",
            "mrr"
        ]
    );
    let harness: Vec<&str> = RANKING_METRICS
        .iter()
        .filter(|m| m.harness)
        .map(|m| m.key)
        .collect();
    assert_eq!(harness, ["ndcg", "recall", "all_required"]);
    assert_eq!(ranking_metric("mrr").map(|m| m.label), Some("MRR@k"));
    assert!(ranking_metric("hit").is_none());
}

#[test]
fn every_kernel_on_one_hand_worked_question() {
    // ranked [x, a, y, b, z], G = {a, b, c}: gold at positions 1 and 3, c never ranked.
    let positions = [1, 3];
    let at4 = AtK::from_positions(&positions, 3, 4);
    let d1 = 1.0 / 3f64.log2();
    let d3 = 1.0 / 5f64.log2();
    let ideal3 = 1.0 + d1 + 1.0 / 4f64.log2();
    assert_eq!(
        at4,
        AtK {
            k: 4,
            n_gold: 3,
            hits: 2,
            dcg: d1 + d3,
            ideal: ideal3,
            first: Some(1)
        }
    );
    let got: Vec<f64> = RANKING_METRICS
        .iter()
        .map(|m| m.kernel.score(&at4))
        .collect();
    assert_eq!(
        got,
        [
            (d1 + d3) / ideal3,
            2.0 / 3.0,
            0.0,
            2.0 / 4.0,
            1.0,
            1.0 / 2.0
        ]
    );
    // At k = 1 nothing gold is in the prefix: every metric scores 0.
    let at1 = AtK::from_positions(&positions, 3, 1);
    assert!(RANKING_METRICS.iter().all(|m| m.kernel.score(&at1) == 0.0));
    // Empty G: all-required is vacuously 1, the rest 0.
    let empty = AtK::from_positions(&[], 0, 3);
    let got: Vec<f64> = RANKING_METRICS
        .iter()
        .map(|m| m.kernel.score(&empty))
        .collect();
    assert_eq!(got, [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
}
