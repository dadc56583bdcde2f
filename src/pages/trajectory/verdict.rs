//! The judges' verdict, told after the run's final answer: the outcome with its tally, the
//! panel's reasoning and every vote (judge, verdict, reason) as text.

use leptos::prelude::*;
use runlens_core::bundle::{Cell, Vote};

use super::header::outcome_and_tally;

/// The verdict of the judge panel on one cell.
#[component]
pub fn Verdict(
    /// The cell.
    cell: Cell,
) -> impl IntoView {
    let (outcome, tally) = outcome_and_tally(&cell);
    let score = cell.result_score.clone().unwrap_or_default();
    let votes = score.votes.clone().unwrap_or_default();
    let panel_reason = score.reasoning.clone().filter(|r| !r.is_empty());
    let none = votes.is_empty();
    view! {
        <section class="verdict" data-testid="verdict">
            <h4>
                "The judges' verdict: "
                <span class=format!("outcome outcome-{outcome}")>{outcome.clone()}</span>
                {(!tally.is_empty()).then(|| view! { " " <span class="tally">{format!("({tally})")}</span> })}
            </h4>
            {panel_reason.map(|r| view! { <p class="panel-reason">"Panel: " {r}</p> })}
            {none.then(|| view! { <p class="hint">"No votes recorded."</p> })}
            <ol class="votes" data-testid="votes">
                {votes.into_iter().enumerate().map(|(i, v)| vote_view(i, v)).collect_view()}
            </ol>
        </section>
    }
}

fn vote_view(i: usize, v: Vote) -> impl IntoView {
    let judge = v
        .judge
        .clone()
        .unwrap_or_else(|| format!("judge {}", i + 1));
    let verdict = v
        .verdict
        .clone()
        .or_else(|| v.effective_outcome().map(|o| o.as_str().to_owned()))
        .unwrap_or_else(|| "no verdict".to_owned());
    let outcome = v.effective_outcome().map(|o| o.as_str().to_owned());
    let judge_attr = judge.clone();
    view! {
        <li class="vote" data-judge=judge_attr>
            <span class="vote-judge">{judge}</span>": "
            <span class="vote-verdict">{verdict}</span>
            {outcome.map(|o| view! { " " <span class="vote-outcome">{format!("({o})")}</span> })}
            {v.data_equiv.clone().map(|d| view! { " " <span class="vote-equiv">{format!("[data: {d}]")}</span> })}
            " — " <span class="vote-reason">{v.reasoning.clone().unwrap_or_default()}</span>
        </li>
    }
}
