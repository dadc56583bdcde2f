//! The question × model matrix (the dashboard's "Matrix" view), computed where the bundle
//! lives: one row per question of a corpus, one column per model, each cell marked by its
//! outcome ([`Mark`]); rows filtered (failures only, a sub-mode of the labels in force, a
//! search over the trace id and question text) and sorted (corpus order, hardest or easiest
//! first by the models' score on it). The view asks for the counts first, then pages of rows
//! as they scroll into view.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::bundle::{BundleBody, Cell, CellParts, Outcome};
use crate::metrics::cell_facts::is_turn_limited;
use crate::metrics::failures_view::Labelled;
pub use crate::overrides::Relabel;
use crate::overrides::RelabelledLabels;

/// What one cell of the matrix shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Outcome `pass`.
    Pass,
    /// Outcome `tie`.
    Tie,
    /// Outcome `fail`.
    Fail,
    /// The legacy outcome `loss`.
    Loss,
    /// A failed (or unjudged) run that hit the turn limit (its error contains `"max turns"`,
    /// the rule of 08_results_stats's `tl`): not a plain fail, the agent ran out of turns.
    TurnLimited,
    /// Outcome `error` (infra or judge failure), or no outcome and a runner error.
    Error,
    /// An outcome the harness does not define, or none.
    Unknown,
    /// The model has no run on this question (a `null` cell or no cell).
    Missing,
}

impl Mark {
    /// Every mark, in the legend's order.
    pub const ALL: [Mark; 8] = [
        Mark::Pass,
        Mark::Tie,
        Mark::Fail,
        Mark::Loss,
        Mark::TurnLimited,
        Mark::Error,
        Mark::Unknown,
        Mark::Missing,
    ];

    /// The mark of a cell (`None`: no run).
    ///
    /// A pass or tie stays one whatever its error says; any other outcome of a turn-limited
    /// run is [`Mark::TurnLimited`].
    pub fn of(cell: Option<&Cell>) -> Mark {
        Mark::of_parts(cell.map(CellParts::of).as_ref())
    }

    /// [`Mark::of`] a cell from what the metrics read of it ([`CellParts`]).
    pub fn of_parts(cell: Option<&CellParts<'_>>) -> Mark {
        let Some(cell) = cell else {
            return Mark::Missing;
        };
        let outcome = cell.outcome.as_deref();
        match outcome {
            Some(Outcome::Pass) => return Mark::Pass,
            Some(Outcome::Tie) => return Mark::Tie,
            _ => {}
        }
        if is_turn_limited(cell.error) {
            return Mark::TurnLimited;
        }
        match outcome {
            Some(Outcome::Fail) => Mark::Fail,
            Some(Outcome::Loss) => Mark::Loss,
            Some(Outcome::Error) => Mark::Error,
            None if cell.error.is_some() => Mark::Error,
            _ => Mark::Unknown,
        }
    }

    /// The key used in the URL-free parts of the page (`data-outcome`, the legend).
    pub fn key(self) -> &'static str {
        match self {
            Mark::Pass => "pass",
            Mark::Tie => "tie",
            Mark::Fail => "fail",
            Mark::Loss => "loss",
            Mark::TurnLimited => "turn_limited",
            Mark::Error => "error",
            Mark::Unknown => "unknown",
            Mark::Missing => "missing",
        }
    }

    /// Words for the legend and a cell's tooltip.
    pub fn label(self) -> &'static str {
        match self {
            Mark::Pass => "pass",
            Mark::Tie => "tie",
            Mark::Fail => "fail",
            Mark::Loss => "loss (legacy fail)",
            Mark::TurnLimited => "turn-limited",
            Mark::Error => "error",
            Mark::Unknown => "no outcome",
            Mark::Missing => "no run",
        }
    }

    /// One character per mark, so a row's marks travel as a short string.
    pub fn code(self) -> char {
        match self {
            Mark::Pass => 'p',
            Mark::Tie => 't',
            Mark::Fail => 'f',
            Mark::Loss => 'l',
            Mark::TurnLimited => 'x',
            Mark::Error => 'e',
            Mark::Unknown => 'u',
            Mark::Missing => '-',
        }
    }

    /// The mark of a [`Mark::code`].
    pub fn from_code(c: char) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.code() == c)
    }

    /// Whether the model failed the question: fail, legacy loss or turn-limited (an error is
    /// the infrastructure's, not the model's).
    pub fn is_failure(self) -> bool {
        matches!(self, Mark::Fail | Mark::Loss | Mark::TurnLimited)
    }
}

/// The order of the rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixSort {
    /// The corpus's results order.
    #[default]
    Corpus,
    /// Lowest score first (score: pass 1, tie ½ over the shown models); ties in corpus order.
    Hardest,
    /// Highest score first; ties in corpus order.
    Easiest,
}

