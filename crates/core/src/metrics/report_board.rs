//! The `leaderboard` and `board` sections of a [`super::report::MetricsReport`].

use serde::{Deserialize, Serialize};

use super::cell_facts::CellFacts;
use super::leaderboard::{LeaderboardRow, ModelColumn, leaderboard};
use super::pass_at_budget::{PassAtBudget, pass_at_budget};
use crate::bundle::{BundleBody, Corpus};

/// A leaderboard row with the model's display name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// Display name (the key when unknown).
    pub name: String,
    /// The statistics.
    #[serde(flatten)]
    pub row: LeaderboardRow,
}

/// Board-level facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardSection {
    /// Rows of `results.jsonl`.
    pub n_questions: usize,
    /// Candidate models.
    pub n_models: usize,
    /// The run's turn budget: the largest `N` in a `"max turns (N)"` error, else the largest
    /// `turns` seen; `None` without cells.
    pub max_turns: Option<u32>,
    /// Top model by pass rate.
    pub top_model: Option<String>,
    /// pass@B for `B = 1..=max_turns`.
    pub pass_at_budget: Option<PassAtBudget>,
}

fn budget_from_error(error: &str) -> Option<u32> {
    let rest = &error[error.find("max turns (")? + "max turns (".len()..];
    rest[..rest.find(')')?].trim().parse().ok()
}

/// The column of model `index` of `corpus.models`, in `results` order. A row whose
/// candidate at the same position has that key is read without hashing (the common case:
/// every row lists the models in the same order).
pub fn model_column(corpus: &Corpus, index: usize) -> ModelColumn {
    let model = corpus.models.get(index).cloned().unwrap_or_default();
    let cells = corpus
        .results
        .iter()
        .map(|r| {
            let cell = match r.candidates.get_index(index) {
                Some((k, c)) if *k == model => c.as_ref(),
                _ => r.candidates.get(&model).and_then(Option::as_ref),
            };
            cell.map(CellFacts::from_cell)
        })
        .collect();
    ModelColumn { model, cells }
}

/// Builds the model columns (question order = `results` order) and computes both sections.
pub fn board_section(body: &BundleBody, corpus: &Corpus) -> (Vec<LeaderboardEntry>, BoardSection) {
    let columns: Vec<ModelColumn> = (0..corpus.models.len())
        .map(|i| model_column(corpus, i))
        .collect();
    let from_errors = corpus
        .cells()
        .filter_map(|c| c.cell.error.as_deref().and_then(budget_from_error))
        .max();
    let max_turns = from_errors.or_else(|| corpus.cells().filter_map(|c| c.cell.turns).max());
    let board = leaderboard(&columns);
    let entries = named(body, board.rows);
    let budgets: Vec<u32> = (1..=max_turns.unwrap_or(0)).collect();
    let section = BoardSection {
        n_questions: corpus.results.len(),
        n_models: columns.len(),
        max_turns,
        top_model: board.top_model,
        pass_at_budget: (!budgets.is_empty()).then(|| pass_at_budget(&columns, &budgets)),
    };
    (entries, section)
}

/// The rows with their display names.
pub(crate) fn named(body: &BundleBody, rows: Vec<LeaderboardRow>) -> Vec<LeaderboardEntry> {
    rows.into_iter()
        .map(|row| LeaderboardEntry {
            name: body.display_name(&row.model).to_string(),
            row,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn budget_is_read_from_the_error_string() {
        assert_eq!(budget_from_error("max turns (60)"), Some(60));
        assert_eq!(budget_from_error("max turns"), None);
        assert_eq!(budget_from_error("boom"), None);
    }
}
