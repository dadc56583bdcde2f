//! Macro-averaged retrieval curves over questions (harness-formats §5.5 "Aggregation").
//!
//! Every curve is a **macro mean over questions**: each question weighs `1/n`, no
//! micro-averaging over tables. Build one [`QuestionRanking`] per ranking row, then call
//! [`retrieval_curves`].

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashSet};
use std::hash::{BuildHasher, Hash};

use serde::{Deserialize, Serialize};

use super::ranking::{
    discount, gold_positions, k_star_from_positions, worst_gold_rank_from_positions,
};
use super::ranking_metrics::{AtK, RANKING_METRICS, RankingMetric};

#[path = "curves_serde.rs"]
mod curves_serde;

/// One question's ranking reduced to what every ranking metric needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionRanking {
    /// Ascending 0-based positions of the gold tables found in `ranked` (first occurrences).
    pub positions: Vec<usize>,
    /// `|G|`, counting gold tables absent from the ranking.
    pub n_gold: usize,
}

impl QuestionRanking {
    /// Reduces a ranked list and its gold set. Example: `[a, b, c]`, `{c}` → positions `[2]`.
    pub fn new<S, T, H>(ranked: &[S], gold: &HashSet<T, H>) -> Self
    where
        S: AsRef<str>,
        T: Borrow<str> + Hash + Eq,
        H: BuildHasher,
    {
        QuestionRanking {
            positions: gold_positions(ranked, gold),
            n_gold: gold.len(),
        }
    }

    /// k*: smallest k whose top k holds every gold table (`None` if never).
    pub fn k_star(&self) -> Option<usize> {
        k_star_from_positions(&self.positions, self.n_gold)
    }

    /// 1-based rank of the worst-ranked gold table found (`None` if none is found).
    pub fn worst_gold_rank(&self) -> Option<usize> {
        worst_gold_rank_from_positions(&self.positions)
    }
}

/// Macro-mean curves for `k = 1..=K`: one list per metric of [`RANKING_METRICS`], aligned
/// with `k`. In JSON: `n_questions`, `k`, then each metric's key (`ndcg`, `recall`,
/// `all_required`, `precision`, `success`, `mrr`) with its list.
#[derive(Debug, Clone, PartialEq)]
pub struct RetrievalCurves {
    /// Number of questions averaged.
    pub n_questions: usize,
    /// The cutoffs `1..=K`.
    pub k: Vec<usize>,
    /// `values[m][j]`: the mean of metric `RANKING_METRICS[m]` at `k[j]`.
    pub values: Vec<Vec<f64>>,
}

impl RetrievalCurves {
    /// The curve of `metric` (empty for a metric outside the registry).
    pub fn of(&self, metric: &RankingMetric) -> &[f64] {
        RANKING_METRICS
            .iter()
            .position(|m| m.key == metric.key)
            .and_then(|i| self.values.get(i))
            .map_or(&[], Vec::as_slice)
    }

    /// The value of `metric` at cutoff `k` (`None` outside `1..=K`).
    pub fn at(&self, metric: &RankingMetric, k: usize) -> Option<f64> {
        self.of(metric).get(k.checked_sub(1)?).copied()
    }

    /// Every metric with its curve, in registry order.
    pub fn series(&self) -> impl Iterator<Item = (&'static RankingMetric, &[f64])> {
        RANKING_METRICS
            .into_iter()
            .zip(self.values.iter().map(Vec::as_slice))
    }
}

/// Computes macro-mean curves for `k = 1..=k_max` over `rows`.
///
/// With no rows every mean is `0.0` and `n_questions` is 0 (the dashboard shows "no data").
/// ```
/// use runlens_core::metrics::curves::{QuestionRanking, retrieval_curves};
/// use runlens_core::metrics::ranking_metrics::{ALL_REQUIRED, RECALL};
/// let row = QuestionRanking { positions: vec![0, 2], n_gold: 2 };
/// let curves = retrieval_curves(&[row], 3);
/// assert_eq!(curves.of(&RECALL), [0.5, 0.5, 1.0]);
/// assert_eq!(curves.of(&ALL_REQUIRED), [0.0, 0.0, 1.0]);
/// ```
pub fn retrieval_curves(rows: &[QuestionRanking], k_max: usize) -> RetrievalCurves {
    let n = rows.len();
    let ks: Vec<usize> = (1..=k_max).collect();
    let mut values = vec![vec![0.0; k_max]; RANKING_METRICS.len()];
    if n > 0 {
        // ideal[m] = Σ_{i < m} discount(i): the same summation order as `ideal_dcg`.
        let mut ideal = vec![0.0; k_max + 1];
        for m in 1..=k_max {
            ideal[m] = ideal[m - 1] + discount(m - 1);
        }
        for row in rows {
            // One pass over k: `hits` gold positions are < k, `dcg` their discounts so far
            // (added in position order, exactly as `AtK::from_positions` does).
            let mut at = AtK {
                k: 0,
                n_gold: row.n_gold,
                hits: 0,
                dcg: 0.0,
                ideal: 0.0,
                first: row.positions.first().copied(),
            };
            for (j, &k) in ks.iter().enumerate() {
                while at.hits < row.positions.len() && row.positions[at.hits] < k {
                    at.dcg += discount(row.positions[at.hits]);
                    at.hits += 1;
                }
                at.k = k;
                at.ideal = ideal[row.n_gold.min(k)];
                for (metric, sums) in RANKING_METRICS.iter().zip(values.iter_mut()) {
                    sums[j] += metric.kernel.score(&at);
                }
            }
        }
        let nf = n as f64;
        values.iter_mut().flatten().for_each(|x| *x /= nf);
    }
    RetrievalCurves {
        n_questions: n,
        k: ks,
        values,
    }
}

