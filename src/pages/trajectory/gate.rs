//! The cell's gate row: did the hint fire, which tables the note named, whether the gated
//! run queried the gold tables the baseline missed, and baseline vs gated outcome and cost.

use leptos::prelude::*;
use runlens_core::bundle::{GateRow, Outcome, Usage};

use crate::state::{Tab, UrlState};

fn list(v: &Option<Vec<runlens_core::bundle::Name>>) -> String {
    match v.as_deref() {
        None => "—".into(),
        Some([]) => "none".into(),
        Some(v) => v.join(", "),
    }
}

fn outcome(o: &Option<Outcome>) -> String {
    o.as_ref()
        .map_or_else(|| "—".into(), |o| o.as_str().to_owned())
}

fn tokens(u: &Option<Usage>) -> String {
    u.as_ref()
        .and_then(|u| u.total_tokens())
        .map_or_else(|| "—".into(), |t| t.to_string())
}

fn num<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "—".into(), |v| v.to_string())
}

/// Gate details, or nothing when the corpus has no gate row for the cell.
#[component]
pub fn GateDetails(row: Option<GateRow>) -> impl IntoView {
    let state = UrlState::use_context();
    row.map(|g| {
        let fired = g.fired.unwrap_or(0) > 0;
        let gold = g.gold.clone().unwrap_or_default();
        let model = g.model.clone();
        let open_gate = move |_| {
            let m = model.clone();
            state.push(|s| {
                s.tab = Tab::Gate;
                s.gate.model = Some(m);
            });
        };
        view! {
            <section class="gate-details" data-testid="gate-details" data-fired=fired.to_string()>
                <h4>"In-loop gate"</h4>
                {g.cell_error.clone().map(|e| view! { <p class="result-error">"Gate error: " {e}</p> })}
                <p>{if fired { "The hint fired." } else { "The hint did not fire." }}</p>
                <p>"Tables the note named (top-k): "
                    {g.topk.clone().unwrap_or_default().into_iter().enumerate().map(|(i, t)| {
                        let is_gold = gold.contains(&t);
                        view! {
                            {(i > 0).then_some(", ")}
                            <code class:gold=is_gold>{t}</code>{is_gold.then_some(" ★")}
                        }
                    }).collect_view()}
                </p>
                <dl class="label-facts">
                    <div><dt>"gold the baseline missed"</dt><dd>{list(&g.missed_gold)}</dd></div>
                    <div><dt>"… which the note named"</dt><dd>{list(&g.note_covered_missed)}</dd></div>
                    <div><dt>"… which the gated run queried"</dt><dd data-testid="missed-now-queried">{list(&g.missed_now_queried)}</dd></div>
                </dl>
                <div class="table-scroll">
                <table class="gate-arms">
                    <thead><tr><th>"arm"</th><th>"outcome"</th><th>"turns"</th><th>"latency (s)"</th><th>"tokens"</th></tr></thead>
                    <tbody>
                        <tr data-arm="baseline"><td>"baseline"</td><td>{outcome(&g.baseline_outcome)}</td>
                            <td>{num(g.baseline_turns)}</td><td>{num(g.baseline_latency)}</td><td>{tokens(&g.baseline_usage)}</td></tr>
                        <tr data-arm="gated"><td>"gated"</td><td>{outcome(&g.gated_outcome)}</td>
                            <td>{num(g.gated_turns)}</td><td>{num(g.gated_latency)}</td><td>{tokens(&g.gated_usage)}</td></tr>
                    </tbody>
                </table>
                </div>
                <p class="hint">"The harness's gate output (out/schema_retrieval_agent.jsonl) records the gated arm's "
                    "outcome, turns, latency and usage, not its SQL or answer: the trajectory above is the baseline arm's."
                    " " <button class="link" on:click=open_gate>"Open this model in the gate view"</button></p>
            </section>
        }
    })
}
