//! The `leaderboard` and `board` sections of a [`super::report::MetricsReport`].

use serde::Serialize;

use super::cell_facts::CellFacts;
use super::leaderboard::{LeaderboardRow, ModelColumn, leaderboard};
use super::pass_at_budget::{PassAtBudget, pass_at_budget};
use crate::bundle::{BundleBody, Corpus};

/// A leaderboard row with the model's display name.
#[derive(Debug, Clone, PartialEq, Serialize)]
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

/// Builds the model columns (question order = `results` order) and computes both sections.
pub fn board_section(body: &BundleBody, corpus: &Corpus) -> (Vec<LeaderboardEntry>, BoardSection) {
    let columns: Vec<ModelColumn> = corpus
        .models
        .iter()
        .map(|m| ModelColumn {
            model: m.clone(),
            cells: corpus
                .results
                .iter()
                .map(|r| {
                    r.candidates
                        .get(m)
                        .and_then(Option::as_ref)
                        .map(CellFacts::from_cell)
                })
                .collect(),
        })
        .collect();
    let from_errors = corpus
        .cells()
        .filter_map(|c| c.cell.error.as_deref().and_then(budget_from_error))
        .max();
    let max_turns = from_errors.or_else(|| corpus.cells().filter_map(|c| c.cell.turns).max());
    let board = leaderboard(&columns);
    let entries = board
        .rows
        .into_iter()
        .map(|row| LeaderboardEntry {
            name: body.display_name(&row.model).to_string(),
            row,
        })
        .collect();
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
