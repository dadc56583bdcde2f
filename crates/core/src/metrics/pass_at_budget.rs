//! pass@B curves from one long-budget run per model (18_ceiling_summary, §11.3).

use serde::Serialize;

use super::leaderboard::ModelColumn;

/// pass@B per model over the questions scored for every model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PassAtBudget {
    /// The budgets `B`, as given.
    pub budgets: Vec<u32>,
    /// Questions where every model's cell is scored (the common set).
    pub n_common: usize,
    /// `(model, curve)`, curve aligned with `budgets`, fractions in `[0, 1]`.
    pub curves: Vec<(String, Vec<f64>)>,
}

/// Computes pass@B.
///
/// ## Definition
/// `pass@B(cell)` = the cell's score if it is not turn-limited and `turns ≤ B`, else 0;
/// cells never scored are excluded, and only questions scored for **every** model count.
/// `curve(B)` = mean over those questions. A scored cell with unknown `turns` counts 0.
/// Meaningful only for budgets at or below the run's own turn budget.
/// ## Example
/// one model, cells (score 1, 3 turns), (score 1, 8 turns): `B = 5` → 0.5, `B = 8` → 1.
pub fn pass_at_budget(columns: &[ModelColumn], budgets: &[u32]) -> PassAtBudget {
    let n_questions = columns.iter().map(|c| c.cells.len()).max().unwrap_or(0);
    let common: Vec<usize> = (0..n_questions)
        .filter(|&q| {
            columns.iter().all(|c| {
                c.cells
                    .get(q)
                    .and_then(|x| x.as_ref())
                    .and_then(|x| x.score)
                    .is_some()
            })
        })
        .collect();
    let curves = columns
        .iter()
        .map(|col| {
            let curve = budgets
                .iter()
                .map(|&b| {
                    if common.is_empty() {
                        return 0.0;
                    }
                    let sum: f64 = common
                        .iter()
                        .filter_map(|&q| col.cells[q].as_ref())
                        .map(|c| match (c.score, c.turns) {
                            (Some(s), Some(t)) if !c.turn_limited && t <= b => s,
                            _ => 0.0,
                        })
                        .fold(0.0, |acc, s| acc + s);
                    sum / common.len() as f64
                })
                .collect();
            (col.model.clone(), curve)
        })
        .collect();
    PassAtBudget {
        budgets: budgets.to_vec(),
        n_common: common.len(),
        curves,
    }
}

#[cfg(test)]
// Expected values are written as arithmetic (e.g. `2.0 / 2.0` = 2 of 2 gold tables).
#[allow(clippy::eq_op)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::metrics::cell_facts::CellFacts;

    fn c(score: Option<f64>, turns: u32, tl: bool) -> Option<CellFacts> {
        Some(CellFacts {
            score,
            turns: Some(turns),
            turn_limited: tl,
            ..CellFacts::default()
        })
    }

    #[test]
    fn curve_counts_only_common_scored_questions() {
        let a = ModelColumn {
            model: "a".into(),
            cells: vec![
                c(Some(1.0), 3, false),
                c(Some(1.0), 8, false),
                c(Some(0.5), 2, false),
            ],
        };
        let b = ModelColumn {
            model: "b".into(),
            cells: vec![
                c(Some(0.0), 60, true),
                c(Some(1.0), 1, false),
                c(None, 0, false),
            ],
        };
        let r = pass_at_budget(&[a, b], &[5, 8, 60]);
        assert_eq!(r.n_common, 2); // question 3 unscored for b
        assert_eq!(r.curves[0].1, vec![1.0 / 2.0, 2.0 / 2.0, 2.0 / 2.0]);
        assert_eq!(r.curves[1].1, vec![1.0 / 2.0, 1.0 / 2.0, 1.0 / 2.0]);
    }
}
