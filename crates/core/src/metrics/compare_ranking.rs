//! The table rankings of two runs compared (#21, "Retrieval"): for every ranking metric and
//! cutoff k, the paired difference run B − run A over the questions ranked in both (matched
//! by `trace_id`, the first row of a key), with the same statistics as the pass-rate
//! comparison ([`super::compare::paired_delta`]).

use std::collections::HashMap;

use super::compare::{PairedDelta, paired_delta};
use super::curves::QuestionRanking;
use super::ranking_metrics::{RANKING_METRICS, RankingMetric};

/// One metric's paired differences at `k = 1..=K`.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricDeltas {
    /// The metric.
    pub metric: &'static RankingMetric,
    /// `deltas[k - 1]`: the paired difference at cutoff k.
    pub deltas: Vec<PairedDelta>,
}

/// Two runs' rankings compared.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingCompare {
    /// Questions ranked in both runs.
    pub n: usize,
    /// Questions ranked in A only.
    pub only_a: usize,
    /// Questions ranked in B only.
    pub only_b: usize,
    /// Every metric of [`RANKING_METRICS`], in its order.
    pub metrics: Vec<MetricDeltas>,
}

impl RankingCompare {
    /// The paired differences of `metric` (empty for a metric not compared).
    pub fn of(&self, metric: &RankingMetric) -> &[PairedDelta] {
        self.metrics
            .iter()
            .find(|m| m.metric.key == metric.key)
            .map_or(&[], |m| m.deltas.as_slice())
    }
}

/// Compares run A's rankings `a` with run B's `b` (`(trace_id, ranking)` per ranking row)
/// at `k = 1..=k_max`. A question's metric at k is [`RankingMetric::at_positions`], so the
/// mean of A's side equals A's curve over the same questions.
///
/// Example: one question, gold {t} at rank 3 in A and rank 1 in B: recall@1 rises by 1,
/// recall@3 by 0.
pub fn compare_rankings(
    a: &[(String, QuestionRanking)],
    b: &[(String, QuestionRanking)],
    k_max: usize,
) -> RankingCompare {
    let mut in_b: HashMap<&str, &QuestionRanking> = HashMap::with_capacity(b.len());
    for (key, r) in b {
        in_b.entry(key.as_str()).or_insert(r);
    }
    let mut seen_a: HashMap<&str, ()> = HashMap::with_capacity(a.len());
    let mut pairs: Vec<(&QuestionRanking, &QuestionRanking)> = Vec::new();
    for (key, r) in a {
        if seen_a.insert(key.as_str(), ()).is_some() {
            continue;
        }
        if let Some(rb) = in_b.get(key.as_str()) {
            pairs.push((r, rb));
        }
    }
    let n = pairs.len();
    let metrics = RANKING_METRICS
        .into_iter()
        .map(|metric| MetricDeltas {
            metric,
            deltas: (1..=k_max)
                .map(|k| {
                    let at =
                        |q: &QuestionRanking| Some(metric.at_positions(&q.positions, q.n_gold, k));
                    let a: Vec<Option<f64>> = pairs.iter().map(|p| at(p.0)).collect();
                    let b: Vec<Option<f64>> = pairs.iter().map(|p| at(p.1)).collect();
                    paired_delta(&a, &b)
                })
                .collect(),
        })
        .collect();
    RankingCompare {
        n,
        only_a: seen_a.len() - n,
        only_b: in_b.len() - n,
        metrics,
    }
}

#[cfg(test)]
#[path = "compare_ranking_tests.rs"]
mod tests;
