//! Edge-case matrix and reference vectors for the ranking kernels.

// Expected values are written as arithmetic (e.g. `2.0 / 2.0` = 2 of 2 gold tables).
#![allow(clippy::eq_op)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::HashSet;

use super::*;
use crate::metrics::ranking_metrics::{MRR, PRECISION, SUCCESS};

fn set(items: &[&str]) -> HashSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

const RANKED: [&str; 3] = [
    "marts.usage_daily",
    "crm.dim_account",
    "crm.fct_support_case",
];

#[test]
fn harness_test_schema_retrieval_vector() {
    // tests/test_schema_retrieval.py + harness-formats §5.6.
    let gold = set(&["marts.usage_daily", "crm.fct_support_case"]);
    close(recall_at_k(&RANKED, &gold, 1), 1.0 / 2.0);
    close(recall_at_k(&RANKED, &gold, 3), 2.0 / 2.0);
    let idcg2 = 1.0 + 1.0 / 3f64.log2();
    close(
        ndcg_at_k(&RANKED, &gold, 3),
        (1.0 + 1.0 / 4f64.log2()) / idcg2,
    );
    assert!((ndcg_at_k(&RANKED, &gold, 3) - 0.919721).abs() < 1e-6);
    close(ndcg_at_k(&RANKED, &gold, 1), 1.0 / 1.0);
    close(ndcg_at_k(&RANKED, &gold, 2), 1.0 / idcg2);
    assert!((ndcg_at_k(&RANKED, &gold, 2) - 0.613147).abs() < 1e-6);
    assert!(!all_required_at_k(&RANKED, &gold, 2));
    assert!(all_required_at_k(&RANKED, &gold, 3));
    // ndcg_at(["x","y"], {"z"}, 2) == 0.0
    assert_eq!(ndcg_at_k(&["x", "y"], &set(&["z"]), 2), 0.0);
}

#[test]
fn empty_ranking_scores_zero() {
    let empty: [&str; 0] = [];
    let gold = set(&["a"]);
    assert_eq!(ndcg_at_k(&empty, &gold, 5), 0.0);
    assert_eq!(recall_at_k(&empty, &gold, 5), 0.0);
    assert!(!all_required_at_k(&empty, &gold, 5));
    let p = gold_positions(&empty, &gold);
    assert_eq!(MRR.at_positions(&p, 1, 5), 0.0);
    assert_eq!(SUCCESS.at_positions(&p, 1, 5), 0.0);
    assert_eq!(k_star_from_positions(&p, 1), None);
    assert_eq!(worst_gold_rank_from_positions(&p), None);
}

#[test]
fn empty_gold_scores_zero_but_is_vacuously_covered() {
    let gold = set(&[]);
    assert_eq!(ndcg_at_k(&RANKED, &gold, 3), 0.0);
    assert_eq!(recall_at_k(&RANKED, &gold, 3), 0.0);
    assert!(all_required_at_k(&RANKED, &gold, 3));
    assert_eq!(k_star_from_positions(&[], 0), None);
}

#[test]
fn k_beyond_list_saturates() {
    let gold = set(&["crm.fct_support_case"]);
    // Only gold at position 2: DCG = 1/log2 4, IDCG@k≥1 = 1.
    close(ndcg_at_k(&RANKED, &gold, 10), 1.0 / 4f64.log2());
    close(recall_at_k(&RANKED, &gold, 10), 1.0);
    let p = gold_positions(&RANKED, &gold);
    // P@10 divides by 10 though the list holds 3 (trec_eval's P_k).
    close(PRECISION.at_positions(&p, 1, 10), 1.0 / 10.0);
    assert_eq!(SUCCESS.at_positions(&p, 1, 10), 1.0);
    assert_eq!(SUCCESS.at_positions(&p, 1, 2), 0.0);
    assert_eq!(MRR.at_positions(&p, 1, 10), 1.0 / 3.0);
    assert_eq!(MRR.at_positions(&p, 1, 2), 0.0);
}

#[test]
fn k_zero_is_the_empty_prefix() {
    let gold = set(&["marts.usage_daily"]);
    assert_eq!(ndcg_at_k(&RANKED, &gold, 0), 0.0);
    assert_eq!(recall_at_k(&RANKED, &gold, 0), 0.0);
    assert!(!all_required_at_k(&RANKED, &gold, 0));
    for metric in [&PRECISION, &SUCCESS, &MRR] {
        assert_eq!(metric.at_positions(&[0], 1, 0), 0.0, "{}", metric.key);
    }
}

#[test]
fn gold_outside_universe_caps_scores() {
    let gold = set(&["marts.usage_daily", "crm.not_in_universe"]);
    // DCG@3 = 1, IDCG@3 = 1 + 1/log2 3.
    close(
        ndcg_at_k(&RANKED, &gold, 3),
        1.0 / (1.0 + 1.0 / 3f64.log2()),
    );
    close(recall_at_k(&RANKED, &gold, 3), 1.0 / 2.0);
    assert!(!all_required_at_k(&RANKED, &gold, 3));
    let p = gold_positions(&RANKED, &gold);
    assert_eq!(k_star_from_positions(&p, gold.len()), None);
    assert_eq!(worst_gold_rank_from_positions(&p), Some(1));
}

#[test]
fn duplicate_tables_count_once() {
    let ranked = ["a", "a", "b"];
    let gold = set(&["a", "b"]);
    assert_eq!(gold_positions(&ranked, &gold), vec![0, 2]);
    // DCG@2 = 1 (the repeat earns nothing); IDCG@2 = 1 + 1/log2 3.
    close(
        ndcg_at_k(&ranked, &gold, 2),
        1.0 / (1.0 + 1.0 / 3f64.log2()),
    );
    close(recall_at_k(&ranked, &gold, 2), 1.0 / 2.0);
    assert!(ndcg_at_k(&ranked, &gold, 3) <= 1.0);
}

#[test]
fn extensions_rr_precision_kstar_worst_rank() {
    let ranked = ["x", "a", "y", "b"];
    let gold = set(&["b", "a"]);
    let p = gold_positions(&ranked, &gold);
    assert_eq!(p, vec![1, 3]);
    assert_eq!(MRR.at_positions(&p, 2, 1), 0.0);
    close(MRR.at_positions(&p, 2, 4), 1.0 / 2.0);
    assert_eq!(k_star_from_positions(&p, 2), Some(4));
    assert_eq!(worst_gold_rank_from_positions(&p), Some(4));
    close(PRECISION.at_positions(&p, 2, 2), 1.0 / 2.0);
    close(PRECISION.at_positions(&p, 2, 4), 2.0 / 4.0);
}

#[test]
fn large_gold_sets_use_the_hash_path_with_the_same_result() {
    // 20 gold tables (> SMALL_GOLD): hashed look-ups; every other ranked table is gold.
    let ranked: Vec<String> = (0..40).map(|i| format!("crm.t{i:02}")).collect();
    let gold: HashSet<String> = (0..40).step_by(2).map(|i| format!("crm.t{i:02}")).collect();
    assert_eq!(
        gold_positions(&ranked, &gold),
        (0..40).step_by(2).collect::<Vec<_>>()
    );
    close(recall_at_k(&ranked, &gold, 10), 5.0 / 20.0);
    // Same tail, different length: the pre-filter must not confuse them.
    let small = set(&["x.abcdefgh"]);
    assert!(gold_positions(&["y.xabcdefgh", "x.abcdefgh"], &small) == vec![1]);
}
