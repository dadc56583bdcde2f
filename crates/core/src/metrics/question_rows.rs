//! Per-question rows of the table-ranking view: one [`QuestionRow`] per ranking row, with
//! the same gold choice ([`GoldChooser`]) and kernels as
//! [`super::report_retrieval::retrieval_section`], so the mean of a column equals the
//! section's curve at that `k` bit for bit.

use serde::{Deserialize, Serialize};

use super::confidence::{ConfidenceSetScore, high_confidence_set, score_table_set};
use super::ranking::{
    all_required_at_k, gold_positions, k_star_from_positions, ndcg_from_positions,
    recall_from_positions, worst_gold_rank_from_positions,
};
use super::report::ReportOptions;
use super::report_retrieval::RetrievalInputs;
use std::collections::HashMap;

use super::row_gold::RowGold;
use super::stepwise::Stepwise;
use crate::bundle::{BundleBody, Corpus, RankingRow};

/// One table of a question's ranking, in rank order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableScore {
    /// Table name (`ns.table`).
    pub table: String,
    /// Stored P(yes); a missing score is `0.0`, as the harness scores a missing answer.
    pub p: f64,
    /// Whether the table is in the row's gold set.
    pub is_gold: bool,
}

/// One question of the ranking view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionRow {
    /// Join key.
    pub trace_id: String,
    /// `nl_question` of the annotated question; `""` when the question is not in the corpus.
    pub question: String,
    /// Gold tables under the chosen rule, sorted.
    pub gold: Vec<String>,
    /// True when the parser rule fell back to the stored gold (see [`GoldChooser`]).
    pub gold_fallback: bool,
    /// `|G|`, counting gold tables absent from the ranking.
    pub n_gold: usize,
    /// 1-based ranks of the gold tables found in `ranked`, ascending (first occurrences).
    pub gold_ranks: Vec<usize>,
    /// Rank of the worst-ranked gold table **that is ranked**; `None` when no gold table is
    /// ranked (`worst_gold_rank_from_positions`). Equals `k_star` when every gold table is
    /// ranked; when some are missing it is still `Some` if at least one was found.
    pub worst_gold_rank: Option<usize>,
    /// Smallest k whose top k holds every gold table; `None` if some gold table is unranked
    /// or the gold set is empty.
    pub k_star: Option<usize>,
    /// nDCG@10 (binary gain, log2 discount).
    pub ndcg_at_10: f64,
    /// recall@5.
    pub recall_at_5: f64,
    /// all-required@5.
    pub all_required_at_5: bool,
    /// Ranking-call latency, seconds.
    pub latency_s: Option<f64>,
    /// High-confidence set at `options.confidence_threshold` (P ≥ t, else `{ranked[0]}`).
    pub high_confidence: Vec<String>,
    /// That set scored against the gold set.
    pub high_confidence_score: ConfidenceSetScore,
    /// Every ranked table with its P(yes), in rank order.
    pub scores: Vec<TableScore>,
    /// True when a gold table sits below rank 5 or is not ranked at all.
    pub needs_below_rank_5: bool,
}

impl QuestionRow {
    /// 0-based gold positions (the kernels' input).
    fn positions(&self) -> Vec<usize> {
        self.gold_ranks
            .iter()
            .map(|r| r.saturating_sub(1))
            .collect()
    }

    /// The row's ranking as every ranking metric reads it (gold positions and `|G|`): what
    /// the compare view pairs across runs (`super::compare_ranking`).
    pub fn ranking(&self) -> super::curves::QuestionRanking {
        super::curves::QuestionRanking {
            positions: self.positions(),
            n_gold: self.n_gold,
        }
    }

    /// nDCG@k of this row (same kernel as the curves).
    pub fn ndcg_at(&self, k: usize) -> f64 {
        ndcg_from_positions(&self.positions(), self.n_gold, k)
    }

    /// recall@k of this row.
    pub fn recall_at(&self, k: usize) -> f64 {
        recall_from_positions(&self.positions(), self.n_gold, k)
    }

    /// all-required@k of this row (vacuously true for an empty gold set).
    pub fn all_required_at(&self, k: usize) -> bool {
        self.gold_ranks.iter().filter(|&&r| r <= k).count() == self.n_gold
    }
}

/// Builds one [`QuestionRow`] per ranking row of `corpus`, in `corpus.rankings` order.
///
/// Uses `options.gold_rule` and `options.confidence_threshold`; `k_max` is not used (the
/// fixed cutoffs 10 and 5 are the harness's; use [`QuestionRow::ndcg_at`] for others).
pub fn question_rows(
    body: &BundleBody,
    corpus: &Corpus,
    options: &ReportOptions,
) -> Vec<QuestionRow> {
    let inputs = RetrievalInputs::new(body, corpus, options.gold_rule);
    question_rows_with(corpus, &inputs, options)
}

