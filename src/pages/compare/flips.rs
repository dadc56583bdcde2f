//! The questions behind one model's difference: those whose score changed from run A to run
//! B (`runlens_core::metrics::compare_flips`), the model chosen by `cm`, each opening both
//! runs side by side (`cq`, [`super::side_by_side`]).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::compare::CorpusCompare;
use runlens_core::metrics::compare_flips::flips;
use runlens_core::metrics::run_scores::CorpusScores;

use super::side_by_side::SideBySide;
use super::table::shown_models;
use crate::state::UrlState;

/// Rows listed before "Show more".
const PAGE: usize = 200;

/// Both runs' scores of one corpus, and both bundles.
#[derive(Clone)]
pub struct CorpusPair {
    /// Run A's scores of the corpus.
    pub a: Arc<CorpusScores>,
    /// Run B's.
    pub b: Arc<CorpusScores>,
    /// Run A.
    pub bundle_a: Arc<Bundle>,
    /// Run B.
    pub bundle_b: Arc<Bundle>,
}

/// The model picker and the chosen model's changed questions.
#[component]
pub fn Flips(corpus: Arc<CorpusCompare>, pair: CorpusPair) -> impl IntoView {
    let state = UrlState::use_context();
    let models = shown_models(&corpus, |_| true);
    // The chosen model, else the first in the table's order (the largest difference).
    let chosen = {
        let first = models.first().map(|m| m.model.clone());
        Memo::new(move |_| {
            state
                .with(|s| s.compare.model.clone())
                .or_else(|| first.clone())
        })
    };
    let limit = RwSignal::new(PAGE);
    let body = pair.bundle_a.body.clone();
    let options = models
        .iter()
        .map(|m| {
            let d = &m.delta;
            let label = format!(
                "{} ({} improved, {} regressed)",
                body.display_name(&m.model),
                d.improved,
                d.regressed
            );
            (m.model.clone(), label)
        })
        .collect::<Vec<_>>();
    let (a, b) = (pair.a.clone(), pair.b.clone());
    let rows = Memo::new(move |_| chosen.get().map(|m| flips(&a, &b, &m)).unwrap_or_default());
    let name = corpus.name.clone();
    let here = StoredValue::new(name.clone());
    let side = move || {
        let (model, trace, of) = state.with(|s| {
            let c = &s.compare;
            (c.model.clone(), c.trace.clone(), c.corpus.clone())
        });
        if of.is_some_and(|c| c != name) {
            return None;
        }
        let (model, trace) = (model.or_else(|| chosen.get())?, trace?);
        Some(view! {
            <SideBySide a=pair.bundle_a.clone() b=pair.bundle_b.clone()
                corpus=name.clone() model=model trace=trace />
        })
    };
    view! {
        <section class="compare-flips" data-testid="compare-flips">
            <h4>"Questions that changed"</h4>
            <label>"model "
                <select data-testid="compare-model"
                    prop:value=move || chosen.get().unwrap_or_default()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        limit.set(PAGE);
                        state.push(move |s| { s.compare.model = Some(v); s.compare.trace = None; s.compare.corpus = None; });
                    }>
                    {options.into_iter().map(|(key, label)| {
                        let selected = chosen.get_untracked().as_deref() == Some(key.as_str());
                        view! { <option value=key selected=selected>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
            {move || {
                let all = rows.get();
                let (n, shown) = (all.len(), limit.get());
                if n == 0 {
                    return view! { <p class="hint" data-testid="compare-no-flips">"No question changed for this model."</p> }.into_any();
                }
                let open = state.with(|s| {
                    let c = &s.compare;
                    c.trace.clone().filter(|_| {
                        c.corpus.as_deref().is_none_or(|c| here.with_value(|h| c == h))
                    })
                });
                view! {
                    <p class="hint">{format!("{n} questions changed, in run A's order. \"Open\" shows both runs side by side.")}</p>
                    <ul class="flip-list" data-testid="flip-list">
                        {all.into_iter().take(shown).map(|f| {
                            let trace = f.trace_id.clone();
                            let to_open = trace.clone();
                            let current = open.as_deref() == Some(trace.as_str());
                            let way = if f.improved() { "up" } else { "down" };
                            view! {
                                <li data-trace=trace.clone() class:current=current>
                                    <code>{trace.clone()}</code>
                                    " " <span class=format!("flip {way}")>{f.words()}</span> " "
                                    <button type="button" aria-pressed=current.to_string()
                                        on:click=move |_| {
                                            let (m, t, c) = (chosen.get_untracked(), to_open.clone(), here.get_value());
                                            state.push(move |s| {
                                                s.compare.model = m;
                                                s.compare.trace = Some(t);
                                                s.compare.corpus = Some(c);
                                            });
                                        }>"Open"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    {(n > shown).then(|| view! {
                        <button type="button" data-testid="flips-more" on:click=move |_| limit.update(|l| *l += PAGE)>
                            {format!("Show more ({} of {n} shown)", shown)}
                        </button>
                    })}
                }.into_any()
            }}
            {side}
        </section>
    }
}
