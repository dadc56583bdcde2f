//! The fired cells of one model: baseline → gated outcome, turns, output tokens, the
//! note's tables and whether the gated run queried the gold tables the baseline missed;
//! each opens the trajectory.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_core::bundle::{Bundle, GateRow, Outcome};

use crate::derived::answers::{ViewQuery, ask};
use crate::state::UrlState;

fn outcome(o: Option<&Outcome>) -> String {
    o.map_or("–", Outcome::as_str).to_owned()
}

fn pair<T: std::fmt::Display>(a: Option<T>, b: Option<T>) -> String {
    let s = |v: Option<T>| v.map_or_else(|| "–".to_owned(), |v| v.to_string());
    format!("{} → {}", s(a), s(b))
}

fn tokens(r: &GateRow) -> String {
    let c = |u: Option<&runlens_core::bundle::Usage>| u.and_then(|u| u.completion_tokens());
    pair(c(r.baseline_usage.as_ref()), c(r.gated_usage.as_ref()))
}

/// Whether the gated run queried a gold table the baseline missed (`None` when the row
/// records no missed gold).
fn queried_missed(r: &GateRow) -> Option<bool> {
    r.missed_gold.as_ref().filter(|m| !m.is_empty())?;
    Some(r.missed_now_queried.as_ref().is_some_and(|q| !q.is_empty()))
}

/// The list for `model`, asked of the data's owner.
#[component]
pub fn FiredCells(bundle: Arc<Bundle>, corpus: String, model: String) -> impl IntoView {
    let list = RwSignal::new(None::<Result<Vec<GateRow>, String>>);
    let query = ViewQuery::GateFired {
        corpus: corpus.clone(),
        model: model.clone(),
    };
    spawn_local(async move {
        let got = ask::<Vec<GateRow>>(&bundle, query).await;
        list.try_set(Some(got.map_err(|e| e.to_string())));
    });
    move || match list.get() {
        None => view! {
            <p class="notice" role="status">{format!("Listing the fired cells of {model}…")}</p>
        }
        .into_any(),
        Some(Err(e)) => view! {
            <p class="error" role="alert">{format!("The fired cells could not be listed: {e}")}</p>
        }
        .into_any(),
        Some(Ok(rows)) => view! {
            <FiredList rows=rows corpus=corpus.clone() model=model.clone() />
        }
        .into_any(),
    }
}

/// The fired rows of `model` as a table; each opens its trajectory.
#[component]
fn FiredList(rows: Vec<GateRow>, corpus: String, model: String) -> impl IntoView {
    let state = UrlState::use_context();
    let list = rows;
    let n = list.len();
    let items = list
        .into_iter()
        .map(|r| {
            let (c, m, t) = (corpus.clone(), model.clone(), r.trace_id.clone());
            let open = move |_| state.push(|s| s.open_cell(&c, &m, &t, "gate"));
            let note = r.topk.clone().unwrap_or_default().join(", ");
            let missed = match queried_missed(&r) {
                None => "no gold table missed".to_owned(),
                Some(true) => format!(
                    "missed {} · now queried {}",
                    r.missed_gold.clone().unwrap_or_default().join(", "),
                    r.missed_now_queried.clone().unwrap_or_default().join(", ")
                ),
                Some(false) => format!(
                    "missed {} · still not queried",
                    r.missed_gold.clone().unwrap_or_default().join(", ")
                ),
            };
            view! {
                <tr data-trace=r.trace_id.clone()>
                    <td><button type="button" class="link" data-testid="gate-open" on:click=open>{r.trace_id.clone()}</button></td>
                    <td>{format!("{} → {}", outcome(r.baseline_outcome.as_ref()), outcome(r.gated_outcome.as_ref()))}</td>
                    <td class="num">{pair(r.baseline_turns, r.gated_turns)}</td>
                    <td class="num">{tokens(&r)}</td>
                    <td>{note}</td>
                    <td>{missed}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="gate-fired" data-testid="gate-fired" data-model=model.clone() data-count=n>
            <h3>{format!("Fired cells of {model} ({n})")}</h3>
            <div class="table-scroll">
            <table>
                <thead><tr>
                    <th>"trace"</th><th>"baseline → gated"</th><th>"turns"</th>
                    <th>"output tokens"</th><th>"note tables"</th><th>"missed gold queried?"</th>
                </tr></thead>
                <tbody>{items}</tbody>
            </table>
            </div>
        </section>
    }
}
