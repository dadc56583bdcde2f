//! Per-model leaderboard statistics (08_results_stats, harness-formats §11.2).

use serde::{Deserialize, Serialize};

use super::cell_facts::CellFacts;
use super::paired::{PairedTest, paired_z_test};
use super::stats::{ci95, mean, median, standard_error};

/// One model's cells, aligned with a shared question order (`None` = no cell or `null`).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelColumn {
    /// Model key.
    pub model: String,
    /// Cells in question order.
    pub cells: Vec<Option<CellFacts>>,
}

/// Token totals and medians over cells with exact usage (18_ceiling's rule).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct TokenSummary {
    /// Cells with a usage block, no missing calls, and known total and output tokens.
    pub usage_cells: usize,
    /// Present cells left out (usage missing, partial, or lower bound): unknown, not zero.
    pub usage_cells_dropped: usize,
    /// Sum of total tokens over `usage_cells`.
    pub total_tokens: u64,
    /// Sum of output (completion) tokens over `usage_cells`.
    pub output_tokens: u64,
    /// Median total tokens per cell (numpy median); `None` without usage cells.
    pub median_total_tokens: Option<f64>,
    /// Median output tokens per cell; `None` without usage cells.
    pub median_output_tokens: Option<f64>,
}

/// One leaderboard row. Rates are fractions in `[0, 1]`, unrounded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardRow {
    /// Model key.
    pub model: String,
    /// Present cells (error cells included).
    pub cells: usize,
    /// Scored cells (pass/tie/fail, and legacy `loss` under "loss as fail"); the pass-rate
    /// denominator.
    pub n: usize,
    /// Present cells excluded from the pass rate (error, unknown outcome, legacy `loss` by
    /// default).
    pub excluded: usize,
    /// Present cells whose outcome is the legacy `loss`, whatever the rule (0 in rows written
    /// before this field existed).
    #[serde(default)]
    pub loss_cells: usize,
    /// Mean score (pass 1, tie 0.5, fail 0); `None` when `n = 0`.
    pub pass: Option<f64>,
    /// `std(ddof 1) / √n`; `None` when `n < 2`.
    pub se: Option<f64>,
    /// `pass ± 1.96·se`.
    pub ci95: Option<[f64; 2]>,
    /// Paired test against the top model (the top model itself gets p = 1).
    pub vs_top: PairedTest,
    /// Pass rate over scored cells that are not turn-limited.
    pub answered: Option<f64>,
    /// Scored cells that are not turn-limited.
    pub n_answered: usize,
    /// Cells whose error contains "max turns", whatever their outcome.
    pub tl: usize,
    /// Median turns over cells with `turns > 0`.
    pub turns: Option<f64>,
    /// Median `len(sqls)` over cells with `turns > 0`.
    pub queries: Option<f64>,
    /// Median of per-cell `len(sqls) / turns` over cells with `turns > 0`.
    pub queries_per_turn: Option<f64>,
    /// Token totals and medians (missing usage is unknown).
    pub tokens: TokenSummary,
}

/// The leaderboard: rows sorted by pass descending (models without a pass rate last, stable).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    /// The top model (argmax of pass, first on ties in input order); `None` if none scored.
    pub top_model: Option<String>,
    /// The rows.
    pub rows: Vec<LeaderboardRow>,
}

/// A column's pass-rate scores, in question order.
pub(crate) fn scores(column: &ModelColumn) -> Vec<Option<f64>> {
    column
        .cells
        .iter()
        .map(|c| c.as_ref().and_then(|c| c.score))
        .collect()
}

/// The top column: argmax of the pass rate, first on ties; `None` if none scored.
pub(crate) fn top_of(score_cols: &[Vec<Option<f64>>]) -> Option<usize> {
    let pass: Vec<Option<f64>> = score_cols
        .iter()
        .map(|s| mean(&s.iter().flatten().copied().collect::<Vec<_>>()))
        .collect();
    let mut top: Option<usize> = None;
    for (i, p) in pass.iter().enumerate() {
        if let Some(p) = p
            && top.is_none_or(|t| pass[t].is_some_and(|tp| *p > tp))
        {
            top = Some(i);
        }
    }
    top
}

