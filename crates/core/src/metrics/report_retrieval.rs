//! The `retrieval` section of a [`super::report::MetricsReport`].

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use super::confidence::{high_confidence_set, score_table_set};
use super::curves::{
    KStarDistribution, QuestionRanking, RetrievalCurves, curves_by_gold_count, k_star_distribution,
    retrieval_curves,
};
use super::gold_tables::{GoldDifference, GoldRule, TableMatcher, gold_rule_differences};
use super::report_options::ReportOptions;
use super::row_gold::{GoldChooser, RowGold};
use super::stats::{mean, median, report_p90, upper_median};
use super::stepwise::Stepwise;
use crate::bundle::{BundleBody, Corpus};

/// Macro means of the high-confidence set over questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetrievalSection {
    /// Universe size (`ranked` length of the longest row, or the bundle universe).
    pub universe_size: usize,
    /// The gold rule used.
    pub gold_rule: GoldRule,
    /// Rows whose gold came from the stored `gold` because the namespaces, the question or
    /// its `gt_sql` were unavailable (parser rule only; see [`GoldChooser`]).
    pub gold_fallback_rows: usize,
    /// Curves (`n_questions`: the ranking rows averaged; `k`, `ndcg`, `recall`,
    /// `all_required`, `precision`, `hit`, `mrr`). Flattened, so `n_questions` is written
    /// once (the section no longer repeats it: JSON with a duplicate key).
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
        RetrievalInputsRun::new(body, corpus, gold_rule).finish()
    }
}

/// [`RetrievalInputs::new`] a few rows at a time, so a page can yield between steps; the
/// result equals the one-shot build exactly (the same per-row work, in the same order).
#[derive(Debug)]
pub struct RetrievalInputsRun<'a> {
    corpus: &'a Corpus,
    chooser: GoldChooser<'a>,
    /// Present when the bundle has valid namespaces (then the rule differences are found).
    matcher: Option<TableMatcher>,
    /// Trace ids of the ranking rows (questions without a ranking row are skipped).
    ids: HashSet<&'a str>,
    next_row: usize,
    next_question: usize,
    inputs: RetrievalInputs,
}

impl<'a> RetrievalInputsRun<'a> {
    /// Prepares the build (the matcher and the question index; no SQL parsed yet).
    pub fn new(body: &'a BundleBody, corpus: &'a Corpus, gold_rule: GoldRule) -> Self {
        let matcher = (!body.namespaces.is_empty())
            .then(|| TableMatcher::new(&body.namespaces).ok())
            .flatten();
        RetrievalInputsRun::with_matcher(corpus, gold_rule, matcher)
    }

    /// [`Self::new`] with the bundle's matcher (compiled from its namespaces; `None` when
    /// they are missing or invalid), e.g. one answering from
    /// [`super::gold_tables::StatementParses`] so that no SQL is parsed here.
    pub fn with_matcher(
        corpus: &'a Corpus,
        gold_rule: GoldRule,
        matcher: Option<TableMatcher>,
    ) -> Self {
        RetrievalInputsRun {
            corpus,
            chooser: GoldChooser::with_matcher(matcher.clone(), corpus, gold_rule),
            ids: corpus
                .rankings
                .iter()
                .map(|r| r.trace_id.as_str())
                .collect(),
            matcher,
            next_row: 0,
            next_question: 0,
            inputs: RetrievalInputs {
                gold_rule,
                golds: Vec::with_capacity(corpus.rankings.len()),
                differences: Vec::new(),
            },
        }
    }

    /// Work items in all: ranking rows, then questions (for the rule differences).
    pub fn len(&self) -> usize {
        self.corpus.rankings.len()
            + self
                .matcher
                .as_ref()
                .map_or(0, |_| self.corpus.questions.len())
    }

    /// Whether there is nothing to do at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Stepwise for RetrievalInputsRun<'_> {
    type Output = RetrievalInputs;

    fn total(&self) -> usize {
        self.len()
    }

    /// Work items done so far (≤ [`Self::len`]).
    fn done(&self) -> usize {
        self.next_row + self.next_question
    }

