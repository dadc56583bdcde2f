//! The forest plot of one corpus's per-model differences (run B − run A, percentage points,
//! normal 95% intervals), in the table's order, with a CSV and picture export.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{AnyChart, ForestChart, ForestRow, Palette};
use runlens_core::bundle::{Bundle, BundleBody};
use runlens_core::csv::to_csv;
use runlens_core::metrics::compare::{CorpusCompare, ModelDelta};

use super::table::shown_models;
use crate::components::{ChartCanvas, ExportButtons, caption};
use crate::state::UrlState;
use crate::theme::chart_theme;

/// Half-width of the x range in percentage points: the largest |difference| or interval end,
/// rounded up to 5, at least 10.
pub fn half_range_points(rows: &[ModelDelta]) -> f64 {
    let m = rows
        .iter()
        .flat_map(|m| {
            let (lo, hi) = m.delta.interval95().unwrap_or((0.0, 0.0));
            [m.delta.delta.unwrap_or(0.0), lo, hi]
        })
        .filter(|v| v.is_finite())
        .fold(0.0f64, |a, v| a.max(100.0 * v.abs()));
    ((m / 5.0).ceil() * 5.0).max(10.0)
}

/// The chart of `rows` (models without a difference have no row to draw and are left out).
pub fn delta_forest(title: String, rows: &[ModelDelta], body: &BundleBody) -> ForestChart {
    let h = half_range_points(rows);
    ForestChart {
        title,
        x_desc: "pass rate, run B − run A, percentage points (paired, normal 95% interval)".into(),
        x_range: (-h, h),
        rows: rows
            .iter()
            .filter_map(|m| {
                Some(ForestRow {
                    label: body.display_name(&m.model).to_owned(),
                    estimate: 100.0 * m.delta.delta?,
                    ci: m
                        .delta
                        .interval95()
                        .map(|(lo, hi)| (100.0 * lo, 100.0 * hi)),
                    pooled: false,
                })
            })
            .collect(),
        color: Palette::K_STAR,
        theme: chart_theme(),
        label_width: 200,
    }
}

/// The forest plot of `corpus` with its export buttons.
#[component]
pub fn DeltaForest(corpus: Arc<CorpusCompare>, bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let c = corpus.clone();
    let rows = Memo::new(move |_| state.with(|s| shown_models(&c, |m| s.shows_model(m))));
    let name = corpus.name.clone();
    let title = format!("Pass rate, run B − run A, per model ({name})");
    let chart = Signal::derive(move || {
        AnyChart::Forest(delta_forest(title.clone(), &rows.get(), &bundle.body))
    });
    let height = Signal::derive(move || 90 + 26 * rows.with(Vec::len).max(1) as u32);
    let cap = caption(&format!("{name} · paired difference B − A over questions in both runs"));
    let csv = Callback::new(move |()| {
        rows.with_untracked(|rows| {
            let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
            let lines: Vec<Vec<String>> = rows
                .iter()
                .map(|m| {
                    let d = &m.delta;
                    let ci = d.interval95();
                    vec![
                        m.model.clone(),
                        d.n.to_string(),
                        o(d.pass_a),
                        o(d.pass_b),
                        o(d.delta),
                        o(d.se),
                        o(ci.map(|c| c.0)),
                        o(ci.map(|c| c.1)),
                        o(d.p),
                        d.improved.to_string(),
                        d.regressed.to_string(),
                    ]
                })
                .collect();
            to_csv(
                &[
                    "model", "n", "pass_a", "pass_b", "delta", "se", "lo", "hi", "p", "improved",
                    "regressed",
                ],
                &lines,
            )
        })
    });
    let slug = name.replace(char::is_whitespace, "-");
    let id = format!("compare-forest-{slug}");
    view! {
        <div class="chart-wrap">
            <ChartCanvas id=id.clone() chart=chart height=height caption=cap.clone() />
        </div>
        <ExportButtons base_name=format!("compare-{slug}") canvas_id=id
            chart=chart caption=cap svg_size=(720, height.get_untracked()) csv=csv />
    }
}
