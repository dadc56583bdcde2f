//! The forest plot of per-model net pass-rate deltas with their 95% intervals (pooled row
//! last, as a diamond); clicking a row chooses the model (`gmodel`).

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_charts::{AnyLayout, ForestChart, ForestLayout, ForestRow, Palette};
use runlens_core::bundle::{Bundle, BundleBody};
use runlens_core::csv::to_csv;
use runlens_core::metrics::gate::GateGroup;
use wasm_bindgen::JsCast;

use crate::components::{AnyChart, ChartCanvas, ExportButtons, caption};
use crate::state::UrlState;
use crate::theme::chart_theme;
use crate::yield_now::yield_now;
use runlens_core::metrics::gate_view::ALL;

/// Half-width of the x range: the largest |estimate| or interval end, rounded up to 0.05,
/// at least 0.1.
pub fn half_range(groups: &[GateGroup]) -> f64 {
    let m = groups
        .iter()
        .flat_map(|g| {
            let ci = g.net_ci.map_or([0.0, 0.0], |c| [c.lo, c.hi]);
            [g.counts.net, ci[0], ci[1]]
        })
        .filter(|v| v.is_finite())
        .fold(0.0f64, |a, v| a.max(v.abs()));
    ((m / 0.05).ceil() * 0.05).max(0.1)
}

/// The chart of `groups`, in percentage points as the table.
pub fn forest_chart(title: String, groups: &[GateGroup], body: &BundleBody) -> ForestChart {
    let h = 100.0 * half_range(groups);
    ForestChart {
        title,
        x_desc: "net strict pass rate, gated − baseline, percentage points (95% bootstrap \
                 interval)"
            .into(),
        x_range: (-h, h),
        rows: groups
            .iter()
            .map(|g| ForestRow {
                label: if g.model == ALL {
                    "all models".to_owned()
                } else {
                    body.display_name(&g.model).to_owned()
                },
                estimate: 100.0 * g.counts.net,
                ci: g.net_ci.map(|c| (100.0 * c.lo, 100.0 * c.hi)),
                pooled: g.model == ALL,
            })
            .collect(),
        color: Palette::K_STAR,
        theme: chart_theme(),
        label_width: 200,
    }
}

/// The forest plot with its export buttons.
#[component]
pub fn GateForest(
    groups: Memo<Vec<GateGroup>>,
    corpus: String,
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let shown = Memo::new(move |_| {
        let models = state.with(|s| s.models.clone());
        groups.with(|g| {
            g.iter()
                .filter(|g| g.model == ALL || models.is_empty() || models.contains(&g.model))
                .cloned()
                .collect::<Vec<_>>()
        })
    });
    let title = format!("Gate: net pass-rate change per model ({corpus})");
    let chart = Signal::derive(move || {
        AnyChart::Forest(forest_chart(title.clone(), &shown.get(), &bundle.body))
    });
    let height = Signal::derive(move || 90 + 26 * shown.with(Vec::len).max(1) as u32);
    let cap = caption(&format!(
        "{corpus} · gate net delta · bootstrap 10,000 resamples, seed 42"
    ));
    let (layout, set_layout) = signal(None::<ForestLayout>);
    let on_layout = Callback::new(move |l: AnyLayout| {
        if let AnyLayout::Forest(f) = l {
            set_layout.set(Some(f));
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(canvas) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let scale = f64::from(canvas.height()) / f64::from(canvas.client_height().max(1));
        let y = (f64::from(ev.offset_y()) * scale).round() as i32;
        let row = layout.with(|l| l.as_ref().and_then(|l| l.row_at(y)));
        let model = row.and_then(|i| shown.with(|g| g.get(i).map(|g| g.model.clone())));
        if let Some(m) = model.filter(|m| m != ALL) {
            state.push(move |s| s.gate.model = Some(m));
        }
    };
    let csv = Callback::new(move |()| {
        shown.with_untracked(|g| {
            let rows: Vec<Vec<String>> = g
                .iter()
                .map(|g| {
                    let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
                    vec![
                        g.model.clone(),
                        g.counts.net.to_string(),
                        o(g.net_ci.map(|c| c.lo)),
                        o(g.net_ci.map(|c| c.hi)),
                        g.counts.cells.to_string(),
                    ]
                })
                .collect();
            to_csv(&["model", "net", "lo", "hi", "cells"], &rows)
        })
    });
    let slug = corpus.replace(char::is_whitespace, "-");
    // The plot mounts one task after the table, so opening the view is two shorter tasks.
    let chart_ready = RwSignal::new(false);
    spawn_local(async move {
        yield_now().await;
        chart_ready.try_set(true);
    });
    let plot_caption = cap.clone();
    view! {
        <div class="chart-wrap clickable" on:click=on_click>
            <Show when=move || chart_ready.get()>
                <ChartCanvas id="gate-forest" chart=chart height=height caption=plot_caption.clone() on_layout=on_layout />
            </Show>
        </div>
        <ExportButtons base_name=format!("gate-forest-{slug}") canvas_id="gate-forest"
            chart=chart caption=cap svg_size=(720, height.get_untracked()) csv=csv />
    }
}
