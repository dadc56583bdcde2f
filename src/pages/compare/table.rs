//! The per-model table of one corpus: n, pass rates in A and B over the questions scored in
//! both, the paired difference with its 95% interval and p, and the questions that improved
//! and regressed. `data-metric="delta:<model>"` carries the unrounded difference.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::compare::{CorpusCompare, ModelDelta};

use crate::state::UrlState;

/// `v` in percentage points with a sign and one decimal (`−` for negatives), or `–`.
pub fn signed_points(v: Option<f64>) -> String {
    match v {
        Some(v) if 100.0 * v >= 0.05 => format!("+{:.1}", 100.0 * v),
        Some(v) if 100.0 * v <= -0.05 => format!("−{:.1}", -100.0 * v),
        Some(_) => "0.0".to_owned(),
        None => "–".to_owned(),
    }
}

/// `p` as a reader reads it: three decimals, `< 0.001` below that.
pub fn p_text(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.001 => "< 0.001".to_owned(),
        Some(p) => format!("{p:.3}"),
        None => "–".to_owned(),
    }
}

/// The models shown (the model filter) in the order both the table and the plot use:
/// largest difference first, models without one last.
pub fn shown_models(corpus: &CorpusCompare, shown: impl Fn(&str) -> bool) -> Vec<ModelDelta> {
    let mut rows: Vec<ModelDelta> = corpus
        .models
        .iter()
        .filter(|m| shown(&m.model))
        .cloned()
        .collect();
    rows.sort_by(|x, y| {
        let key = |m: &ModelDelta| m.delta.delta.unwrap_or(f64::NEG_INFINITY);
        key(y).total_cmp(&key(x))
    });
    rows
}

/// The table of `corpus`'s models (display names from run A).
#[component]
pub fn DeltaTable(corpus: Arc<CorpusCompare>, bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let rows = move || state.with(|s| shown_models(&corpus, |m| s.shows_model(m)));
    view! {
        <div class="table-scroll">
        <table class="board compare-table" data-testid="compare-table">
            <caption class="visually-hidden">"Paired pass-rate difference per model, run B − run A"</caption>
            <thead>
                <tr>
                    <th scope="col">"Model"</th>
                    <th scope="col" class="num" title="questions scored in both runs">"n"</th>
                    <th scope="col" class="num">"Pass A %"</th>
                    <th scope="col" class="num">"Pass B %"</th>
                    <th scope="col" class="num" title="mean of score B − score A, percentage points">"Δ pp"</th>
                    <th scope="col" class="num">"95% interval"</th>
                    <th scope="col" class="num" title="two-sided, normal">"p"</th>
                    <th scope="col" class="num" title="questions whose score rose">"Improved"</th>
                    <th scope="col" class="num" title="questions whose score fell">"Regressed"</th>
                </tr>
            </thead>
            <tbody>
                {move || rows().into_iter().map(|m| {
                    let d = m.delta;
                    let name = bundle.body.display_name(&m.model).to_owned();
                    let interval = d.interval95().map_or_else(
                        || "–".to_owned(),
                        |(lo, hi)| format!("{} to {}", signed_points(Some(lo)), signed_points(Some(hi))),
                    );
                    let sign = match d.delta {
                        Some(x) if x > 0.0 => "up",
                        Some(x) if x < 0.0 => "down",
                        _ => "flat",
                    };
                    let pct = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{:.1}", 100.0 * v));
                    view! {
                        <tr data-model=m.model.clone()>
                            <th scope="row">{name}</th>
                            <td class="num">{d.n}</td>
                            <td class="num">{pct(d.pass_a)}</td>
                            <td class="num">{pct(d.pass_b)}</td>
                            <td class=format!("num delta {sign}")>
                                {match d.delta {
                                    Some(x) => view! {
                                        <span class="metric" data-metric=format!("delta:{}", m.model) data-value=x.to_string()>
                                            {signed_points(Some(x))}
                                        </span>
                                    }.into_any(),
                                    None => view! { "–" }.into_any(),
                                }}
                            </td>
                            <td class="num">{interval}</td>
                            <td class="num">{p_text(d.p)}</td>
                            <td class="num">{d.improved}</td>
                            <td class="num">{d.regressed}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        </div>
    }
}

