//! The `leaderboard` and `board` sections of a [`super::report::MetricsReport`].

use serde::{Deserialize, Serialize};

use super::cell_facts::CellFacts;
use super::leaderboard::{LeaderboardRow, ModelColumn, leaderboard};
use super::pass_at_budget::{PassAtBudget, pass_at_budget};
use crate::bundle::{BundleBody, Corpus, LossRule};

/// A leaderboard row with the model's display name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// Display name (the key when unknown).
    pub name: String,
    /// The statistics.
    #[serde(flatten)]
    pub row: LeaderboardRow,
}

/// The model every row of a board is tested against (`vs_top`): the first row with a pass
/// rate, in the order the core gives the rows (pass descending, ties in model order; the
/// top is the first model with the highest pass rate). Its own test is against itself
/// (p = 1), which a table shows as "–".
pub fn top_model(rows: &[LeaderboardEntry]) -> Option<&str> {
    rows.iter()
        .find(|e| e.row.pass.is_some())
        .map(|e| e.row.model.as_str())
}

/// Two-sided p at or above which a model counts as tied with the top model.
pub const TIED_P: f64 = 0.05;

/// How a leaderboard row stands against the top model (see [`top_model`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The top model itself.
    Top,
    /// Not separated from the top by the paired test (p ≥ [`TIED_P`]).
    Tied,
    /// Below the top (p < [`TIED_P`]), or untested.
    Below,
}

/// The standing of `e` against the top model named `top`.
pub fn standing(e: &LeaderboardEntry, top: Option<&str>) -> Standing {
    if top == Some(e.row.model.as_str()) {
        Standing::Top
    } else if e.row.vs_top.p.is_some_and(|p| p >= TIED_P) {
        Standing::Tied
    } else {
        Standing::Below
    }
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

/// The column of model `index` of `corpus.models`, in `results` order, legacy `loss` cells
/// scored as `loss` says. A row whose candidate at the same position has that key is read
/// without hashing (the common case: every row lists the models in the same order).
pub fn model_column(corpus: &Corpus, index: usize, loss: LossRule) -> ModelColumn {
    let model = corpus.models.get(index).cloned().unwrap_or_default();
    let cells = (0..corpus.results.len())
        .map(|r| {
            let row = corpus.row_cells(r);
            let parts = row
                .position_near(index, &model)
                .and_then(|k| row.parts(k))?;
            Some(CellFacts::from_parts(
                parts.outcome.as_deref(),
                parts.error,
                parts.turns,
                parts.n_sqls,
                parts.usage.as_deref(),
                loss,
            ))
        })
        .collect();
    ModelColumn { model, cells }
}

/// Builds the model columns (question order = `results` order) and computes both sections,
/// legacy `loss` cells scored as `loss` says (pass@B included).
pub fn board_section(
    body: &BundleBody,
    corpus: &Corpus,
    loss: LossRule,
) -> (Vec<LeaderboardEntry>, BoardSection) {
    let columns: Vec<ModelColumn> = (0..corpus.models.len())
        .map(|i| model_column(corpus, i, loss))
        .collect();
    let from_errors = corpus
        .cell_parts()
        .filter_map(|c| c.error.and_then(budget_from_error))
        .max();
    let max_turns = from_errors.or_else(|| corpus.cell_parts().filter_map(|c| c.turns).max());
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

    /// 40 questions. `legacy`: 21 pass, 1 tie, 3 fail, 15 `loss`; `steady`: 28 pass, 12 fail
    /// (the first 28 questions pass).
    fn legacy_loss_corpus() -> Corpus {
        let legacy = |q: usize| match q {
            0..=20 => "pass",
            21 => "tie",
            22..=24 => "fail",
            _ => "loss",
        };
        let rows: Vec<serde_json::Value> = (0..40)
            .map(|q| {
                let cell =
                    |o: &str| serde_json::json!({"turns": 3, "result_score": {"outcome": o}});
                let steady = if q < 28 { "pass" } else { "fail" };
                serde_json::json!({"trace_id": format!("q{q}"),
                    "candidates": {"legacy": cell(legacy(q)), "steady": cell(steady)}})
            })
            .collect();
        Corpus {
            name: "legacy".into(),
            results: serde_json::from_value(serde_json::Value::Array(rows)).expect("rows"),
            models: vec!["legacy".into(), "steady".into()],
            ..Corpus::default()
        }
    }

    fn row<'a>(rows: &'a [LeaderboardEntry], model: &str) -> &'a LeaderboardRow {
        &rows.iter().find(|r| r.row.model == model).expect(model).row
    }

    #[test]
    fn legacy_loss_is_excluded_as_the_harness_board_does() {
        let (rows, board) = board_section(
            &BundleBody::default(),
            &legacy_loss_corpus(),
            LossRule::Excluded,
        );
        let legacy = row(&rows, "legacy");
        // 08_results_stats: loss is NaN → 21.5 points over 25 scored questions (86.0 %).
        assert_eq!(legacy.pass, Some((21.0 + 0.5) / 25.0));
        assert_eq!((legacy.n, legacy.excluded, legacy.loss_cells), (25, 15, 15));
        assert_eq!((legacy.answered, legacy.n_answered), (legacy.pass, 25));
        assert_eq!(board.top_model.as_deref(), Some("legacy"));
        let steady = row(&rows, "steady");
        assert_eq!(steady.pass, Some(28.0 / 40.0));
        assert_eq!(steady.loss_cells, 0);
        // Paired over the 25 questions both have scored: d = legacy − steady =
        // 0 ×21, 0.5 − 1, (0 − 1) ×3.
        let d: Vec<f64> = [vec![0.0; 21], vec![-0.5], vec![-1.0; 3]].concat();
        let m = d.iter().sum::<f64>() / 25.0;
        let sd = (d.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 24.0).sqrt();
        assert_eq!(steady.vs_top.n, 25);
        assert_eq!(steady.vs_top.mean_diff, Some(-3.5 / 25.0));
        assert!((steady.vs_top.z.unwrap() - m / (sd / 5.0)).abs() < 1e-12);
    }

    #[test]
    fn loss_as_fail_is_the_other_reading() {
        let (rows, board) = board_section(
            &BundleBody::default(),
            &legacy_loss_corpus(),
            LossRule::AsFail,
        );
        let legacy = row(&rows, "legacy");
        // 06_eval's tally: loss scores 0 → 21.5 points over 40 (53.75 %), and `steady` is on top.
        assert_eq!(legacy.pass, Some(21.5 / 40.0));
        assert_eq!((legacy.n, legacy.excluded, legacy.loss_cells), (40, 0, 15));
        assert_eq!(board.top_model.as_deref(), Some("steady"));
        // d = steady − legacy: 0.5 (the tie), 1 ×3 (fails), 1 ×3 (loss where steady passes).
        assert_eq!(legacy.vs_top.n, 40);
        assert_eq!(legacy.vs_top.mean_diff, Some((0.5 + 3.0 + 3.0) / 40.0));
        assert_eq!(row(&rows, "steady").vs_top.p, Some(1.0));
    }

    #[test]
    fn budget_is_read_from_the_error_string() {
        assert_eq!(budget_from_error("max turns (60)"), Some(60));
        assert_eq!(budget_from_error("max turns"), None);
        assert_eq!(budget_from_error("boom"), None);
    }
}
