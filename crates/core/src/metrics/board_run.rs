//! The leaderboard rows of one corpus, built a few models at a time ([`BoardRun::step`]) so a
//! caller can hand the thread back between steps: first every model's column, then every
//! model's row. The values are those of [`super::report_board::board_section`] (without the
//! board facts and pass@B, which the leaderboard view does not show).

use serde::{Deserialize, Serialize};

use super::leaderboard::{LeaderboardRow, ModelColumn, row, scores, sort_rows, top_of};
use super::report_board::{LeaderboardEntry, model_column, named};
use crate::bundle::{BundleBody, Corpus, LossRule};

/// One corpus's leaderboard, as the dashboard's leaderboard view asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusBoard {
    /// Corpus name.
    pub corpus: String,
    /// Questions (`results.jsonl` rows) of the corpus.
    pub questions: usize,
    /// The rows, by pass descending ([`BoardRun::finish`]).
    pub rows: Vec<LeaderboardEntry>,
}

/// The board of every corpus with results, in body order, legacy `loss` cells scored as
/// `loss` says.
pub fn boards(body: &BundleBody, loss: LossRule) -> Vec<CorpusBoard> {
    body.corpora
        .iter()
        .filter(|c| !c.results.is_empty())
        .map(|c| CorpusBoard {
            corpus: c.name.clone(),
            questions: c.results.len(),
            rows: BoardRun::new(body, c, loss).finish(),
        })
        .collect()
}

/// A resumable leaderboard build: `2 × models` work items (a column, then a row, per model).
pub struct BoardRun<'a> {
    body: &'a BundleBody,
    corpus: &'a Corpus,
    loss: LossRule,
    columns: Vec<ModelColumn>,
    scores: Vec<Vec<Option<f64>>>,
    top: Option<usize>,
    rows: Vec<LeaderboardRow>,
}

impl<'a> BoardRun<'a> {
    /// A run over `corpus` (display names from `body`), legacy `loss` cells scored as `loss`
    /// says; nothing computed yet.
    pub fn new(body: &'a BundleBody, corpus: &'a Corpus, loss: LossRule) -> Self {
        BoardRun {
            body,
            corpus,
            loss,
            columns: Vec::new(),
            scores: Vec::new(),
            top: None,
            rows: Vec::new(),
        }
    }

    /// Work items in all: two per model.
    pub fn len(&self) -> usize {
        2 * self.corpus.models.len()
    }

    /// Whether there is nothing to do (no models).
    pub fn is_empty(&self) -> bool {
        self.corpus.models.is_empty()
    }

    /// Work items done.
    pub fn done(&self) -> usize {
        self.columns.len() + self.rows.len()
    }

    /// Does up to `n` more work items; true when finished.
    pub fn step(&mut self, n: usize) -> bool {
        let models = self.corpus.models.len();
        for _ in 0..n {
            if self.columns.len() < models {
                let col = model_column(self.corpus, self.columns.len(), self.loss);
                self.scores.push(scores(&col));
                self.columns.push(col);
                if self.columns.len() == models {
                    self.top = top_of(&self.scores);
                }
            } else if self.rows.len() < models {
                let i = self.rows.len();
                self.rows
                    .push(row_vs_top(&self.columns, &self.scores, self.top, i));
            } else {
                break;
            }
        }
        self.done() == self.len()
    }

    /// Finishes the run: the rows by pass descending, with display names.
    pub fn finish(mut self) -> Vec<LeaderboardEntry> {
        self.step(self.len());
        let mut rows = self.rows;
        sort_rows(&mut rows);
        named(self.body, rows)
    }
}

#[cfg(test)]
#[path = "board_run_tests.rs"]
mod tests;

/// Model `i`'s row, its paired test against the top model `top`.
fn row_vs_top(
    columns: &[ModelColumn],
    scores: &[Vec<Option<f64>>],
    top: Option<usize>,
    i: usize,
) -> LeaderboardRow {
    let top = top.map_or(&scores[i], |t| &scores[t]);
    row(&columns[i], &scores[i], top)
}

/// The rows of model columns built elsewhere (from `runlens.bundle/2`'s cell columns, see
/// [`crate::bundle::v2::facts`]), exactly as [`BoardRun::finish`] gives them for the same cells.
pub fn rows_of_columns(body: &BundleBody, columns: &[ModelColumn]) -> Vec<LeaderboardEntry> {
    let scores: Vec<Vec<Option<f64>>> = columns.iter().map(scores).collect();
    let top = top_of(&scores);
    let mut rows: Vec<LeaderboardRow> = (0..columns.len())
        .map(|i| row_vs_top(columns, &scores, top, i))
        .collect();
    sort_rows(&mut rows);
    named(body, rows)
}
