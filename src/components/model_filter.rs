//! The model filter every view shares (`models=` in the URL; #17: "a model filter applies to
//! every view"): a menu in the header with a checkbox per model under its display name, a
//! search over names and keys, "all models" and "only these". No choice means every model;
//! the last chosen model cannot be unticked (that would silently mean "all" again).

use leptos::prelude::*;

use crate::state::{Tab, UrlState};

/// One model as the filter lists it: registry key and display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelChoice {
    pub key: String,
    pub name: String,
}

/// The choice after ticking or unticking `model`: `chosen` empty means every model of `all`;
/// a choice that comes to hold every model becomes empty again. Unticking the only chosen
/// model keeps it (an empty choice would mean "all").
pub fn toggled(all: &[String], chosen: &[String], model: &str) -> Vec<String> {
    let mut next: Vec<String> = if chosen.is_empty() {
        all.to_vec()
    } else {
        chosen.to_vec()
    };
    match next.iter().position(|m| m == model) {
        Some(_) if next.len() == 1 => {}
        Some(i) => {
            next.remove(i);
        }
        None => next.push(model.to_owned()),
    }
    // Keep the bundle's order, whatever order the models were ticked in.
    next.sort_by_key(|m| all.iter().position(|a| a == m).unwrap_or(usize::MAX));
    if all.iter().all(|a| next.contains(a)) {
        Vec::new()
    } else {
        next
    }
}

/// The models of `all` whose name or key contains `search` (case-insensitive; empty: all).
pub fn matching<'a>(all: &'a [ModelChoice], search: &str) -> Vec<&'a ModelChoice> {
    let needle = search.trim().to_lowercase();
    all.iter()
        .filter(|m| {
            needle.is_empty()
                || m.name.to_lowercase().contains(&needle)
                || m.key.to_lowercase().contains(&needle)
        })
        .collect()
}

/// The menu's one-line summary, after "Models: ": "all 40", or "3 of 40: A, B and 1 more"
/// (the first two names and a count past them). Keys in the link that the bundle does not have are not
/// counted.
pub fn summary_text(all: &[ModelChoice], chosen: &[String]) -> String {
    let names: Vec<&str> = all
        .iter()
        .filter(|m| chosen.contains(&m.key))
        .map(|m| m.name.as_str())
        .collect();
    let total = all.len();
    if names.is_empty() {
        return match total {
            1 => "the only one".to_owned(),
            n => format!("all {n}"),
        };
    }
    let shown = match names.len() {
        1 | 2 => names.join(", "),
        n => format!("{}, {} and {} more", names[0], names[1], n - 2),
    };
    format!("{} of {total}: {shown}", names.len())
}

/// The filter menu. `models`: the bundle's models in its order.
#[component]
pub fn ModelFilter(models: Vec<ModelChoice>) -> impl IntoView {
    let state = UrlState::use_context();
    let models = StoredValue::new(models);
    let keys = move || models.with_value(|m| m.iter().map(|c| c.key.clone()).collect::<Vec<_>>());
    let search = RwSignal::new(String::new());
    let chosen = Memo::new(move |_| state.with(|s| s.models.clone()));
    let summary = move || models.with_value(|all| summary_text(all, &chosen.get()));
    let toggle = move |model: String| {
        let all = keys();
        state.push(move |s| s.models = toggled(&all, &s.models, &model));
    };
    let only_matching = move |_| {
        let picked: Vec<String> = models.with_value(|all| {
            matching(all, &search.get_untracked())
                .into_iter()
                .map(|m| m.key.clone())
                .collect()
        });
        if picked.is_empty() {
            return;
        }
        let every = picked.len() == models.with_value(Vec::len);
        state.push(move |s| {
            s.models = if every { Vec::new() } else { picked };
        });
    };
    let ranking_tab = move || state.with(|s| s.tab == Tab::Ranking);
    let rows = move || {
        let needle = search.get();
        models.with_value(|all| {
            matching(all, &needle)
                .into_iter()
                .map(|m| {
                    let (k1, k2, k3) = (m.key.clone(), m.key.clone(), m.key.clone());
                    let checked = move || state.with(|s| s.shows_model(&k1));
                    let only = move || chosen.with(|c| c.len() == 1 && c[0] == k2);
                    view! {
                        <label title=m.key.clone()>
                            <input type="checkbox" data-model=m.key.clone()
                                prop:checked=checked prop:disabled=only
                                on:change=move |_| toggle(k3.clone()) />
                            {m.name.clone()}
                        </label>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <details class="model-filter" data-testid="model-filter">
            <summary>
                <span class="label">"Models: "</span>
                <span data-testid="model-filter-summary">{summary}</span>
                <Show when=ranking_tab>
                    <span class="hint">" (the table ranking is per question: not filtered)"</span>
                </Show>
            </summary>
            <div class="model-filter-body">
                <div class="model-filter-tools">
                    <input type="search" placeholder="find a model" aria-label="find a model"
                        data-testid="model-filter-search"
                        prop:value=move || search.get()
                        on:input=move |ev| search.set(event_target_value(&ev)) />
                    <button data-testid="model-filter-only" on:click=only_matching
                        disabled=move || search.with(|s| s.trim().is_empty())>"Only these"</button>
                    <button data-testid="model-filter-all"
                        on:click=move |_| state.push(|s| s.models.clear())
                        disabled=move || chosen.with(Vec::is_empty)>"All models"</button>
                </div>
                <div class="model-filter-list" role="group" aria-label="models shown">
                    {rows}
                </div>
            </div>
        </details>
    }
}
