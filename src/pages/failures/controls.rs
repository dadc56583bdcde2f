//! The failures view's controls: corpus, sub-mode confidence range and the
//! `correct_despite_fail` threshold (the model filter is the header's, shared by every view).
//! Dragging a slider rewrites the current history entry; releasing it adds one.

use leptos::prelude::*;

use crate::state::{UrlState, ViewState};

fn slider(
    state: UrlState,
    set: impl Fn(&mut ViewState, f64) + Copy + Send + Sync + 'static,
) -> impl Fn(String, bool) + Copy {
    move |value: String, push: bool| {
        if let Ok(v) = value.parse::<f64>() {
            let v = v.clamp(0.0, 1.0);
            let f = move |s: &mut ViewState| set(s, v);
            if push {
                state.push(f)
            } else {
                state.replace(f)
            }
        }
    }
}

/// Corpus select, confidence range and threshold slider.
#[component]
pub fn FailureControls(
    /// Corpora with failure labels.
    corpora: Vec<String>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let set_cmin = slider(state, |s, v| s.failures.conf_min = v);
    let set_cmax = slider(state, |s, v| s.failures.conf_max = v);
    let set_ct = slider(state, |s, v| s.failures.cdf_threshold = v);
    let cmin = move || state.with(|s| s.failures.conf_min);
    let cmax = move || state.with(|s| s.failures.conf_max);
    let ct = move || state.with(|s| s.failures.cdf_threshold);
    view! {
        <form class="controls" on:submit=|ev| ev.prevent_default() aria-label="Failure filters">
            <label>
                "Corpus "
                <select data-testid="fail-corpus"
                    prop:value=move || state.with(|s| s.corpus.clone().unwrap_or_default())
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.corpus = (!v.is_empty()).then_some(v));
                    }>
                    <option value="">"all corpora"</option>
                    {corpora.into_iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>
                "sub-mode confidence ≥ " <output data-testid="cmin-value">{move || format!("{:.2}", cmin())}</output>
                <input type="range" min="0" max="1" step="0.01" data-testid="cmin-slider" aria-label="lowest sub-mode confidence"
                    prop:value=move || cmin().to_string()
                    on:input=move |ev| set_cmin(event_target_value(&ev), false)
                    on:change=move |ev| set_cmin(event_target_value(&ev), true) />
            </label>
            <label>
                "≤ " <output data-testid="cmax-value">{move || format!("{:.2}", cmax())}</output>
                <input type="range" min="0" max="1" step="0.01" data-testid="cmax-slider" aria-label="highest sub-mode confidence"
                    prop:value=move || cmax().to_string()
                    on:input=move |ev| set_cmax(event_target_value(&ev), false)
                    on:change=move |ev| set_cmax(event_target_value(&ev), true) />
            </label>
            <label>
                "correct_despite_fail threshold: " <output data-testid="ct-value">{move || format!("{:.2}", ct())}</output>
                <input type="range" min="0" max="1" step="0.01" data-testid="ct-slider" aria-label="correct_despite_fail threshold"
                    prop:value=move || ct().to_string()
                    on:input=move |ev| set_ct(event_target_value(&ev), false)
                    on:change=move |ev| set_ct(event_target_value(&ev), true) />
            </label>
        </form>
    }
}
