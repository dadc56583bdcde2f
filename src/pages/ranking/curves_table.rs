//! The exact values behind the curves, one row per k and one column per ranking metric of
//! the registry (also what a screen reader reads).

use leptos::prelude::*;
use runlens_core::metrics::curves::RetrievalCurves;
use runlens_core::metrics::ranking_metrics::RANKING_METRICS;

/// A compact table of every curve: `data-metric="<key>@<k>"` cells carry unrounded values.
#[component]
pub fn CurvesTable(curves: RetrievalCurves) -> impl IntoView {
    let rows: Vec<(usize, Vec<(String, f64)>)> = curves
        .k
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let cells = curves
                .series()
                .map(|(m, v)| (format!("{}@{k}", m.key), v.get(i).copied().unwrap_or(0.0)))
                .collect();
            (k, cells)
        })
        .collect();
    view! {
        <details class="curve-values">
            <summary>"Exact values for every k"</summary>
            <div class="table-scroll">
                <table class="values">
                    <thead><tr>
                        <th>"k"</th>
                        {RANKING_METRICS.into_iter().map(|m| view! {
                            <th title=m.definition data-key=m.key>{m.label}</th>
                        }).collect_view()}
                    </tr></thead>
                    <tbody>
                        {rows.into_iter().map(|(k, cells)| view! {
                            <tr data-k=k>
                                <td class="num">{k}</td>
                                {cells.into_iter().map(|(name, v)| view! {
                                    <td class="num" data-cell=name data-value=v.to_string()>{format!("{v:.4}")}</td>
                                }).collect_view()}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <p class="hint">
                "nDCG, recall and all-required are the harness's; precision (denominator k), \
                 success (any gold table in the top k) and MRR@k (1 / rank of the first gold \
                 table within the top k) are runlens's. Definitions: docs/metrics.md."
            </p>
        </details>
    }
}
