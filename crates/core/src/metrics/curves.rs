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
    discount, gold_positions, k_star_from_positions, reciprocal_rank_from_positions,
    worst_gold_rank_from_positions,
};

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

/// Macro-mean curves for `k = 1..=K`, all lists aligned with `k`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetrievalCurves {
    /// Number of questions averaged.
    pub n_questions: usize,
    /// The cutoffs `1..=K`.
    pub k: Vec<usize>,
    /// Mean nDCG@k (binary gain, log2 discount).
    pub ndcg: Vec<f64>,
    /// Mean recall@k.
    pub recall: Vec<f64>,
    /// Share of questions whose top k holds every gold table (mean all-required@k).
    pub all_required: Vec<f64>,
    /// Extension: mean precision@k (denominator k).
    pub precision: Vec<f64>,
    /// Extension: share of questions with at least one gold table in the top k.
    pub hit: Vec<f64>,
    /// Extension: mean reciprocal rank of the first gold table (MRR, uncut).
    pub mrr: f64,
}

/// Computes macro-mean curves for `k = 1..=k_max` over `rows`.
///
/// With no rows every mean is `0.0` and `n_questions` is 0 (the dashboard shows "no data").
/// ```
/// use runlens_core::metrics::curves::{QuestionRanking, retrieval_curves};
/// let row = QuestionRanking { positions: vec![0, 2], n_gold: 2 };
/// let curves = retrieval_curves(&[row], 3);
/// assert_eq!(curves.recall, vec![0.5, 0.5, 1.0]);
/// assert_eq!(curves.all_required, vec![0.0, 0.0, 1.0]);
/// ```
pub fn retrieval_curves(rows: &[QuestionRanking], k_max: usize) -> RetrievalCurves {
    let n = rows.len();
    let ks: Vec<usize> = (1..=k_max).collect();
    let mut c = RetrievalCurves {
        n_questions: n,
        k: ks.clone(),
        ndcg: vec![0.0; k_max],
        recall: vec![0.0; k_max],
        all_required: vec![0.0; k_max],
        precision: vec![0.0; k_max],
        hit: vec![0.0; k_max],
        mrr: 0.0,
    };
    if n == 0 {
        return c;
    }
    // ideal[m] = Σ_{i < m} discount(i): the same summation order as `ideal_dcg`.
    let mut ideal = vec![0.0; k_max + 1];
    for m in 1..=k_max {
        ideal[m] = ideal[m - 1] + discount(m - 1);
    }
    for row in rows {
        // One pass over k: `hits` gold positions are < k, `dcg` their discounts so far
        // (added in position order, exactly as `ndcg_from_positions` does).
        let (mut hits, mut dcg) = (0usize, 0.0f64);
        for (j, &k) in ks.iter().enumerate() {
            while hits < row.positions.len() && row.positions[hits] < k {
                dcg += discount(row.positions[hits]);
                hits += 1;
            }
            let idcg = ideal[row.n_gold.min(k)];
            if idcg > 0.0 {
                c.ndcg[j] += dcg / idcg;
            }
            if row.n_gold > 0 {
                c.recall[j] += hits as f64 / row.n_gold as f64;
            }
            c.all_required[j] += f64::from(u8::from(hits == row.n_gold));
            c.precision[j] += hits as f64 / k as f64;
            c.hit[j] += f64::from(u8::from(hits > 0));
        }
        c.mrr += reciprocal_rank_from_positions(&row.positions);
    }
    let nf = n as f64;
    for v in [
        &mut c.ndcg,
        &mut c.recall,
        &mut c.all_required,
        &mut c.precision,
        &mut c.hit,
    ] {
        v.iter_mut().for_each(|x| *x /= nf);
    }
    c.mrr /= nf;
    c
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
            c.recall,
            vec![(0.5 + 0.0) / 2.0, (0.5 + 1.0) / 2.0, (1.0 + 1.0) / 2.0]
        );
        assert_eq!(c.all_required, vec![0.0, 0.5, 1.0]);
        assert_eq!(c.hit, vec![0.5, 1.0, 1.0]);
        let idcg2 = 1.0 + 1.0 / 3f64.log2();
        let q1_k3 = (1.0 + 1.0 / 4f64.log2()) / idcg2;
        let q2_k3 = 1.0 / 3f64.log2();
        assert!((c.ndcg[2] - (q1_k3 + q2_k3) / 2.0).abs() < 1e-15);
        assert!((c.mrr - (1.0 + 0.5) / 2.0).abs() < 1e-15);
        assert!((c.precision[1] - (1.0 / 2.0 + 1.0 / 2.0) / 2.0).abs() < 1e-15);
    }

    #[test]
    fn empty_input_gives_zero_curves() {
        let c = retrieval_curves(&[], 2);
        assert_eq!(
            (c.n_questions, c.recall.clone(), c.mrr),
            (0, vec![0.0, 0.0], 0.0)
        );
    }

    #[test]
    fn k_star_distribution_and_breakdown() {
        let rows = [row(&[0, 2], 2), row(&[1], 1), row(&[0], 2), row(&[0], 1)];
        let d = k_star_distribution(&rows);
        assert_eq!(d.counts, BTreeMap::from([(1, 1), (2, 1), (3, 1)]));
        assert_eq!(d.never, 1);
        let by = curves_by_gold_count(&rows, 1);
        assert_eq!(by[&1].n_questions, 2);
        assert_eq!(by[&2].recall, vec![(0.5 + 0.5) / 2.0]);
    }
}
