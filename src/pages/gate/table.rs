//! The gate table: one row per model then the pooled row; headline counts carry
//! `data-metric="gate:<model>:<name>"` with unrounded values. Clicking a model sets `gmodel`.

use leptos::prelude::*;
use runlens_core::csv::to_csv;
use runlens_core::metrics::bootstrap::BootstrapCi;
use runlens_core::metrics::gate::{GateCounts, GateGroup};

use crate::components::{ExportButtons, MetricValue};
use crate::state::UrlState;
use runlens_core::metrics::gate_view::ALL;

fn ci_text(ci: Option<&BootstrapCi>, digits: usize) -> String {
    ci.map_or_else(
        || "[…]".to_owned(),
        |c| format!("[{:.*}, {:.*}]", digits, c.lo, digits, c.hi),
    )
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".to_owned(), |v| format!("{v:+.digits$}"))
}

fn split(c: &GateCounts) -> String {
    format!(
        "{} cells · {} fired · net {:+.3} · Δturns {}",
        c.cells,
        c.fired,
        c.net,
        opt(c.turn_delta_fired, 2)
    )
}

/// Every group as CSV, unrounded (intervals empty until computed).
pub fn gate_csv(groups: &[GateGroup]) -> String {
    let f = |v: f64| v.to_string();
    let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
    let lo = |c: Option<&BootstrapCi>| o(c.map(|c| c.lo));
    let hi = |c: Option<&BootstrapCi>| o(c.map(|c| c.hi));
    let rows: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let c = &g.counts;
            vec![
                g.model.clone(),
                c.cells.to_string(),
                c.fired.to_string(),
                f(c.fired_share),
                c.baseline_pass.to_string(),
                c.gated_pass.to_string(),
                f(c.baseline_rate),
                f(c.gated_rate),
                f(c.net),
                lo(g.net_ci.as_ref()),
                hi(g.net_ci.as_ref()),
                c.recovered.to_string(),
                c.regressed.to_string(),
                c.recovered_fired.to_string(),
                c.regressed_fired.to_string(),
                c.chain.to_string(),
                c.chain_recovered.to_string(),
                o(c.turn_delta_fired),
                lo(g.turn_delta_ci.as_ref()),
                hi(g.turn_delta_ci.as_ref()),
                o(c.output_token_delta_fired),
                lo(g.output_token_delta_ci.as_ref()),
                hi(g.output_token_delta_ci.as_ref()),
                g.over_exploring.cells.to_string(),
                g.over_exploring.fired.to_string(),
                f(g.over_exploring.net),
                o(g.over_exploring.turn_delta_fired),
                g.rest.cells.to_string(),
                g.rest.fired.to_string(),
                f(g.rest.net),
                o(g.rest.turn_delta_fired),
            ]
        })
        .collect();
    to_csv(
        &[
            "model",
            "cells",
            "fired",
            "fired_share",
            "baseline_pass",
            "gated_pass",
            "baseline_rate",
            "gated_rate",
            "net",
            "net_lo",
            "net_hi",
            "recovered",
            "regressed",
            "recovered_fired",
            "regressed_fired",
            "chain",
            "chain_recovered",
            "turn_delta_fired",
            "turn_delta_lo",
            "turn_delta_hi",
            "output_token_delta_fired",
            "output_token_delta_lo",
            "output_token_delta_hi",
            "over_exploring_cells",
            "over_exploring_fired",
            "over_exploring_net",
            "over_exploring_turn_delta",
            "rest_cells",
            "rest_fired",
            "rest_net",
            "rest_turn_delta",
        ],
        &rows,
    )
}

/// The table of `groups` (models under the model selection, then the pooled row).
#[component]
pub fn GateTable(groups: RwSignal<Vec<GateGroup>>, corpus: String) -> impl IntoView {
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
    let csv = Callback::new(move |()| shown.with_untracked(|g| gate_csv(g)));
    view! {
        <div class="table-scroll">
        <table class="gate-table" data-testid="gate-table">
            <thead><tr>
                <th>"model"</th><th>"cells"</th><th>"fired"</th><th>"baseline pass"</th>
                <th>"gated pass"</th><th>"net [95% CI]"</th><th>"recovered"</th><th>"regressed"</th>
                <th>"rec. / reg. (fired)"</th><th>"exact chain (recovered)"</th>
                <th>"Δ turns, fired [CI]"</th><th>"Δ output tokens, fired [CI]"</th>
                <th>"over-exploring (≥ 10 baseline turns)"</th><th>"rest"</th>
            </tr></thead>
            <tbody>
                // Keyed by model and which intervals are in: each finished bootstrap replaces
                // its own row only (rebuilding every row per step cost 50+ ms on `large`).
                <For each=move || shown.get() key=row_key let:g>
                    <GroupRow group=g />
                </For>
            </tbody>
        </table>
        </div>
        <ExportButtons base_name=format!("gate-{corpus}") csv=csv />
    }
}

/// A row's identity: its model and which of its intervals are computed.
fn row_key(g: &GateGroup) -> (String, bool, bool, bool) {
    (
        g.model.clone(),
        g.net_ci.is_some(),
        g.turn_delta_ci.is_some(),
        g.output_token_delta_ci.is_some(),
    )
}

#[component]
fn GroupRow(group: GateGroup) -> impl IntoView {
    let state = UrlState::use_context();
    let c = group.counts.clone();
    let m = group.model.clone();
    let metric = |name: &str, v: f64, digits: usize| {
        view! { <MetricValue name=format!("gate:{m}:{name}") value=v digits=digits /> }
    };
    let model = group.model.clone();
    let selected = {
        let m = model.clone();
        move || state.with(|s| s.gate_model.as_deref() == Some(m.as_str()))
    };
    let pick = {
        let m = model.clone();
        move |_| {
            let m = m.clone();
            state.push(move |s| s.gate_model = Some(m));
        }
    };
    let is_all = model == ALL;
    view! {
        <tr data-model=model.clone() class:selected=selected>
            <td>{if is_all { view! { <span>{model.clone()}</span> }.into_any() } else {
                view! { <button type="button" class="link" data-testid="gate-model" on:click=pick>{model.clone()}</button> }.into_any()
            }}</td>
            <td class="num">{c.cells}</td>
            <td class="num">{metric("fired", c.fired as f64, 0)}{format!(" ({:.1}%)", 100.0 * c.fired_share)}</td>
            <td class="num">{format!("{} ({:.1}%)", c.baseline_pass, 100.0 * c.baseline_rate)}</td>
            <td class="num">{format!("{} ({:.1}%)", c.gated_pass, 100.0 * c.gated_rate)}</td>
            <td class="num">{metric("net", c.net, 4)}" "{ci_text(group.net_ci.as_ref(), 4)}</td>
            <td class="num">{metric("recovered", c.recovered as f64, 0)}</td>
            <td class="num">{metric("regressed", c.regressed as f64, 0)}</td>
            <td class="num">{format!("{} / {}", c.recovered_fired, c.regressed_fired)}</td>
            <td class="num">{format!("{} ({})", c.chain, c.chain_recovered)}</td>
            <td class="num">{opt(c.turn_delta_fired, 2)}" "{ci_text(group.turn_delta_ci.as_ref(), 2)}</td>
            <td class="num">{opt(c.output_token_delta_fired, 0)}" "{ci_text(group.output_token_delta_ci.as_ref(), 0)}</td>
            <td>{split(&group.over_exploring)}</td>
            <td>{split(&group.rest)}</td>
        </tr>
    }
}