/// Distribution of k* over questions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KStarDistribution {
    /// k* value → number of questions with that k*.
    pub counts: BTreeMap<usize, usize>,
    /// Questions whose gold set is never fully ranked (gold outside the universe, empty gold).
    pub never: usize,
}

/// Counts k* values. Counts plus `never` sum to `rows.len()`.
pub fn k_star_distribution(rows: &[QuestionRanking]) -> KStarDistribution {
    let mut d = KStarDistribution {
        counts: BTreeMap::new(),
        never: 0,
    };
    for row in rows {
        match row.k_star() {
            Some(k) => *d.counts.entry(k).or_insert(0) += 1,
            None => d.never += 1,
        }
    }
    d
}

/// Curves broken down by number of gold tables `|G|` (key), each a [`retrieval_curves`].
pub fn curves_by_gold_count(
    rows: &[QuestionRanking],
    k_max: usize,
) -> BTreeMap<usize, RetrievalCurves> {
    let mut groups: BTreeMap<usize, Vec<QuestionRanking>> = BTreeMap::new();
    for row in rows {
        groups.entry(row.n_gold).or_default().push(row.clone());
    }
    groups
        .into_iter()
        .map(|(g, rs)| (g, retrieval_curves(&rs, k_max)))
        .collect()
}

#[cfg(test)]
// Expected values are written as arithmetic (e.g. `2.0 / 2.0` = 2 of 2 gold tables).
#[allow(clippy::eq_op)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::metrics::ranking_metrics::{ALL_REQUIRED, MRR, NDCG, PRECISION, RECALL, SUCCESS};

    fn row(positions: &[usize], n_gold: usize) -> QuestionRanking {
        QuestionRanking {
            positions: positions.to_vec(),
            n_gold,
        }
    }

    #[test]
    fn macro_means_weight_questions_equally() {
        // q1: gold at positions 0 and 2 of 2; q2: one gold at position 1.
        let rows = [row(&[0, 2], 2), row(&[1], 1)];
        let c = retrieval_curves(&rows, 3);
        assert_eq!(c.k, vec![1, 2, 3]);
        assert_eq!(
            c.of(&RECALL),
            [(0.5 + 0.0) / 2.0, (0.5 + 1.0) / 2.0, (1.0 + 1.0) / 2.0]
        );
        assert_eq!(c.of(&ALL_REQUIRED), [0.0, 0.5, 1.0]);
        assert_eq!(c.of(&SUCCESS), [0.5, 1.0, 1.0]);
        let idcg2 = 1.0 + 1.0 / 3f64.log2();
        let q1_k3 = (1.0 + 1.0 / 4f64.log2()) / idcg2;
        let q2_k3 = 1.0 / 3f64.log2();
        assert!((c.of(&NDCG)[2] - (q1_k3 + q2_k3) / 2.0).abs() < 1e-15);
        // RR@1: q1 1, q2 0 (its gold is at rank 2); RR@2 and on: q1 1, q2 1/2.
        assert_eq!(
            c.of(&MRR),
            [1.0 / 2.0, (1.0 + 0.5) / 2.0, (1.0 + 0.5) / 2.0]
        );
        assert_eq!(c.at(&PRECISION, 2), Some((1.0 / 2.0 + 1.0 / 2.0) / 2.0));
        assert_eq!(c.at(&PRECISION, 0), None);
        assert_eq!(c.at(&PRECISION, 4), None);
    }

    #[test]
    fn empty_input_gives_zero_curves() {
        let c = retrieval_curves(&[], 2);
        assert_eq!(c.n_questions, 0);
        for (_, curve) in c.series() {
            assert_eq!(curve, [0.0, 0.0]);
        }
        assert_eq!(c.series().count(), RANKING_METRICS.len());
    }

    #[test]
    fn json_names_every_curve_by_its_key_in_registry_order() {
        let c = retrieval_curves(&[row(&[1], 2)], 2);
        let json = serde_json::to_string(&c).unwrap();
        // recall 0, 1/2; all-required 0, 0; precision 0, 1/2; success 0, 1; RR 0, 1/2.
        let ndcg2 = (1.0 / 3f64.log2()) / (1.0 + 1.0 / 3f64.log2());
        let want = format!(
            "{{\"n_questions\":1,\"k\":[1,2],\"ndcg\":[0.0,{ndcg2}],\"recall\":[0.0,0.5],\
             \"all_required\":[0.0,0.0],\"precision\":[0.0,0.5],\"success\":[0.0,1.0],\
             \"mrr\":[0.0,0.5]}}"
        );
        assert_eq!(json, want);
        let back: RetrievalCurves = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn json_without_a_curve_is_an_error_naming_it() {
        let err = serde_json::from_str::<RetrievalCurves>(
            r#"{"n_questions":0,"k":[],"ndcg":[],"recall":[],"all_required":[],"precision":[],"success":[]}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("missing field `mrr`"), "{err}");
    }

    #[test]
    fn k_star_distribution_and_breakdown() {
        let rows = [row(&[0, 2], 2), row(&[1], 1), row(&[0], 2), row(&[0], 1)];
        let d = k_star_distribution(&rows);
        assert_eq!(d.counts, BTreeMap::from([(1, 1), (2, 1), (3, 1)]));
        assert_eq!(d.never, 1);
        let by = curves_by_gold_count(&rows, 1);
        assert_eq!(by[&1].n_questions, 2);
        assert_eq!(by[&2].of(&RECALL), [(0.5 + 0.5) / 2.0]);
    }
}
