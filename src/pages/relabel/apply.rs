//! "Apply": the new label goes into the overrides (with provenance) and every view updates;
//! the "what changed" summary shows the count differences.

use leptos::prelude::*;
use runlens_core::audit::audit_key;
use runlens_core::bundle::FailureLabel;
use runlens_core::overrides::{LabelOverride, WhatChanged, request_hash};

use super::AskOutcome;
use crate::state::OverridesState;

/// The override `new` makes, with provenance (time from the browser clock, UTC) and the raw
/// answers it was derived from.
pub fn make_override(
    corpus: &str,
    outcome: &AskOutcome,
    original: Option<FailureLabel>,
    new: FailureLabel,
) -> LabelOverride {
    LabelOverride {
        key: audit_key(&new.model, &new.trace_id),
        corpus: corpus.to_owned(),
        original,
        new,
        model_id: outcome.response.model.clone(),
        request_hash: request_hash(outcome.request_json.as_bytes()),
        applied_at: String::from(js_sys::Date::new_0().to_iso_string()),
        answers: Some(outcome.response.answers.clone()),
    }
}

/// The Apply button and its result line.
#[component]
pub fn ApplyButton(
    corpus: String,
    outcome: AskOutcome,
    original: Option<FailureLabel>,
    new: FailureLabel,
) -> impl IntoView {
    let overrides = OverridesState::use_context();
    let result = RwSignal::new(None::<Result<String, String>>);
    let apply = move |_| {
        let outcome = match overrides {
            None => Err("label overrides are not available in this view".to_owned()),
            Some(state) => {
                let entry = make_override(&corpus, &outcome, original.clone(), new.clone());
                state.apply(entry).map(|c| c.summary_line())
            }
        };
        result.set(Some(outcome));
    };
    view! {
        <p class="apply">
            <button class="primary" data-testid="relabel-apply" on:click=apply>"Apply this label"</button>
            {move || result.get().map(|r| match r {
                Ok(line) => view! { <span class="applied" data-testid="applied">{format!(" Applied: {line}")}</span> }.into_any(),
                Err(e) => view! { <span class="error" role="alert">{e}</span> }.into_any(),
            })}
        </p>
    }
}

/// The last change as a line and a table of count differences (`data-metric="changed:…"`).
#[component]
pub fn WhatChangedView(corpus: String, changed: WhatChanged) -> impl IntoView {
    let rows: Vec<(String, String, usize, usize)> = [
        ("sub_mode", &changed.sub_mode),
        ("family", &changed.family),
        ("fm_bucket", &changed.fm_bucket),
    ]
    .into_iter()
    .flat_map(|(group, list)| {
        list.iter()
            .map(move |c| (group.to_owned(), c.key.clone(), c.before, c.after))
    })
    .collect();
    view! {
        <div class="what-changed" data-testid="what-changed" data-corpus=corpus.clone()>
            <p>
                <span data-metric="changed:labels" data-value=changed.labels_changed.to_string()>
                    {format!("{corpus}: {}", changed.summary_line())}
                </span>
            </p>
            <table class="changes">
                <thead><tr><th>"count"</th><th>"before"</th><th>"after"</th></tr></thead>
                <tbody>
                    {rows.into_iter().map(|(group, key, before, after)| view! {
                        <tr data-metric=format!("changed:{group}:{key}") data-value=after.to_string() data-before=before.to_string()>
                            <td>{format!("{group} {key}")}</td><td class="num">{before}</td><td class="num">{after}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
