//! The matrix's controls: corpus, failures only, sub-mode, search and sort. Each writes the
//! URL (typing in the search rewrites the current history entry; the other controls add one).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::metrics::matrix_view::{MatrixAnswer, MatrixSort};

use crate::state::UrlState;

/// The controls above the grid; the answer offers the corpora and sub-modes. Mounted once
/// per view: only the options follow the answers.
#[component]
pub fn MatrixControls(answer: Memo<Option<Arc<MatrixAnswer>>>) -> impl IntoView {
    let state = UrlState::use_context();
    let corpora = Memo::new(move |_| {
        answer.with(|a| {
            a.as_ref()
                .map(|a| (a.corpora.clone(), a.corpus.clone().unwrap_or_default()))
                .unwrap_or_default()
        })
    });
    let corpus_select = move || {
        let (names, shown) = corpora.get();
        (names.len() > 1).then(|| {
            let options = names
                .into_iter()
                .map(|c| {
                    let selected = c == shown;
                    view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                })
                .collect_view();
            view! {
                <label>"Corpus "
                    <select data-testid="matrix-corpus"
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            state.push(|s| {
                                s.corpus = Some(v);
                                s.matrix.sub_mode = None;
                            });
                        }>
                        {options}
                    </select>
                </label>
            }
        })
    };
    // The sub-modes offered; one from the link that no shown label has is still offered.
    let sub_modes = Memo::new(move |_| {
        let mut offered: Vec<String> =
            answer.with(|a| a.as_ref().map(|a| a.sub_modes.clone()).unwrap_or_default());
        if let Some(s) = state.with(|s| s.matrix.sub_mode.clone())
            && !offered.contains(&s)
        {
            offered.push(s);
        }
        offered
    });
    let sub_options = move || {
        let chosen = state.with(|s| s.matrix.sub_mode.clone());
        let any = view! { <option value="" selected=chosen.is_none()>"any"</option> };
        let rest = sub_modes
            .get()
            .into_iter()
            .map(|s| {
                let selected = chosen.as_deref() == Some(s.as_str());
                view! { <option value=s.clone() selected=selected>{s.clone()}</option> }
            })
            .collect_view();
        view! { {any} {rest} }
    };
    view! {
        <div class="matrix-controls">
            {corpus_select}
            <label>
                <input type="checkbox" data-testid="matrix-failures"
                    prop:checked=move || state.with(|s| s.matrix.failures_only)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        state.push(|s| s.matrix.failures_only = on);
                    } />
                " failures only"
            </label>
            <label>"Sub-mode "
                <select data-testid="matrix-sub-mode"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.matrix.sub_mode = (!v.is_empty()).then_some(v));
                    }>
                    {sub_options}
                </select>
            </label>
            <label>"Search "
                <input type="search" data-testid="matrix-search" placeholder="question text or trace id"
                    prop:value=move || state.with(|s| s.matrix.search.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        state.replace(|s| s.matrix.search = v);
                    } />
            </label>
            <label>"Sort "
                <select data-testid="matrix-sort"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.matrix.sort = MatrixSort::from_key(&v).unwrap_or_default());
                    }>
                    {[(MatrixSort::Corpus, "corpus order"), (MatrixSort::Hardest, "hardest first"),
                        (MatrixSort::Easiest, "easiest first")].into_iter().map(|(sort, words)| view! {
                        <option value=sort.key() selected=move || state.with(|s| s.matrix.sort == sort)>{words}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}