    /// Does up to `n` more work items (rows first, then questions); true once finished.
    fn step(&mut self, n: usize) -> bool {
        let mut budget = n;
        let rows = &self.corpus.rankings;
        let end = rows.len().min(self.next_row.saturating_add(budget));
        for r in &rows[self.next_row..end] {
            self.inputs.golds.push(self.chooser.gold(r));
        }
        budget -= end - self.next_row;
        self.next_row = end;
        let Some(m) = &self.matcher else {
            return self.next_row == rows.len();
        };
        let qs = &self.corpus.questions;
        let end = qs.len().min(self.next_question.saturating_add(budget));
        let ids = &self.ids;
        let chunk = qs[self.next_question..end]
            .iter()
            .filter(|q| ids.is_empty() || ids.contains(q.trace_id.as_str()));
        self.inputs.differences.extend(gold_rule_differences(
            m,
            chunk.map(|q| (q.trace_id.as_str(), q.gt_sql.as_slice())),
        ));
        self.next_question = end;
        self.next_row == rows.len() && self.next_question == qs.len()
    }

    /// The gold sets and rule differences.
    fn output(self) -> RetrievalInputs {
        self.inputs
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
    RetrievalSectionRun::new(body, corpus, inputs, options).finish()
}

/// [`retrieval_section_with`] a few ranking rows at a time: the per-row reduction and the
/// high-confidence sums run in [`Self::step`]s, in row order, so the section equals the
/// one-shot one bit for bit; the curves are computed in [`Self::finish`].
#[derive(Debug)]
pub struct RetrievalSectionRun<'a> {
    body: &'a BundleBody,
    corpus: &'a Corpus,
    inputs: &'a RetrievalInputs,
    options: ReportOptions,
    next: usize,
    fallback: usize,
    rows: Vec<QuestionRanking>,
    sums: [f64; 4],
}

impl<'a> RetrievalSectionRun<'a> {
    /// Prepares the run (nothing computed yet).
    pub fn new(
        body: &'a BundleBody,
        corpus: &'a Corpus,
        inputs: &'a RetrievalInputs,
        options: &ReportOptions,
    ) -> Self {
        RetrievalSectionRun {
            body,
            corpus,
            inputs,
            options: options.clone(),
            next: 0,
            fallback: 0,
            rows: Vec::with_capacity(corpus.rankings.len()),
            sums: [0.0; 4],
        }
    }

    /// Ranking rows in all.
    pub fn len(&self) -> usize {
        self.corpus.rankings.len().min(self.inputs.golds.len())
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Stepwise for RetrievalSectionRun<'_> {
    type Output = RetrievalSection;

    fn total(&self) -> usize {
        self.len()
    }

    /// Rows reduced so far.
    fn done(&self) -> usize {
        self.next
    }

    /// Reduces up to `n` more rows; true once every row is reduced.
    fn step(&mut self, n: usize) -> bool {
        let end = self.len().min(self.next.saturating_add(n));
        let [size, prec, rec, cover] = &mut self.sums;
        for (r, row_gold) in self.corpus.rankings[self.next..end]
            .iter()
            .zip(&self.inputs.golds[self.next..end])
        {
            self.fallback += usize::from(row_gold.fallback);
            let gold = &row_gold.tables;
            self.rows.push(QuestionRanking::new(&r.ranked, gold));
            let set = high_confidence_set(
                &r.ranked,
                |t| r.scores().get(t),
                self.options.confidence_threshold,
            );
            let s = score_table_set(&set, gold);
            *size += s.size as f64;
            *prec += s.precision;
            *rec += s.recall;
            *cover += f64::from(u8::from(s.covers_gold));
        }
        self.next = end;
        end == self.len()
    }

    /// The section from the reduced rows.
    fn output(self) -> RetrievalSection {
        let (body, corpus, options, rows) = (self.body, self.corpus, &self.options, &self.rows);
        let [size, prec, rec, cover] = self.sums;
        let n = rows.len().max(1) as f64;
        let worst: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.worst_gold_rank().map(|w| w as f64))
            .collect();
        let latencies: Vec<f64> = corpus.rankings.iter().filter_map(|r| r.latency_s).collect();
        RetrievalSection {
            universe_size: corpus
                .rankings
                .iter()
                .map(|r| r.ranked.len())
                .max()
                .unwrap_or(0)
                .max(body.universe.len()),
            gold_rule: self.inputs.gold_rule,
            gold_fallback_rows: self.fallback,
            curves: retrieval_curves(rows, options.k_max),
            k_star: k_star_distribution(rows),
            mean_worst_gold_rank: mean(&worst),
            by_gold_count: curves_by_gold_count(rows, options.k_max),
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
            gold_rule_differences: self.inputs.differences.clone(),
        }
    }
}