impl MatrixSort {
    /// The URL value (`mxsort=`); the default has none.
    pub fn key(self) -> &'static str {
        match self {
            MatrixSort::Corpus => "corpus",
            MatrixSort::Hardest => "hardest",
            MatrixSort::Easiest => "easiest",
        }
    }

    /// The sort a URL value names, if any.
    pub fn from_key(key: &str) -> Option<MatrixSort> {
        [MatrixSort::Corpus, MatrixSort::Hardest, MatrixSort::Easiest]
            .into_iter()
            .find(|s| s.key() == key)
    }
}

/// What the matrix view asks for.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MatrixQuery {
    /// The corpus; `None` (or one without results) is the first corpus with results.
    pub corpus: Option<String>,
    /// The model keys shown (empty: every model of the corpus), in the corpus's order.
    pub models: Vec<String>,
    /// Only questions some shown model failed ([`Mark::is_failure`]).
    pub failures_only: bool,
    /// Only questions with a shown model's failure label (in force) of this sub-mode.
    pub sub_mode: Option<String>,
    /// Only questions whose trace id or text contains this (case-insensitive).
    pub search: String,
    /// The order of the rows.
    pub sort: MatrixSort,
    /// Re-labels in force, in the order applied.
    pub relabels: Vec<Relabel>,
}

/// The answer to a [`MatrixQuery`]: what the view shows above the rows.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MatrixAnswer {
    /// Corpora with results, in bundle order.
    pub corpora: Vec<String>,
    /// The corpus shown (`None`: the bundle has no results).
    pub corpus: Option<String>,
    /// The columns: model key and display name.
    pub models: Vec<(String, String)>,
    /// The sub-modes of the labels in force of the shown models, in first-seen order.
    pub sub_modes: Vec<String>,
    /// Questions of the corpus.
    pub questions: usize,
    /// Rows under the filters.
    pub rows: usize,
    /// Cells of those rows by mark, in [`Mark::ALL`] order (marks with none left out).
    pub counts: Vec<(Mark, usize)>,
}

/// One row of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatrixRow {
    /// Question key.
    pub trace_id: String,
    /// Question text (the annotated question's, else the results row's).
    pub question: String,
    /// Shown models that passed.
    pub passed: usize,
    /// Shown models whose outcome is a tie.
    pub tied: usize,
    /// One [`Mark::code`] per shown model, in column order.
    pub marks: String,
    /// The sub-mode of each shown model's failure label in force, where it has one: column
    /// index and sub-mode.
    pub sub_modes: Vec<(usize, String)>,
}

impl MatrixRow {
    /// The mark of column `i`.
    pub fn mark(&self, i: usize) -> Mark {
        self.marks
            .chars()
            .nth(i)
            .and_then(Mark::from_code)
            .unwrap_or(Mark::Missing)
    }

    /// The sub-mode of column `i`'s label in force, if any.
    pub fn sub_mode(&self, i: usize) -> Option<&str> {
        self.sub_modes
            .iter()
            .find(|(c, _)| *c == i)
            .map(|(_, s)| s.as_str())
    }

    /// The score the hardest/easiest sorts use, doubled to stay whole: 2 per pass, 1 per tie.
    fn doubled_score(&self) -> usize {
        2 * self.passed + self.tied
    }
}

/// Answers matrix queries on one bundle, keeping the labels per set of re-labels and the
/// rows of the last question (its pages are slices of them). Make a new one for another
/// bundle.
#[derive(Debug, Default)]
pub struct MatrixAnswerer {
    relabelled: RelabelledLabels,
    last: Option<(MatrixQuery, Built)>,
}

/// What one question's rows are built into.
#[derive(Debug, Clone, Default)]
struct Built {
    answer: MatrixAnswer,
    rows: Vec<MatrixRow>,
}

impl MatrixAnswerer {
    /// The answer to `q`.
    pub fn answer(&mut self, body: &BundleBody, q: &MatrixQuery) -> MatrixAnswer {
        self.built(body, q).answer.clone()
    }

    /// Rows `[start, end)` of `q`'s rows (fewer past the end).
    pub fn page(
        &mut self,
        body: &BundleBody,
        q: &MatrixQuery,
        start: usize,
        end: usize,
    ) -> Vec<MatrixRow> {
        let rows = &self.built(body, q).rows;
        let end = end.min(rows.len());
        rows.get(start.min(end)..end).unwrap_or_default().to_vec()
    }

    fn built(&mut self, body: &BundleBody, q: &MatrixQuery) -> &Built {
        let relabelled = self.relabelled.put(body, &q.relabels);
        if relabelled || self.last.as_ref().is_none_or(|(k, _)| k != q) {
            let built = build(Labelled::with(body, self.relabelled.labels()), q);
            self.last = Some((q.clone(), built));
        }
        &self.last.as_ref().expect("built above").1
    }
}