/// Sorts rows by pass descending, models without a pass rate last (stable).
pub(crate) fn sort_rows(rows: &mut [LeaderboardRow]) {
    rows.sort_by(|a, b| {
        b.pass
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.pass.unwrap_or(f64::NEG_INFINITY))
    });
}

/// Computes every row. Example: see the README vector test (glm 81.25 %, SE 13.15 %).
pub fn leaderboard(columns: &[ModelColumn]) -> Leaderboard {
    let score_cols: Vec<Vec<Option<f64>>> = columns.iter().map(scores).collect();
    let top = top_of(&score_cols);
    let mut rows: Vec<LeaderboardRow> = columns
        .iter()
        .enumerate()
        .map(|(i, col)| {
            let top_scores = top.map_or(&score_cols[i], |t| &score_cols[t]);
            row(col, &score_cols[i], top_scores)
        })
        .collect();
    sort_rows(&mut rows);
    Leaderboard {
        top_model: top.map(|t| columns[t].model.clone()),
        rows,
    }
}

/// One model's row; `top_scores` are the top model's scores (its own for the top model).
pub(crate) fn row(
    col: &ModelColumn,
    scores: &[Option<f64>],
    top_scores: &[Option<f64>],
) -> LeaderboardRow {
    let present: Vec<&CellFacts> = col.cells.iter().flatten().collect();
    let scored: Vec<f64> = scores.iter().flatten().copied().collect();
    let answered: Vec<f64> = present
        .iter()
        .filter(|c| !c.turn_limited)
        .filter_map(|c| c.score)
        .collect();
    let effort: Vec<&&CellFacts> = present
        .iter()
        .filter(|c| c.turns.is_some_and(|t| t > 0))
        .collect();
    let turns: Vec<f64> = effort
        .iter()
        .filter_map(|c| c.turns.map(f64::from))
        .collect();
    let queries: Vec<f64> = effort.iter().map(|c| c.n_queries as f64).collect();
    let qpt: Vec<f64> = effort
        .iter()
        .filter_map(|c| c.turns.map(|t| c.n_queries as f64 / f64::from(t)))
        .collect();
    let pass = mean(&scored);
    let se = standard_error(&scored);
    LeaderboardRow {
        model: col.model.clone(),
        cells: present.len(),
        n: scored.len(),
        excluded: present.len() - scored.len(),
        loss_cells: present.iter().filter(|c| c.legacy_loss).count(),
        pass,
        se,
        ci95: pass.zip(se).map(|(p, s)| ci95(p, s).into()),
        vs_top: paired_z_test(top_scores, scores),
        answered: mean(&answered),
        n_answered: answered.len(),
        tl: present.iter().filter(|c| c.turn_limited).count(),
        turns: median(&turns),
        queries: median(&queries),
        queries_per_turn: median(&qpt),
        tokens: token_summary(&present),
    }
}

fn token_summary(present: &[&CellFacts]) -> TokenSummary {
    let exact: Vec<(u64, u64)> = present
        .iter()
        .filter_map(|c| c.tokens)
        .filter(|t| t.exact)
        .filter_map(|t| t.total.zip(t.output))
        .collect();
    let totals: Vec<f64> = exact.iter().map(|e| e.0 as f64).collect();
    let outputs: Vec<f64> = exact.iter().map(|e| e.1 as f64).collect();
    TokenSummary {
        usage_cells: exact.len(),
        usage_cells_dropped: present.len() - exact.len(),
        total_tokens: exact.iter().map(|e| e.0).sum(),
        output_tokens: exact.iter().map(|e| e.1).sum(),
        median_total_tokens: median(&totals),
        median_output_tokens: median(&outputs),
    }
}

#[cfg(test)]
#[path = "leaderboard_tests.rs"]
mod tests;
