//! The trajectory's header: question, corpus, model, and the outcome with the judge tally
//! (the votes themselves come after the run's final answer: [`super::verdict`]).

use leptos::prelude::*;
use runlens_core::bundle::Cell;

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

/// The cell's outcome as read (`unscored` without one) and its tally text.
pub fn outcome_and_tally(cell: &Cell) -> (String, String) {
    let outcome = cell
        .outcome()
        .map_or_else(|| "unscored".to_owned(), |o| o.as_str().to_owned());
    (outcome, tally_text(cell))
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
    let (outcome, tally) = outcome_and_tally(&cell);
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
        </header>
    }
}
