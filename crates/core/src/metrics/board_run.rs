//! The leaderboard rows of one corpus, built a few models at a time ([`BoardRun::step`]) so a
//! caller can hand the thread back between steps: first every model's column, then every
//! model's row. The values are those of [`super::report_board::board_section`] (without the
//! board facts and pass@B, which the leaderboard view does not show).

use serde::{Deserialize, Serialize};

use super::leaderboard::{LeaderboardRow, ModelColumn, row, scores, sort_rows, top_of};
use super::report_board::{LeaderboardEntry, model_column, named};
use super::stepwise::Stepwise;
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

/// The headline corpus among `boards` (#17: "name which corpus is the headline one"): the
/// one with the most questions, the first of equals (a bundle marks none today).
pub fn headline<'a>(boards: &[&'a CorpusBoard]) -> Option<&'a str> {
    let most = boards.iter().map(|c| c.questions).max()?;
    boards
        .iter()
        .find(|c| c.questions == most)
        .map(|c| c.corpus.as_str())
}

/// Every corpus with results pooled into one board (#17, "allow pooling both"): the
/// questions of all of them as one question × model matrix, in body order, scored by the
/// board's own rules. A model not run on a corpus has no cells there (missing, as the
/// harness's matrix treats a cell it lacks), so its `n` counts only the questions it had,
/// and its paired test against the top model runs over the questions both were scored on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PooledBoard {
    /// The pooled corpora, in body order.
    pub corpora: Vec<String>,
    /// Questions (`results.jsonl` rows) of all of them.
    pub questions: usize,
    /// The rows, by pass descending.
    pub rows: Vec<LeaderboardEntry>,
}

/// The pooled board of every corpus with results, legacy `loss` cells scored as `loss`
/// says; `None` with fewer than two such corpora.
pub fn pooled_board(body: &BundleBody, loss: LossRule) -> Option<PooledBoard> {
    let corpora: Vec<&Corpus> = body
        .corpora
        .iter()
        .filter(|c| !c.results.is_empty())
        .collect();
    if corpora.len() < 2 {
        return None;
    }
    let parts: Vec<(usize, Vec<ModelColumn>)> = corpora
        .iter()
        .map(|c| {
            let columns = (0..c.models.len())
                .map(|i| model_column(c, i, loss))
                .collect();
            (c.results.len(), columns)
        })
        .collect();
    Some(PooledBoard {
        corpora: corpora.iter().map(|c| c.name.clone()).collect(),
        questions: parts.iter().map(|(n, _)| n).sum(),
        rows: rows_of_columns(body, &pool_columns(parts)),
    })
}

/// The columns of several corpora as one: each model (first seen first) gets its cells of
/// every part in turn, `None` for each question of a part it is not in. A part is the number
/// of its questions and its columns (each that long).
pub fn pool_columns(parts: Vec<(usize, Vec<ModelColumn>)>) -> Vec<ModelColumn> {
    let total: usize = parts.iter().map(|(n, _)| n).sum();
    let mut models: Vec<String> = Vec::new();
    for (_, columns) in &parts {
        for c in columns {
            if !models.contains(&c.model) {
                models.push(c.model.clone());
            }
        }
    }
    let mut pooled: Vec<ModelColumn> = models
        .into_iter()
        .map(|model| ModelColumn {
            model,
            cells: Vec::with_capacity(total),
        })
        .collect();
    for (n, columns) in parts {
        for out in &mut pooled {
            match columns.iter().position(|c| c.model == out.model) {
                Some(i) => out.cells.extend(columns[i].cells.iter().cloned()),
                None => out.cells.extend(std::iter::repeat_n(None, n)),
            }
        }
    }
    pooled
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
}

impl Stepwise for BoardRun<'_> {
    type Output = Vec<LeaderboardEntry>;

    fn total(&self) -> usize {
        self.len()
    }

    /// Work items done.
    fn done(&self) -> usize {
        self.columns.len() + self.rows.len()
    }

    /// Does up to `n` more work items; true when finished.
    fn step(&mut self, n: usize) -> bool {
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

    /// The rows by pass descending, with display names.
    fn output(self) -> Vec<LeaderboardEntry> {
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
