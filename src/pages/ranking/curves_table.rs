//! The exact values behind the curves, one row per k (also what a screen reader reads).

use leptos::prelude::*;
use runlens_core::metrics::curves::RetrievalCurves;

/// A compact table of nDCG@k, recall@k, all-required@k, precision@k and hit@k.
#[component]
pub fn CurvesTable(curves: RetrievalCurves) -> impl IntoView {
    let rows: Vec<_> = curves
        .k
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let v = |s: &[f64]| s.get(i).copied().unwrap_or(0.0);
            (
                k,
                v(&curves.ndcg),
                v(&curves.recall),
                v(&curves.all_required),
                v(&curves.precision),
                v(&curves.hit),
            )
        })
        .collect();
    view! {
        <details class="curve-values">
            <summary>"Exact values for every k"</summary>
            <table class="values">
                <thead><tr><th>"k"</th><th>"nDCG@k"</th><th>"recall@k"</th><th>"all-required@k"</th><th>"precision@k"</th><th>"hit@k"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(k, n, r, a, p, h)| view! {
                        <tr data-k=k>
                            <td class="num">{k}</td>
                            <td class="num" data-value=n.to_string()>{format!("{n:.4}")}</td>
                            <td class="num" data-value=r.to_string()>{format!("{r:.4}")}</td>
                            <td class="num" data-value=a.to_string()>{format!("{a:.4}")}</td>
                            <td class="num" data-value=p.to_string()>{format!("{p:.4}")}</td>
                            <td class="num" data-value=h.to_string()>{format!("{h:.4}")}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <p class="hint">{format!("MRR (first gold table, uncut): {:.4}", curves.mrr)}</p>
        </details>
    }
}
