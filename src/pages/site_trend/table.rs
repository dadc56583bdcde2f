//! The trend as a table: one row per run (run order), one column per shown model, each
//! cell the pass rate in percent with `data-metric="trend:<run>:<model>"` carrying the
//! unrounded fraction, its interval and `n` in the cell's title.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::site::{RunEntry, RunIndex, Trend, TrendPoint, readable_time};

use crate::state::{ViewState, encode_query};

/// The link that opens `run` on `corpus`, pinned to its content hash (`h`), relative to the
/// page (a site works from any sub-path).
pub fn run_href(run: &RunEntry, corpus: &str) -> String {
    let state = ViewState {
        bundle: Some(run.file.clone()),
        hash: Some(run.content_hash.chars().take(12).collect()),
        corpus: Some(corpus.to_owned()),
        ..ViewState::default()
    };
    let query = encode_query(&state);
    if query.is_empty() {
        "./".to_owned()
    } else {
        query
    }
}

/// A cell's title: `n = 132 · 95% CI 73.3–86.4`.
fn cell_title(p: &TrendPoint) -> String {
    match p.ci95 {
        Some([lo, hi]) => format!("n = {} · 95% CI {:.1}–{:.1}", p.n, 100.0 * lo, 100.0 * hi),
        None => format!("n = {}", p.n),
    }
}

/// The table of `trend`, the models `shown` (a copy of the chart in numbers).
#[component]
pub fn TrendTable(
    index: Arc<RunIndex>,
    trend: Signal<Arc<Trend>>,
    shown: Signal<Vec<String>>,
) -> impl IntoView {
    let body = move || {
        let trend = trend.get();
        let keys = shown.get();
        let models: Vec<usize> = trend
            .models
            .iter()
            .enumerate()
            .filter(|(_, m)| keys.is_empty() || keys.contains(&m.model))
            .map(|(i, _)| i)
            .collect();
        let head = models
            .iter()
            .map(|&i| {
                let m = &trend.models[i];
                view! { <th scope="col" class="num" title=m.model.clone()>{m.name.clone()}</th> }
            })
            .collect_view();
        let rows = trend
            .runs
            .iter()
            .enumerate()
            .map(|(col, &r)| {
                let run = &index.runs[r];
                let cells = models
                    .iter()
                    .map(|&i| {
                        let m = &trend.models[i];
                        match m.points[col] {
                            Some(p) => view! {
                                <td class="num" title=cell_title(&p)>
                                    <span class="metric" data-metric=format!("trend:{}:{}", run.name, m.model)
                                        data-value=p.pass.to_string()>{format!("{:.1}", 100.0 * p.pass)}</span>
                                </td>
                            }
                            .into_any(),
                            None => view! { <td class="num" title="not in this run">"–"</td> }.into_any(),
                        }
                    })
                    .collect_view();
                view! {
                    <tr data-run=run.name.clone()>
                        <th scope="row">
                            <a href=run_href(run, &trend.corpus) data-testid="trend-open">{run.name.clone()}</a>
                        </th>
                        <td class="when" title=run.created_at.clone()>{readable_time(&run.created_at)}</td>
                        {cells}
                    </tr>
                }
            })
            .collect_view();
        view! {
            <thead><tr><th scope="col">"Run"</th><th scope="col">"Created"</th>{head}</tr></thead>
            <tbody>{rows}</tbody>
        }
    };
    view! {
        <div class="table-scroll">
            <table class="board trend-table" data-testid="trend-table">
                <caption class="visually-hidden">"Pass rate per run and model, percent"</caption>
                {body}
            </table>
        </div>
    }
}
