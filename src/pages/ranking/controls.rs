//! The ranking view's controls: corpus, largest k, confidence threshold and gold definition.
//! Dragging a slider rewrites the current history entry; releasing it adds one.

use leptos::prelude::*;
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::ranking_view::shown_corpus;

use crate::state::UrlState;

/// The corpus choice value meaning "every corpus pooled".
pub const ALL_CORPORA: &str = "";

/// Corpus select, K slider (1..=`k_limit`), threshold slider and gold-rule switch.
#[component]
pub fn RankingControls(
    /// Corpora that have ranking rows.
    corpora: Vec<String>,
    /// Largest K the slider offers (the universe size).
    k_limit: usize,
    /// Whether the parser rule can be computed (namespaces and gold SQL present).
    parser_available: bool,
) -> impl IntoView {
    let state = UrlState::use_context();
    let k = move || state.with(|s| s.ranking.k.min(k_limit)).to_string();
    let t = move || state.with(|s| s.ranking.threshold);
    let set_k = move |value: String, push: bool| {
        if let Ok(v) = value.parse::<usize>() {
            let f = move |s: &mut crate::state::ViewState| s.ranking.k = v.clamp(1, k_limit.max(1));
            if push {
                state.push(f)
            } else {
                state.replace(f)
            }
        }
    };
    let set_t = move |value: String, push: bool| {
        if let Ok(v) = value.parse::<f64>() {
            let f = move |s: &mut crate::state::ViewState| s.ranking.threshold = v.clamp(0.0, 1.0);
            if push {
                state.push(f)
            } else {
                state.replace(f)
            }
        }
    };
    let gold = move || state.with(|s| s.ranking.gold);
    let set_gold = move |rule: GoldRule| state.push(|s| s.ranking.gold = rule);
    let corpus_options = corpora.clone();
    // The corpus the view shows (not only the one in the URL): with one ranked corpus and no
    // `corpus=`, that corpus; the select showed nothing before (#17, bug 2).
    let names = StoredValue::new(corpora.clone());
    let shown = move || {
        let chosen = state.with(|s| s.corpus.clone());
        names.with_value(|n| shown_corpus(n, chosen.as_deref()).unwrap_or_default())
    };
    view! {
        <form class="controls" on:submit=|ev| ev.prevent_default() aria-label="Ranking settings">
            <label>
                "Corpus "
                <select
                    data-testid="corpus-select"
                    prop:value=shown
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        state.push(|s| s.corpus = (!v.is_empty()).then_some(v));
                    }
                >
                    <Show when={let n = corpora.len(); move || n > 1}>
                        <option value=ALL_CORPORA selected=move || shown().is_empty()>"all corpora (pooled)"</option>
                    </Show>
                    {corpus_options.into_iter().map(|c| {
                        let (value, label) = (c.clone(), c.clone());
                        view! { <option value=c selected=move || shown() == value>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
            <label>
                "largest k: " <output data-testid="k-value">{k}</output>
                <input
                    type="range" min="1" max=k_limit.max(1).to_string() step="1"
                    data-testid="k-slider" aria-label="largest k"
                    prop:value=k
                    on:input=move |ev| set_k(event_target_value(&ev), false)
                    on:change=move |ev| set_k(event_target_value(&ev), true)
                />
            </label>
            <label>
                "confidence threshold t: " <output data-testid="t-value">{move || format!("{:.2}", t())}</output>
                <input
                    type="range" min="0" max="1" step="0.01"
                    data-testid="t-slider" aria-label="confidence threshold"
                    prop:value=move || t().to_string()
                    on:input=move |ev| set_t(event_target_value(&ev), false)
                    on:change=move |ev| set_t(event_target_value(&ev), true)
                />
            </label>
            <fieldset class="gold-rule">
                <legend>"gold tables"</legend>
                <label title="the harness's FROM/JOIN namespace regex, quirks included">
                    <input type="radio" name="gold" data-testid="gold-harness"
                        prop:checked=move || gold() == GoldRule::Harness
                        on:change=move |_| set_gold(GoldRule::Harness) />
                    "harness rule"
                </label>
                <label title="sqlparser, ClickHouse dialect">
                    <input type="radio" name="gold" data-testid="gold-parser"
                        disabled=!parser_available
                        prop:checked=move || gold() == GoldRule::Parser
                        on:change=move |_| set_gold(GoldRule::Parser) />
                    "SQL parser"
                </label>
                <Show when=move || !parser_available>
                    <span class="hint">"(needs the bundle's namespaces and gold SQL)"</span>
                </Show>
            </fieldset>
        </form>
    }
}
