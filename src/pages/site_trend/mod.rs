//! The trend view of a report site (docs/site.md): each model's headline pass rate on one
//! corpus across the site's runs (`runs.json`), with its 95% interval, as a chart and as a
//! table. A click on a run's column (or its name in the table) opens that run. The corpus is
//! the link's `corpus`, the models its `models` (the start page has no bundle of its own).

mod chart;
mod table;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{AnyLayout, TREND_LEGEND_MAX, TrendLayout};
use runlens_core::csv::to_csv;
use runlens_core::site::{self, RunIndex, Trend};
use wasm_bindgen::JsCast;

pub use chart::{COLOURED, look, trend_chart, y_range};
pub use table::{TrendTable, run_href};

use crate::components::{
    AnyChart, ChartCanvas, ExportButtons, ModelChoice, ModelFilter, layout_point,
};
use crate::state::UrlState;
use crate::theme::chart_theme;

/// Most cells (runs × models) of a table shown open when the page opens.
pub const TABLE_OPEN_CELLS: usize = 400;

/// The trend of the site's runs, with its corpus choice, model filter, chart, exports and
/// table (nothing when the index has no run with results).
#[component]
pub fn SiteTrend(index: Arc<RunIndex>) -> impl IntoView {
    let state = UrlState::use_context();
    let corpora = site::corpora(&index);
    let fallback = site::default_corpus(&index)?;
    let known = corpora.clone();
    let corpus = Memo::new(move |_| {
        state
            .with(|s| s.corpus.clone())
            .filter(|c| known.contains(c))
            .unwrap_or_else(|| fallback.clone())
    });
    let idx = index.clone();
    let trend = Memo::new(move |_| Arc::new(site::trend(&idx, &corpus.get())));
    // The link's models that this corpus has (none of them: every model, not an empty chart).
    let shown = Memo::new(move |_| {
        let keys = state.with(|s| s.models.clone());
        trend.with(|t| {
            keys.into_iter()
                .filter(|k| t.models.iter().any(|m| &m.model == k))
                .collect::<Vec<String>>()
        })
    });
    let idx = index.clone();
    let chart = Signal::derive(move || {
        let keys = shown.get();
        let c = trend_chart(
            &trend.get(),
            &idx,
            |m| keys.is_empty() || keys.iter().any(|k| k == m),
            chart_theme(),
        );
        AnyChart::Trend(c)
    });
    let runs = index.runs.len();
    let caption = Signal::derive(move || {
        format!(
            "runlens · report site of {runs} runs · {} · pass rate under the default loss rule, \
             normal 95% interval",
            corpus.get()
        )
    });
    let layout = StoredValue::new(None::<TrendLayout>);
    // Each run's column in CSS px of the drawn chart, for tests that click one.
    let columns = RwSignal::new(String::new());
    let on_layout = Callback::new(move |l: AnyLayout| {
        if let AnyLayout::Trend(l) = l {
            let xs: Vec<String> = l.x_px.iter().map(i32::to_string).collect();
            columns.set(xs.join(","));
            layout.set_value(Some(l));
        }
    });
    let idx = index.clone();
    let open_run = move |ev: web_sys::MouseEvent| {
        let Some(canvas) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let (x, _) = layout_point(&canvas, ev.offset_x(), ev.offset_y());
        let Some(col) = layout.with_value(|l| l.as_ref().and_then(|l| l.run_at(x))) else {
            return;
        };
        let href =
            trend.with_untracked(|t| t.runs.get(col).map(|&r| run_href(&idx.runs[r], &t.corpus)));
        if let (Some(href), Some(w)) = (href, web_sys::window()) {
            let _ = w.location().set_search(&href);
        }
    };
    let idx = index.clone();
    let csv = Callback::new(move |()| trend.with_untracked(|t| trend_csv(t, &idx)));
    let choices = move || {
        let models: Vec<ModelChoice> = trend.with(|t| {
            t.models
                .iter()
                .map(|m| ModelChoice {
                    key: m.model.clone(),
                    name: m.name.clone(),
                })
                .collect()
        });
        view! { <ModelFilter models=models /> }
    };
    let options = corpora
        .iter()
        .map(|c| {
            let (value, selected) = (c.clone(), c.clone());
            view! { <option value=value selected=move || corpus.get() == selected>{c.clone()}</option> }
        })
        .collect_view();
    let pick_corpus = move |ev: leptos::ev::Event| {
        let picked = event_target_value(&ev);
        state.push(move |s| s.corpus = Some(picked));
    };
    let height = Signal::derive(move || 460u32);
    // The table is built when it is opened: a site of 100 runs × 23 models is 2,300 cells,
    // most of the start page's first task (docs/performance.md, "A site of 100 runs").
    let cells = move || {
        trend.with(|t| {
            let models = t
                .models
                .iter()
                .filter(|m| shown.with(|k| k.is_empty() || k.contains(&m.model)))
                .count();
            (t.runs.len(), models)
        })
    };
    let (runs0, models0) = untrack(cells);
    let table_open = RwSignal::new(runs0 * models0 <= TABLE_OPEN_CELLS);
    let table_summary = move || {
        let (runs, models) = cells();
        format!("The figures as a table ({runs} runs × {models} models)")
    };
    let table_trend = Signal::derive(move || trend.get());
    let table_shown = Signal::derive(move || shown.get());
    Some(view! {
        <section class="site-trend" data-testid="site-trend">
            <h2>"Trend across runs"</h2>
            <p>
                "Each model's pass rate on one corpus in every run of this site that has it, in run \
                 order, with its 95% interval (the leaderboard's figures under the default rule: "
                <code>"loss"</code> " cells excluded). Click a run's column, or its name in the \
                 table, to open it."
            </p>
            <div class="trend-controls">
                <label>"Corpus " <select data-testid="trend-corpus" on:change=pick_corpus>{options}</select></label>
                {choices}
            </div>
            {move || {
                let (_, n) = cells();
                (n > TREND_LEGEND_MAX).then(|| view! {
                    <p class="hint" data-testid="trend-grey">
                        {format!(
                            "The {COLOURED} models with the highest pass rate in the newest run are in colour and \
                             in the legend; the other {} are grey (hover to name one, or choose models).",
                            n - COLOURED
                        )}
                    </p>
                })
            }}
            <div class="chart-wrap clickable trend-chart" data-columns=move || columns.get() on:click=open_run>
                <ChartCanvas id="site-trend" chart=chart height=height caption=caption on_layout=on_layout />
            </div>
            <ExportButtons base_name=Signal::derive(move || format!("trend-{}", corpus.get()))
                canvas_id="site-trend" chart=chart caption=caption svg_size=(960, 460) csv=csv />
            <details class="trend-table-box" prop:open=table_open.get_untracked()
                on:toggle=move |ev| {
                    let open = ev.target()
                        .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                        .is_some_and(|d| d.open());
                    table_open.set(open);
                }>
                <summary data-testid="trend-table-toggle">{table_summary}</summary>
                {move || table_open.get().then(|| view! {
                    <TrendTable index=index.clone() trend=table_trend shown=table_shown />
                })}
            </details>
        </section>
    })
}

/// The trend as CSV: one line per run and model with a pass rate (unrounded fractions).
pub fn trend_csv(trend: &Trend, index: &RunIndex) -> String {
    let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
    let mut lines = Vec::new();
    for (col, &r) in trend.runs.iter().enumerate() {
        let run = &index.runs[r];
        for m in &trend.models {
            let Some(p) = m.points[col] else { continue };
            lines.push(vec![
                run.name.clone(),
                run.created_at.clone(),
                run.content_hash.clone(),
                trend.corpus.clone(),
                m.model.clone(),
                p.n.to_string(),
                p.pass.to_string(),
                o(p.ci95.map(|c| c[0])),
                o(p.ci95.map(|c| c[1])),
            ]);
        }
    }
    to_csv(
        &[
            "run",
            "created_at",
            "content_hash",
            "corpus",
            "model",
            "n",
            "pass",
            "lo",
            "hi",
        ],
        &lines,
    )
}
