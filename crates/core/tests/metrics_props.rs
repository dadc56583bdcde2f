//! Property tests: bounds, monotonicity in k, and counts that sum to n.
// proptest needs std features (fork/timeouts) the wasm32 runner lacks; native only.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashSet;

use proptest::prelude::*;
use runlens_core::metrics::curves::{QuestionRanking, k_star_distribution, retrieval_curves};
use runlens_core::metrics::failures::{count_failures, histogram};
use runlens_core::metrics::ranking::{
    all_required_at_k, ndcg_at_k, ndcg_from_positions, recall_at_k, recall_from_positions,
};
use runlens_core::metrics::ranking_metrics::{
    ALL_REQUIRED, MRR, NDCG, RANKING_METRICS, RECALL, SUCCESS,
};
use runlens_core::metrics::stats::{median, quantile_linear};
use runlens_core::metrics::taxonomy::SUB_MODES;

fn table() -> impl Strategy<Value = String> {
    (0u8..12).prop_map(|i| format!("crm.t{i}"))
}

fn ranking() -> impl Strategy<Value = (Vec<String>, HashSet<String>)> {
    // Duplicates allowed on purpose; gold may include tables never ranked.
    (
        prop::collection::vec(table(), 0..15),
        prop::collection::hash_set(table(), 0..6),
    )
}

proptest! {
    #[test]
    fn ndcg_recall_bounded_and_monotone((ranked, gold) in ranking()) {
        let mut prev_recall = 0.0;
        let mut prev_all = false;
        for k in 0..=16 {
            let ndcg = ndcg_at_k(&ranked, &gold, k);
            let recall = recall_at_k(&ranked, &gold, k);
            let all = all_required_at_k(&ranked, &gold, k);
            prop_assert!((0.0..=1.0 + 1e-12).contains(&ndcg), "nDCG@{} = {}", k, ndcg);
            prop_assert!((0.0..=1.0).contains(&recall));
            prop_assert!(recall >= prev_recall, "recall fell at k={}", k);
            prop_assert!(all || !prev_all, "all-required fell at k={}", k);
            prev_recall = recall;
            prev_all = all;
        }
    }

    #[test]
    fn curves_are_means_in_range(rows in prop::collection::vec(ranking(), 0..20)) {
        let qs: Vec<QuestionRanking> = rows.iter().map(|(r, g)| QuestionRanking::new(r, g)).collect();
        let c = retrieval_curves(&qs, 10);
        for j in 1..10 {
            prop_assert!(c.of(&RECALL)[j] >= c.of(&RECALL)[j - 1]);
            prop_assert!(c.of(&ALL_REQUIRED)[j] >= c.of(&ALL_REQUIRED)[j - 1]);
            prop_assert!(c.of(&SUCCESS)[j] >= c.of(&SUCCESS)[j - 1]);
            prop_assert!(c.of(&MRR)[j] >= c.of(&MRR)[j - 1]);
            prop_assert!(c.of(&MRR)[j] <= c.of(&SUCCESS)[j]);
        }
        let d = k_star_distribution(&qs);
        prop_assert_eq!(d.counts.values().sum::<usize>() + d.never, qs.len());
    }

    #[test]
    fn one_pass_curves_equal_the_kernels_bitwise(rows in prop::collection::vec(ranking(), 1..20)) {
        // retrieval_curves sums incrementally; each metric's kernel on its own, per question
        // and k, must give the same bits.
        let qs: Vec<QuestionRanking> = rows.iter().map(|(r, g)| QuestionRanking::new(r, g)).collect();
        let c = retrieval_curves(&qs, 12);
        let n = qs.len() as f64;
        for k in 1..=12usize {
            for metric in RANKING_METRICS {
                let mean = qs.iter().fold(0.0, |acc, q| acc + metric.at_positions(&q.positions, q.n_gold, k)) / n;
                prop_assert_eq!(c.of(metric)[k - 1].to_bits(), mean.to_bits(), "{}@{}", metric.key, k);
            }
            let ndcg = qs.iter().map(|q| ndcg_from_positions(&q.positions, q.n_gold, k)).sum::<f64>() / n;
            let recall = qs.iter().map(|q| recall_from_positions(&q.positions, q.n_gold, k)).sum::<f64>() / n;
            prop_assert_eq!(c.of(&NDCG)[k - 1].to_bits(), ndcg.to_bits());
            prop_assert_eq!(c.of(&RECALL)[k - 1].to_bits(), recall.to_bits());
        }
    }

    #[test]
    fn failure_counts_sum_to_n(picks in prop::collection::vec(prop::option::of(0usize..20), 0..40)) {
        let names: Vec<Option<String>> = picks
            .iter()
            .map(|p| p.map(|i| SUB_MODES.get(i).map_or_else(|| format!("unknown_{i}"), |s| s.key.to_string())))
            .collect();
        let c = count_failures(names.iter().map(|n| n.as_deref()));
        prop_assert_eq!(c.n, names.len());
        prop_assert_eq!(c.sub_mode.values().sum::<usize>(), c.n);
        prop_assert_eq!(c.family.values().sum::<usize>(), c.n);
        prop_assert_eq!(c.fm_bucket.values().sum::<usize>(), c.n);
    }

    #[test]
    fn histogram_counts_every_value_in_range(values in prop::collection::vec(0.0f64..=1.0, 0..50)) {
        let h = histogram(values.iter().map(|v| Some(*v)), 20, 0.0, 1.0);
        prop_assert_eq!(h.iter().sum::<usize>(), values.len());
    }

    #[test]
    fn median_lies_between_min_and_max(values in prop::collection::vec(-1e6f64..1e6, 1..30)) {
        let m = median(&values).unwrap();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(lo <= m && m <= hi);
        prop_assert_eq!(quantile_linear(&values, 0.0), Some(lo));
        prop_assert_eq!(quantile_linear(&values, 1.0), Some(hi));
    }
}
