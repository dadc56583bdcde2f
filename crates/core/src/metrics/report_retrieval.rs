//! The `retrieval` section of a [`super::report::MetricsReport`].

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::confidence::{high_confidence_set, score_table_set};
use super::curves::{
    KStarDistribution, QuestionRanking, RetrievalCurves, curves_by_gold_count, k_star_distribution,
    retrieval_curves,
};
use super::gold_tables::{GoldDifference, GoldRule, TableMatcher, gold_rule_differences};
use super::report::ReportOptions;
use super::row_gold::{GoldChooser, RowGold};
use super::stats::{mean, median, report_p90, upper_median};
use crate::bundle::{BundleBody, Corpus};

/// Macro means of the high-confidence set over questions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfidenceSetSummary {
    /// The threshold `t`.
    pub threshold: f64,
    /// Mean set size.
    pub mean_size: f64,
    /// Mean precision.
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// Share of questions whose set holds every gold table.
    pub full_coverage: f64,
}

/// Latency of the ranking calls, seconds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatencySummary {
    /// Rows with a latency.
    pub n: usize,
    /// The report's "median": upper median `sorted[n / 2]`.
    pub median_report: Option<f64>,
    /// The statistical median (numpy).
    pub median: Option<f64>,
    /// The report's p90: `sorted[min(n − 1, ⌊0.9·n⌋)]`.
    pub p90_report: Option<f64>,
}

/// Table-ranking metrics.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetrievalSection {
    /// Ranking rows averaged.
    pub n_questions: usize,
    /// Universe size (`ranked` length of the longest row, or the bundle universe).
    pub universe_size: usize,
    /// The gold rule used.
    pub gold_rule: GoldRule,
    /// Rows whose gold came from the stored `gold` because the namespaces, the question or
    /// its `gt_sql` were unavailable (parser rule only; see [`GoldChooser`]).
    pub gold_fallback_rows: usize,
    /// Curves (`k`, `ndcg`, `recall`, `all_required`, `precision`, `hit`, `mrr`).
    #[serde(flatten)]
    pub curves: RetrievalCurves,
    /// k* distribution.
    pub k_star: KStarDistribution,
    /// Mean worst gold rank over rows with at least one ranked gold table.
    pub mean_worst_gold_rank: Option<f64>,
    /// Curves by number of gold tables (JSON keys are the counts).
    pub by_gold_count: BTreeMap<usize, RetrievalCurves>,
    /// High-confidence set summary.
    pub high_confidence: ConfidenceSetSummary,
    /// Latency summary.
    pub latency: LatencySummary,
    /// Questions whose gold sets differ between the two rules (needs namespaces and gt_sql).
    pub gold_rule_differences: Vec<GoldDifference>,
}

/// What a retrieval section needs that depends only on the corpus and the gold rule — the
/// gold set of every ranking row and the rule differences, i.e. all the SQL parsing. Build
/// it once and call [`retrieval_section_with`] for any `k` and threshold (the dashboard
/// recomputes on every slider move).
#[derive(Debug, Clone, PartialEq)]
pub struct RetrievalInputs {
    /// The gold rule the sets were chosen with.
    pub gold_rule: GoldRule,
    /// Gold set of each ranking row, in `corpus.rankings` order.
    pub golds: Vec<RowGold>,
    /// Questions whose gold sets differ between the two rules.
    pub differences: Vec<GoldDifference>,
}

impl RetrievalInputs {
    /// Chooses every row's gold set under `gold_rule` and finds the rule differences.
    pub fn new(body: &BundleBody, corpus: &Corpus, gold_rule: GoldRule) -> RetrievalInputs {
        let chooser = GoldChooser::new(&body.namespaces, corpus, gold_rule);
        let matcher = TableMatcher::new(&body.namespaces).ok();
        let differences = match &matcher {
            Some(m) if !body.namespaces.is_empty() => {
                let ids: HashSet<&str> = corpus
                    .rankings
                    .iter()
                    .map(|r| r.trace_id.as_str())
                    .collect();
                let qs = corpus
                    .questions
                    .iter()
                    .filter(|q| ids.is_empty() || ids.contains(q.trace_id.as_str()));
                gold_rule_differences(m, qs.map(|q| (q.trace_id.as_str(), q.gt_sql.as_slice())))
            }
            _ => Vec::new(),
        };
        RetrievalInputs {
            gold_rule,
            golds: corpus.rankings.iter().map(|r| chooser.gold(r)).collect(),
            differences,
        }
    }
}

/// Computes the retrieval section from the corpus's ranking rows.
pub fn retrieval_section(
    body: &BundleBody,
    corpus: &Corpus,
    options: &ReportOptions,
) -> RetrievalSection {
    let inputs = RetrievalInputs::new(body, corpus, options.gold_rule);
    retrieval_section_with(body, corpus, &inputs, options)
}

/// [`retrieval_section`] from prepared [`RetrievalInputs`] (built from the same `corpus`);
/// the gold rule is the inputs', `options.gold_rule` is not read.
pub fn retrieval_section_with(
    body: &BundleBody,
    corpus: &Corpus,
    inputs: &RetrievalInputs,
    options: &ReportOptions,
) -> RetrievalSection {
    let mut fallback = 0;
    let mut rows = Vec::with_capacity(corpus.rankings.len());
    let (mut size, mut prec, mut rec, mut cover) = (0.0, 0.0, 0.0, 0.0);
    for (r, row_gold) in corpus.rankings.iter().zip(&inputs.golds) {
        fallback += usize::from(row_gold.fallback);
        let gold = &row_gold.tables;
        rows.push(QuestionRanking::new(&r.ranked, gold));
        let set = high_confidence_set(
            &r.ranked,
            |t| r.scores.get(t).copied(),
            options.confidence_threshold,
        );
        let s = score_table_set(&set, gold);
        size += s.size as f64;
        prec += s.precision;
        rec += s.recall;
        cover += f64::from(u8::from(s.covers_gold));
    }
    let n = rows.len().max(1) as f64;
    let worst: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.worst_gold_rank().map(|w| w as f64))
        .collect();
    let latencies: Vec<f64> = corpus.rankings.iter().filter_map(|r| r.latency_s).collect();
    RetrievalSection {
        n_questions: rows.len(),
        universe_size: corpus
            .rankings
            .iter()
            .map(|r| r.ranked.len())
            .max()
            .unwrap_or(0)
            .max(body.universe.len()),
        gold_rule: inputs.gold_rule,
        gold_fallback_rows: fallback,
        curves: retrieval_curves(&rows, options.k_max),
        k_star: k_star_distribution(&rows),
        mean_worst_gold_rank: mean(&worst),
        by_gold_count: curves_by_gold_count(&rows, options.k_max),
        high_confidence: ConfidenceSetSummary {
            threshold: options.confidence_threshold,
            mean_size: size / n,
            precision: prec / n,
            recall: rec / n,
            full_coverage: cover / n,
        },
        latency: LatencySummary {
            n: latencies.len(),
            median_report: upper_median(&latencies),
            median: median(&latencies),
            p90_report: report_p90(&latencies),
        },
        gold_rule_differences: inputs.differences.clone(),
    }
}
