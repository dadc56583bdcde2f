//! The gate table: one row per model then the pooled row; headline counts carry
//! `data-metric="gate:<model>:<name>"` with unrounded values. Clicking a model sets `gmodel`.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
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

/// A rate difference in percentage points, signed: `+2.35 pp`.
fn pp(v: f64) -> String {
    format!("{:+.2} pp", 100.0 * v)
}

/// An interval of a rate difference in percentage points: `[−0.41, +5.10]`.
fn pp_ci(ci: Option<&BootstrapCi>) -> String {
    ci.map_or_else(
        || "[…]".to_owned(),
        |c| format!("[{:+.2}, {:+.2}]", 100.0 * c.lo, 100.0 * c.hi),
    )
}

/// The view's one-line headline: the pooled row's net effect with its interval.
#[component]
pub fn GateHeadline(groups: Memo<Vec<GateGroup>>) -> impl IntoView {
    move || {
        groups
            .with(|g| g.iter().find(|g| g.model == ALL).cloned())
            .map(|all| {
                let c = &all.counts;
                let verdict = match all.net_ci.as_ref() {
                    None => "its 95% interval is being computed",
                    Some(ci) if ci.lo > 0.0 => "the interval is above zero",
                    Some(ci) if ci.hi < 0.0 => "the interval is below zero",
                    Some(_) => "the interval includes zero",
                };
                view! {
                    <p class="gate-headline" data-testid="gate-headline">
                        "Net effect of the gate, all models: "
                        <strong>{pp(c.net)}</strong>" "{pp_ci(all.net_ci.as_ref())}
                        {format!(
                            " — {verdict} ({} cells, the hint fired in {}; pass {:.1}% → {:.1}%).",
                            c.cells,
                            c.fired,
                            100.0 * c.baseline_rate,
                            100.0 * c.gated_rate
                        )}
                    </p>
                }
            })
    }
}

/// The table of `groups` (models under the model selection, then the pooled row): the
/// headline columns, each row's details (fired-only counts, turns and tokens, the
/// over-exploring split) folded under it.
#[component]
pub fn GateTable(
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
    // Which rows are open; kept here, as a row is rebuilt when its intervals come in.
    let open = RwSignal::new(Vec::<String>::new());
    let csv = Callback::new(move |()| shown.with_untracked(|g| gate_csv(g)));
    view! {
        <div class="table-scroll">
        <table class="gate-table" data-testid="gate-table">
            <thead><tr>
                <th>"model"</th><th>"cells"</th><th>"fired"</th><th>"pass: baseline → gated"</th>
                <th>"net [95% CI]"</th><th>"recovered / regressed"</th><th><span class="visually-hidden">"details"</span></th>
            </tr></thead>
            // One body per model: its row, and its details when open. Keyed by model and
            // which intervals are in: each finished bootstrap replaces its own rows only
            // (rebuilding every row per step cost 50+ ms on `large`).
            <For each=move || shown.get() key=row_key let:g>
                <GroupRows name=bundle.body.display_name(&g.model).to_owned() group=g open=open />
            </For>
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
fn GroupRows(group: GateGroup, name: String, open: RwSignal<Vec<String>>) -> impl IntoView {
    let state = UrlState::use_context();
    let c = group.counts.clone();
    let m = group.model.clone();
    let metric = |name: &str, v: f64, digits: usize| {
        view! { <MetricValue name=format!("gate:{m}:{name}") value=v digits=digits /> }
    };
    let model = group.model.clone();
    let selected = {
        let m = model.clone();
        move || state.with(|s| s.gate.model.as_deref() == Some(m.as_str()))
    };
    let pick = {
        let m = model.clone();
        move |_| {
            let m = m.clone();
            state.push(move |s| s.gate.model = Some(m));
        }
    };
    let is_open = {
        let m = model.clone();
        Memo::new(move |_| open.with(|o| o.contains(&m)))
    };
    let toggle = {
        let m = model.clone();
        move |_| {
            open.update(|o| match o.iter().position(|x| *x == m) {
                Some(i) => {
                    o.remove(i);
                }
                None => o.push(m.clone()),
            })
        }
    };
    let is_all = model == ALL;
    let details_id = format!(
        "gate-details-{}",
        model.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    );
    let net = view! {
        <span class="metric" data-metric=format!("gate:{m}:net") data-value=c.net.to_string()>{pp(c.net)}</span>
    };
    let details = {
        let (g, c) = (group.clone(), c.clone());
        let id = details_id.clone();
        move || {
            is_open.get().then(|| view! {
            <tr class="gate-details" id=id.clone()>
                <td colspan="7">
                    <dl>
                        <div><dt>"recovered / regressed where the hint fired"</dt><dd>{format!("{} / {}", c.recovered_fired, c.regressed_fired)}</dd></div>
                        <div><dt>"exact tool chain (of them recovered)"</dt><dd>{format!("{} ({})", c.chain, c.chain_recovered)}</dd></div>
                        <div><dt>"Δ turns where it fired [95% CI]"</dt><dd>{opt(c.turn_delta_fired, 2)}" "{ci_text(g.turn_delta_ci.as_ref(), 2)}</dd></div>
                        <div><dt>"Δ output tokens where it fired [95% CI]"</dt><dd>{opt(c.output_token_delta_fired, 0)}" "{ci_text(g.output_token_delta_ci.as_ref(), 0)}</dd></div>
                        <div><dt>"over-exploring (≥ 10 baseline turns)"</dt><dd>{split(&g.over_exploring)}</dd></div>
                        <div><dt>"the rest"</dt><dd>{split(&g.rest)}</dd></div>
                    </dl>
                </td>
            </tr>
        })
        }
    };
    view! {
        <tbody>
        <tr data-model=model.clone() class:selected=selected>
            <td>{if is_all { view! { <span>"all models"</span> }.into_any() } else {
                view! { <button type="button" class="link" data-testid="gate-model" title=model.clone() on:click=pick>{name.clone()}</button> }.into_any()
            }}</td>
            <td class="num">{c.cells}</td>
            <td class="num">{metric("fired", c.fired as f64, 0)}{format!(" ({:.1}%)", 100.0 * c.fired_share)}</td>
            <td class="num">{format!("{:.1}% → {:.1}%", 100.0 * c.baseline_rate, 100.0 * c.gated_rate)}</td>
            <td class="num">{net}" "{pp_ci(group.net_ci.as_ref())}</td>
            <td class="num">{metric("recovered", c.recovered as f64, 0)}" / "{metric("regressed", c.regressed as f64, 0)}</td>
            <td>
                <button type="button" class="link" data-testid="gate-details-toggle"
                    aria-expanded=move || is_open.get().to_string() aria-controls=details_id.clone()
                    on:click=toggle>{move || if is_open.get() { "less" } else { "more" }}</button>
            </td>
        </tr>
        {details}
        </tbody>
    }
}
