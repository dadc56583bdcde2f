//! The trajectory's header: question, corpus, model, outcome with the judge tally, and every
//! judge vote (verdict, judge, reason) as text.

use leptos::prelude::*;
use runlens_core::bundle::{Cell, Vote};

/// `"pass 2 · fail 1"` from a tally, in the order read (empty without one).
pub fn tally_text(cell: &Cell) -> String {
    cell.result_score
        .as_ref()
        .and_then(|r| r.tally.as_ref())
        .map(|t| {
            t.iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(" · ")
        })
        .unwrap_or_default()
}

/// The header.
#[component]
pub fn Header(
    /// The question text (empty when unknown).
    question: String,
    /// Corpus name.
    corpus: String,
    /// Model key.
    model: String,
    /// Model display name.
    display: String,
    /// Trace id.
    trace: String,
    /// The cell.
    cell: Cell,
) -> impl IntoView {
    let outcome = cell
        .outcome()
        .map_or_else(|| "unscored".to_owned(), |o| o.as_str().to_owned());
    let tally = tally_text(&cell);
    let score = cell.result_score.clone().unwrap_or_default();
    let votes = score.votes.clone().unwrap_or_default();
    let panel_reason = score.reasoning.clone().filter(|r| !r.is_empty());
    let model_text = if display == model {
        model.clone()
    } else {
        format!("{display} ({model})")
    };
    let title = if question.is_empty() {
        format!("Question {trace}")
    } else {
        question
    };
    view! {
        <header class="trajectory-head">
            <h3 class="trajectory-question" data-testid="trajectory-question">{title}</h3>
            <dl class="trajectory-facts">
                <div><dt>"corpus"</dt><dd data-testid="trajectory-corpus">{corpus}</dd></div>
                <div><dt>"model"</dt><dd data-testid="trajectory-model">{model_text}</dd></div>
                <div><dt>"trace"</dt><dd><code>{trace}</code></dd></div>
                <div><dt>"outcome"</dt><dd>
                    <span class=format!("outcome outcome-{outcome}") data-testid="trajectory-outcome">{outcome.clone()}</span>
                    {(!tally.is_empty()).then(|| view! {
                        " " <span class="tally" data-testid="trajectory-tally">{format!("({tally})")}</span>
                    })}
                </dd></div>
            </dl>
            {panel_reason.map(|r| view! { <p class="panel-reason">"Panel: " {r}</p> })}
            <ol class="votes" data-testid="votes">
                {votes.into_iter().enumerate().map(|(i, v)| vote_view(i, v)).collect_view()}
            </ol>
        </header>
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
