//! The matrix's controls: corpus, failures only, sub-mode, search and sort. Each writes the
//! URL (typing in the search rewrites the current history entry; the other controls add one).

use leptos::prelude::*;
use runlens_core::metrics::matrix_view::{MatrixAnswer, MatrixSort};

use crate::state::UrlState;

/// The controls above the grid; `answer` offers the corpora and sub-modes.
#[component]
pub fn MatrixControls(answer: MatrixAnswer) -> impl IntoView {
    let state = UrlState::use_context();
    let shown_corpus = answer.corpus.clone().unwrap_or_default();
    let corpus_select = (answer.corpora.len() > 1).then(|| {
        let options = answer
            .corpora
            .iter()
            .map(|c| {
                let selected = *c == shown_corpus;
                view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
            })
            .collect_view();
        view! {
            <label>"Corpus "
                <select data-testid="matrix-corpus" prop:value=shown_corpus.clone()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| {
                            s.corpus = Some(v);
                            s.matrix_sub_mode = None;
                        });
                    }>
                    {options}
                </select>
            </label>
        }
    });
    let sub_mode = state.with_untracked(|s| s.matrix_sub_mode.clone());
    let mut sub_modes = answer.sub_modes.clone();
    // A sub-mode from the link that no shown label has is still shown as chosen.
    if let Some(s) = &sub_mode
        && !sub_modes.contains(s)
    {
        sub_modes.push(s.clone());
    }
    let sub_value = sub_mode.clone().unwrap_or_default();
    view! {
        <div class="matrix-controls">
            {corpus_select}
            <label>
                <input type="checkbox" data-testid="matrix-failures"
                    prop:checked=move || state.with(|s| s.matrix_failures)
                    on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        state.push(|s| s.matrix_failures = on);
                    } />
                " failures only"
            </label>
            <label>"Sub-mode "
                <select data-testid="matrix-sub-mode" prop:value=sub_value.clone()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.matrix_sub_mode = (!v.is_empty()).then_some(v));
                    }>
                    <option value="" selected=sub_mode.is_none()>"any"</option>
                    {sub_modes.into_iter().map(|s| {
                        let selected = s == sub_value;
                        view! { <option value=s.clone() selected=selected>{s.clone()}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label>"Search "
                <input type="search" data-testid="matrix-search" placeholder="question text or trace id"
                    prop:value=move || state.with(|s| s.matrix_search.clone())
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        state.replace(|s| s.matrix_search = v);
                    } />
            </label>
            <label>"Sort "
                <select data-testid="matrix-sort"
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.matrix_sort = MatrixSort::from_key(&v).unwrap_or_default());
                    }>
                    {[(MatrixSort::Corpus, "corpus order"), (MatrixSort::Hardest, "hardest first"),
                        (MatrixSort::Easiest, "easiest first")].into_iter().map(|(sort, words)| view! {
                        <option value=sort.key() selected=move || state.with(|s| s.matrix_sort == sort)>{words}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}