/// The rows and answer of `q` over the labels in force of `b`.
fn build(b: Labelled<'_>, q: &MatrixQuery) -> Built {
    let body = b.body;
    let corpora: Vec<String> = body
        .corpora
        .iter()
        .filter(|c| !c.results.is_empty())
        .map(|c| c.name.clone())
        .collect();
    let shown = q
        .corpus
        .as_deref()
        .filter(|n| corpora.iter().any(|c| c == n))
        .or_else(|| corpora.first().map(String::as_str));
    let Some((index, corpus)) = shown.and_then(|name| {
        body.corpora
            .iter()
            .enumerate()
            .find(|(_, c)| c.name == name)
    }) else {
        return Built {
            answer: MatrixAnswer {
                corpora,
                ..MatrixAnswer::default()
            },
            rows: Vec::new(),
        };
    };
    let models: Vec<&str> = corpus
        .models
        .iter()
        .map(String::as_str)
        .filter(|m| q.models.is_empty() || q.models.iter().any(|k| k == m))
        .collect();
    let column: HashMap<&str, usize> = models.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    // The label in force of each (question, shown model): a later label of a cell wins, as
    // everywhere labels are read by key.
    let mut labels: HashMap<(&str, usize), &str> = HashMap::new();
    let mut sub_modes: Vec<String> = Vec::new();
    for l in b.labels(index) {
        let Some(&col) = column.get(l.model.as_str()) else {
            continue;
        };
        match l.sub_mode.as_deref() {
            Some(s) => {
                labels.insert((l.trace_id.as_str(), col), s);
                if !sub_modes.iter().any(|k| k == s) {
                    sub_modes.push(s.to_owned());
                }
            }
            None => {
                labels.remove(&(l.trace_id.as_str(), col));
            }
        }
    }
    let search = q.search.trim().to_lowercase();
    let mut rows: Vec<MatrixRow> = Vec::new();
    let questions = corpus.question_index();
    for (row, r) in corpus.results.iter().enumerate() {
        let question = questions
            .get(r.trace_id.as_str())
            .map(|&i| corpus.questions[i].nl_question.as_str())
            .or(r.nl_question.as_deref())
            .unwrap_or_default();
        if !search.is_empty()
            && !r.trace_id.to_lowercase().contains(&search)
            && !question.to_lowercase().contains(&search)
        {
            continue;
        }
        let cells = corpus.row_cells(row);
        let marks: Vec<Mark> = models
            .iter()
            .enumerate()
            .map(|(c, m)| {
                let k = cells.position_near(c, m);
                Mark::of_parts(k.and_then(|k| cells.parts(k)).as_ref())
            })
            .collect();
        if q.failures_only && !marks.iter().any(|m| m.is_failure()) {
            continue;
        }
        let row_labels: Vec<(usize, String)> = (0..models.len())
            .filter_map(|c| {
                labels
                    .get(&(r.trace_id.as_str(), c))
                    .map(|s| (c, (*s).to_owned()))
            })
            .collect();
        if let Some(wanted) = q.sub_mode.as_deref()
            && !row_labels.iter().any(|(_, s)| s == wanted)
        {
            continue;
        }
        rows.push(MatrixRow {
            trace_id: r.trace_id.clone(),
            question: question.to_owned(),
            passed: marks.iter().filter(|m| **m == Mark::Pass).count(),
            tied: marks.iter().filter(|m| **m == Mark::Tie).count(),
            marks: marks.iter().map(|m| m.code()).collect(),
            sub_modes: row_labels,
        });
    }
    match q.sort {
        MatrixSort::Corpus => {}
        MatrixSort::Hardest => rows.sort_by_key(MatrixRow::doubled_score),
        MatrixSort::Easiest => rows.sort_by_key(|r| std::cmp::Reverse(r.doubled_score())),
    }
    let mut counts: Vec<(Mark, usize)> = Mark::ALL.into_iter().map(|m| (m, 0)).collect();
    for r in &rows {
        for c in r.marks.chars() {
            if let Some(slot) = counts.iter_mut().find(|(m, _)| m.code() == c) {
                slot.1 += 1;
            }
        }
    }
    counts.retain(|(_, n)| *n > 0);
    let answer = MatrixAnswer {
        corpus: Some(corpus.name.clone()),
        corpora,
        models: models
            .iter()
            .map(|m| ((*m).to_owned(), body.display_name(m).to_owned()))
            .collect(),
        sub_modes,
        questions: corpus.results.len(),
        rows: rows.len(),
        counts,
    };
    Built { answer, rows }
}

#[cfg(test)]
#[path = "matrix_view_tests.rs"]
mod tests;
