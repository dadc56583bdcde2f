//! The 08_results_stats README vector and leaderboard edge cases.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::metrics::cell_facts::TokenFacts;

fn cell(score: Option<f64>) -> Option<CellFacts> {
    Some(CellFacts {
        score,
        turns: Some(4),
        n_queries: 6,
        ..CellFacts::default()
    })
}

fn column(model: &str, scores: &[f64]) -> ModelColumn {
    ModelColumn {
        model: model.into(),
        cells: scores.iter().map(|s| cell(Some(*s))).collect(),
    }
}

#[test]
fn readme_vector_glm_and_gpt41() {
    // README: 8 questions, top model all passes; glm {1×6, 0.5, 0}; gpt-4.1 {1×7, 0}.
    let cols = [
        column("glm", &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0]),
        column("top", &[1.0; 8]),
        column("gpt-4.1", &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]),
    ];
    let board = leaderboard(&cols);
    assert_eq!(board.top_model.as_deref(), Some("top"));
    let names: Vec<&str> = board.rows.iter().map(|r| r.model.as_str()).collect();
    assert_eq!(names, vec!["top", "gpt-4.1", "glm"]);
    let glm = &board.rows[2];
    let pass = 6.5 / 8.0; // 0.8125 → "81.2"
    assert_eq!(glm.pass, Some(pass));
    // deviations: 6 × 0.1875, −0.3125, −0.8125 → SS = 6·0.1875² + 0.3125² + 0.8125²
    let ss = 6.0 * 0.1875f64.powi(2) + 0.3125f64.powi(2) + 0.8125f64.powi(2);
    let se = (ss / 7.0).sqrt() / 8f64.sqrt();
    assert!((glm.se.unwrap() - se).abs() < 1e-15);
    assert!((100.0 * glm.se.unwrap() - 13.2).abs() < 0.05);
    let [lo, hi] = glm.ci95.unwrap();
    assert!((100.0 * lo - 55.5).abs() < 0.05 && (100.0 * hi - 107.0).abs() < 0.05);
    // d = {0×6, 0.5, 1}: mean 1.5/8, sd over 7 dof.
    let dm: f64 = 1.5 / 8.0;
    let dss = 6.0 * dm * dm + (0.5 - dm).powi(2) + (1.0 - dm).powi(2);
    let z = dm / ((dss / 7.0).sqrt() / 8f64.sqrt());
    assert!((glm.vs_top.z.unwrap() - z).abs() < 1e-12);
    assert!((glm.vs_top.z.unwrap() - 1.43).abs() < 0.005);
    assert!((glm.vs_top.p.unwrap() - 0.154).abs() < 0.0005);
    let gpt = &board.rows[1];
    assert_eq!(gpt.pass, Some(7.0 / 8.0));
    assert!((100.0 * gpt.se.unwrap() - 12.5).abs() < 0.05); // sqrt(7/64 / 7) = 1/8
    let [lo, hi] = gpt.ci95.unwrap();
    assert!((100.0 * lo - 63.0).abs() < 0.05 && (100.0 * hi - 112.0).abs() < 0.05);
    assert!((gpt.vs_top.z.unwrap() - 1.0).abs() < 1e-12);
    assert!((gpt.vs_top.p.unwrap() - 0.317).abs() < 0.0005);
    // The top model against itself: SE_d = 0 and mean 0 → p = 1, z undefined.
    assert_eq!(
        (board.rows[0].vs_top.z, board.rows[0].vs_top.p),
        (None, Some(1.0))
    );
}

#[test]
fn errors_excluded_turn_limits_counted_answered_rate() {
    let cells = vec![
        Some(CellFacts {
            score: Some(1.0),
            turns: Some(2),
            n_queries: 4,
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: Some(0.0),
            turn_limited: true,
            turns: Some(10),
            n_queries: 30,
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: None,
            turn_limited: true,
            turns: Some(0),
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: Some(0.5),
            turns: Some(4),
            n_queries: 2,
            ..CellFacts::default()
        }),
        None,
    ];
    let board = leaderboard(&[ModelColumn {
        model: "m".into(),
        cells,
    }]);
    let r = &board.rows[0];
    assert_eq!((r.cells, r.n, r.excluded, r.tl), (4, 3, 1, 2));
    assert_eq!(r.pass, Some((1.0 + 0.0 + 0.5) / 3.0));
    assert_eq!((r.answered, r.n_answered), (Some((1.0 + 0.5) / 2.0), 2));
    assert_eq!(r.turns, Some(4.0)); // turns > 0: {2, 10, 4}
    assert_eq!(r.queries, Some(4.0)); // {4, 30, 2}
    assert_eq!(r.queries_per_turn, Some(2.0)); // {2, 3, 0.5}
}

#[test]
fn tokens_unknown_is_not_zero() {
    let t = |total, exact| {
        Some(TokenFacts {
            total: Some(total),
            output: Some(total / 10),
            exact,
        })
    };
    let cells = vec![
        Some(CellFacts {
            score: Some(1.0),
            tokens: t(100, true),
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: Some(1.0),
            tokens: t(300, true),
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: Some(1.0),
            tokens: t(900, false),
            ..CellFacts::default()
        }),
        Some(CellFacts {
            score: Some(1.0),
            tokens: None,
            ..CellFacts::default()
        }),
    ];
    let r = &leaderboard(&[ModelColumn {
        model: "m".into(),
        cells,
    }])
    .rows[0];
    assert_eq!((r.tokens.usage_cells, r.tokens.usage_cells_dropped), (2, 2));
    assert_eq!(
        (r.tokens.total_tokens, r.tokens.output_tokens),
        (100 + 300, 10 + 30)
    );
    assert_eq!(r.tokens.median_total_tokens, Some((100.0 + 300.0) / 2.0));
}

#[test]
fn unscored_models_sort_last_and_empty_input_is_fine() {
    let cols = [
        ModelColumn {
            model: "none".into(),
            cells: vec![cell(None)],
        },
        column("a", &[0.0]),
    ];
    let board = leaderboard(&cols);
    assert_eq!(board.top_model.as_deref(), Some("a"));
    assert_eq!(board.rows[1].model, "none");
    assert_eq!(board.rows[1].pass, None);
    assert_eq!(leaderboard(&[]).top_model, None);
}
