use super::*;
use crate::metrics::ranking_metrics::{ALL_REQUIRED, NDCG, RECALL};

fn q(key: &str, positions: &[usize], n_gold: usize) -> (String, QuestionRanking) {
    (
        key.to_owned(),
        QuestionRanking {
            positions: positions.to_vec(),
            n_gold,
        },
    )
}

/// q1: gold {t} at rank 3 in A, rank 1 in B. q2: two gold tables at ranks 1–2 in A, only
/// one of them ranked (rank 1) in B. q3 only in A, q4 only in B; B's second q1 row is not
/// its first and is ignored.
fn runs() -> RankingCompare {
    let a = [q("q1", &[2], 1), q("q2", &[0, 1], 2), q("q3", &[0], 1)];
    let b = [
        q("q4", &[0], 1),
        q("q2", &[0], 2),
        q("q1", &[0], 1),
        q("q1", &[5], 1),
    ];
    compare_rankings(&a, &b, 3)
}

#[test]
fn paired_over_questions_ranked_in_both() {
    let c = runs();
    assert_eq!((c.n, c.only_a, c.only_b), (2, 1, 1));
    assert_eq!(c.metrics.len(), RANKING_METRICS.len());
    // recall: q1 rises by 1, 1, 0 at k = 1, 2, 3; q2 by 0, −0.5, −0.5.
    let r = c.of(&RECALL);
    let deltas: Vec<Option<f64>> = r.iter().map(|d| d.delta).collect();
    assert_eq!(deltas, [Some(0.5), Some(0.25), Some(-0.25)]);
    // se: sample sd of (1, 0) is √0.5, over √2 → 0.5; of (1, −0.5): √1.125 / √2 = 0.75;
    // of (0, −0.5): √0.125 / √2 = 0.25 (Python `statistics.stdev(…) / math.sqrt(2)`: 0.5,
    // 0.7499999999999999, 0.25).
    let se: Vec<Option<f64>> = r.iter().map(|d| d.se).collect();
    assert_eq!(se, [Some(0.5), Some(0.749_999_999_999_999_9), Some(0.25)]);
    // p of z = 1 (k = 1 and 3): erfc(1/√2), Python `math.erfc(1/math.sqrt(2))`.
    assert!((r[0].p.unwrap() - 0.317_310_507_862_914_15).abs() < 1e-12);
    assert_eq!((r[1].improved, r[1].regressed), (1, 1));
    assert_eq!((r[0].pass_a, r[0].pass_b), (Some(0.25), Some(0.75)));
    // all-required: q1 1, 1, 0; q2 0, −1, −1.
    let ar: Vec<Option<f64>> = c.of(&ALL_REQUIRED).iter().map(|d| d.delta).collect();
    assert_eq!(ar, [Some(0.5), Some(0.0), Some(-0.5)]);
}

#[test]
fn ndcg_differences_use_the_harness_discount() {
    let c = runs();
    let at3 = c.of(&NDCG)[2];
    // q1: 1 − 1/log2(4) = 0.5; q2: 1/(1 + 1/log2 3) − 1. Python: statistics.mean and
    // statistics.stdev(…)/√2 of those two.
    assert!((at3.delta.unwrap() - 0.056_573_596_382_729_185).abs() < 1e-15);
    assert!((at3.se.unwrap() - 0.443_426_403_617_270_8).abs() < 1e-15);
}

#[test]
fn nothing_in_common_gives_empty_differences() {
    let c = compare_rankings(&[q("a", &[0], 1)], &[q("b", &[0], 1)], 2);
    assert_eq!((c.n, c.only_a, c.only_b), (0, 1, 1));
    assert_eq!(c.of(&RECALL)[0].delta, None);
    assert_eq!(c.of(&RECALL).len(), 2);
}