/// [`question_rows`] from prepared [`RetrievalInputs`] of the same `corpus` (no SQL parsing;
/// the gold rule is the inputs').
pub fn question_rows_with(
    corpus: &Corpus,
    inputs: &RetrievalInputs,
    options: &ReportOptions,
) -> Vec<QuestionRow> {
    QuestionRowsRun::new(corpus, inputs, options).finish()
}

/// [`question_rows_with`] a few rows at a time (a page yields between [`Self::step`]s); the
/// rows equal the one-shot ones.
#[derive(Debug)]
pub struct QuestionRowsRun<'a> {
    corpus: &'a Corpus,
    inputs: &'a RetrievalInputs,
    threshold: f64,
    questions: HashMap<&'a str, usize>,
    rows: Vec<QuestionRow>,
    with_scores: bool,
}

impl<'a> QuestionRowsRun<'a> {
    /// Prepares the run (the question index; no row built yet).
    pub fn new(corpus: &'a Corpus, inputs: &'a RetrievalInputs, options: &ReportOptions) -> Self {
        QuestionRowsRun {
            corpus,
            inputs,
            threshold: options.confidence_threshold,
            questions: corpus.question_index(),
            rows: Vec::with_capacity(corpus.rankings.len()),
            with_scores: true,
        }
    }

    /// Rows with empty `scores` (a list shows none of them; on the `large` run they are
    /// 3.5 million table names copied). Every other field is the same.
    pub fn without_scores(mut self) -> Self {
        self.with_scores = false;
        self
    }

    /// The row of ranking row `i` (with scores), alone; `None` past the last row.
    pub fn row_at(&self, i: usize) -> Option<QuestionRow> {
        let r = self.corpus.rankings.get(i)?;
        let gold = self.inputs.golds.get(i)?;
        Some(QuestionRow {
            scores: table_scores(r, &gold.tables),
            ..self.row(r, gold)
        })
    }

    /// Rows in all.
    pub fn len(&self) -> usize {
        self.corpus.rankings.len().min(self.inputs.golds.len())
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn row(&self, r: &RankingRow, row_gold: &RowGold) -> QuestionRow {
        let gold = &row_gold.tables;
        let positions = gold_positions(&r.ranked, gold);
        let n_gold = gold.len();
        let worst = worst_gold_rank_from_positions(&positions);
        let set = high_confidence_set(&r.ranked, |t| r.scores().get(t), self.threshold);
        let question = self
            .questions
            .get(r.trace_id.as_str())
            .and_then(|&i| self.corpus.questions.get(i))
            .map_or_else(String::new, |q| q.nl_question.clone());
        QuestionRow {
            trace_id: r.trace_id.clone(),
            question,
            gold: row_gold.sorted(),
            gold_fallback: row_gold.fallback,
            n_gold,
            gold_ranks: positions.iter().map(|p| p + 1).collect(),
            worst_gold_rank: worst,
            k_star: k_star_from_positions(&positions, n_gold),
            ndcg_at_10: ndcg_from_positions(&positions, n_gold, 10),
            recall_at_5: recall_from_positions(&positions, n_gold, 5),
            all_required_at_5: all_required_at_k(&r.ranked, gold, 5),
            latency_s: r.latency_s,
            high_confidence_score: score_table_set(&set, gold),
            high_confidence: set.into_iter().map(str::to_string).collect(),
            scores: if self.with_scores {
                table_scores(r, gold)
            } else {
                Vec::new()
            },
            needs_below_rank_5: positions.len() < n_gold || worst.is_some_and(|w| w > 5),
        }
    }
}

/// Every ranked table of `r` with its stored P(yes) (missing: `0.0`) and gold flag.
fn table_scores<S: std::hash::BuildHasher>(
    r: &RankingRow,
    gold: &std::collections::HashSet<String, S>,
) -> Vec<TableScore> {
    r.ranked
        .iter()
        .map(|t| TableScore {
            table: t.to_string(),
            p: r.scores().get(t).unwrap_or(0.0),
            is_gold: gold.contains(&**t),
        })
        .collect()
}

impl Stepwise for QuestionRowsRun<'_> {
    type Output = Vec<QuestionRow>;

    fn total(&self) -> usize {
        self.len()
    }

    /// Rows built so far.
    fn done(&self) -> usize {
        self.rows.len()
    }

    /// Builds up to `n` more rows; true once every row is built.
    fn step(&mut self, n: usize) -> bool {
        let start = self.rows.len();
        let end = self.len().min(start.saturating_add(n));
        for i in start..end {
            let (r, row_gold) = (&self.corpus.rankings[i], &self.inputs.golds[i]);
            let row = self.row(r, row_gold);
            self.rows.push(row);
        }
        end == self.len()
    }

    /// Every row, in `corpus.rankings` order.
    fn output(self) -> Vec<QuestionRow> {
        self.rows
    }
}

#[cfg(test)]
#[path = "question_rows_tests.rs"]
pub(crate) mod tests;
