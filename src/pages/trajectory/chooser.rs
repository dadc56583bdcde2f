//! Picking a cell when none is open: corpus and model selects and a question search
//! (text or trace id), showing at most [`MAX_MATCHES`] questions, each with the model's
//! outcome (the worker's answer: [`runlens_core::trajectory::choices`]).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::trajectory::{Choice, ChoicesQuery};

use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::ask_newest;
use crate::state::UrlState;

/// Questions listed at most.
pub const MAX_MATCHES: usize = 20;

/// The chooser.
#[component]
pub fn Chooser(bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let body = StoredValue::new(bundle.clone());
    let corpora: Vec<String> = bundle.body.corpora.iter().map(|c| c.name.clone()).collect();
    let first = state
        .with_untracked(|s| s.corpus.clone())
        .filter(|c| corpora.contains(c))
        .or_else(|| corpora.first().cloned())
        .unwrap_or_default();
    let corpus = RwSignal::new(first);
    let models = Memo::new(move |_| {
        let c = corpus.get();
        body.with_value(|b| {
            b.body
                .corpus(&c)
                .map(|c| c.models.clone())
                .unwrap_or_default()
        })
    });
    let start_model = state
        .with_untracked(|s| s.trajectory.model.clone())
        .filter(|m| models.with_untracked(|ms| ms.contains(m)))
        .or_else(|| models.with_untracked(|ms| ms.first().cloned()));
    let model = RwSignal::new(start_model.unwrap_or_default());
    Effect::new(move |_| {
        let ms = models.get();
        if !ms.contains(&model.get_untracked()) {
            model.set(ms.first().cloned().unwrap_or_default());
        }
    });
    let search = RwSignal::new(String::new());
    let query = Memo::new(move |_| ChoicesQuery {
        corpus: corpus.get(),
        model: model.get(),
        search: search.get(),
        max: MAX_MATCHES,
    });
    let matches = RwSignal::new(Vec::<Choice>::new());
    // The question the shown matches answer, and why there are none when the answer failed.
    let answered = RwSignal::new(None::<(ChoicesQuery, Option<String>)>);
    ask_newest(
        bundle,
        query,
        |q| Some(ViewQuery::TrajectoryChoices(q)),
        move |q, got: Result<Vec<Choice>, String>| {
            let error = got.as_ref().err().cloned();
            matches.set(got.unwrap_or_default());
            answered.set(Some((q, error)));
        },
    );
    let none_found = move || {
        answered.with(|a| match a {
            Some((_, Some(e))) => Some(format!("The questions could not be listed: {e}")),
            Some((q, None)) if matches.with(Vec::is_empty) => Some(if q.search.is_empty() {
                format!("{} has no cells in this corpus.", q.model)
            } else {
                format!("No question of {} matches “{}”.", q.model, q.search)
            }),
            _ => None,
        })
    };
    let open = move |trace: String| {
        let (c, m) = (corpus.get_untracked(), model.get_untracked());
        state.push(|s| {
            s.open_cell(&c, &m, &trace, "");
            s.trajectory.from = None;
        });
    };
    view! {
        <div class="trajectory-chooser" data-testid="trajectory-chooser">
            <label>"Corpus "
                <select on:change=move |ev| corpus.set(event_target_value(&ev)) prop:value=move || corpus.get()>
                    {corpora.into_iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>" Model "
                <select data-testid="chooser-model" on:change=move |ev| model.set(event_target_value(&ev))
                    prop:value=move || model.get()>
                    {move || models.get().into_iter().map(|m| view! { <option value=m.clone()>{m.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>" Question "
                <input type="search" placeholder="text or trace id" prop:value=move || search.get()
                    on:input=move |ev| search.set(event_target_value(&ev)) />
            </label>
            {move || none_found().map(|t| view! { <p class="hint" data-testid="chooser-none">{t}</p> })}
            <ul class="chooser-matches">
                {move || matches.get().into_iter().map(|Choice { trace, text, outcome }| {
                    let label = if text.is_empty() { trace.clone() } else { text };
                    let t = trace.clone();
                    // The model's outcome on the question, as a badge before it.
                    let outcome = outcome.map_or_else(|| "unscored".to_owned(), |o| o.as_str().to_owned());
                    view! {
                        <li data-outcome=outcome.clone()>
                            <span class=format!("chooser-outcome outcome-{outcome}")>{outcome.clone()}</span>
                            " "
                            <button class="link" data-trace=trace on:click=move |_| open(t.clone())>{label}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    }
}
