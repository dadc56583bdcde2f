//! "Apply": the new label goes into the overrides (with provenance) and every view updates;
//! the "what changed" summary shows the count differences.

use leptos::prelude::*;
use runlens_core::audit::audit_key;
use runlens_core::bundle::FailureLabel;
use runlens_core::overrides::{LabelOverride, WhatChanged, request_hash};

use super::AskOutcome;
use crate::state::OverridesState;
use crate::yield_now::yield_now;

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

/// The Apply button and its result line. Applying changes the answers of the views that
/// count labels (the trajectory view rebuilds this panel with its new answer), so what the
/// reader sees here after Apply comes from the overrides state, not from this component: the button says "Applied ✓" while this label is the one
/// in force, the line below says what changed, and the keyboard focus lands on that line,
/// where the reader already is.
#[component]
pub fn ApplyButton(
    corpus: String,
    outcome: AskOutcome,
    original: Option<FailureLabel>,
    new: FailureLabel,
) -> impl IntoView {
    let overrides = OverridesState::use_context();
    let key = audit_key(&new.model, &new.trace_id);
    let error = RwSignal::new(None::<String>);
    let in_force = {
        let (corpus, key, new) = (corpus.clone(), key.clone(), new.clone());
        Memo::new(move |_| {
            overrides.is_some_and(|s| {
                s.file.with(|f| {
                    f.overrides
                        .iter()
                        .any(|o| o.key == key && o.corpus == corpus && o.new == new)
                })
            })
        })
    };
    // The change this cell's last Apply made, while it is the last change.
    let applied_line = {
        let (corpus, key) = (corpus.clone(), key.clone());
        move || {
            let state = overrides?;
            let (c, changed) = state.last_change.get()?;
            (c == corpus && state.last_applied.get().as_deref() == Some(key.as_str()))
                .then(|| changed.summary_line())
        }
    };
    let apply = {
        move |_| {
            let Some(state) = overrides else {
                error.set(Some(
                    "label overrides are not available in this view".to_owned(),
                ));
                return;
            };
            let entry = make_override(&corpus, &outcome, original.clone(), new.clone());
            if let Err(e) = state.apply(entry) {
                error.set(Some(e));
            }
        }
    };
    view! {
        <p class="apply">
            <button class="primary" data-testid="relabel-apply" on:click=apply disabled=in_force>
                {move || if in_force.get() { "Applied ✓" } else { "Apply this label" }}
            </button>
            {move || applied_line().map(|line| {
                let line_ref = NodeRef::<leptos::html::Span>::new();
                // The line takes the keyboard focus where the reader is: from the Apply
                // button that made it, or, rebuilt with the answers the re-label changed,
                // from nowhere (the line that had it is gone).
                // The line can be made before it is in the document (it comes with the
                // worker's answer): it is focused once it is there.
                line_ref.on_load(|line| {
                    leptos::task::spawn_local(async move {
                        for _ in 0..10 {
                            if line.is_connected() {
                                if focus_is_free() {
                                    focus_without_scrolling(&line);
                                }
                                return;
                            }
                            yield_now().await;
                        }
                    });
                });
                view! {
                    <span class="applied" role="status" tabindex="-1" data-testid="applied" data-applied-key=key.clone()
                        node_ref=line_ref>
                        {format!(" Applied: {line}")}
                    </span>
                }
            })}
            {move || error.get().map(|e| view! { <span class="error" role="alert">{e}</span> })}
        </p>
    }
}

/// Focuses `el` where it is, without scrolling the page.
fn focus_without_scrolling(el: &web_sys::HtmlElement) {
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(true);
    let _ = el.focus_with_options(&options);
}

/// Whether the keyboard focus may be taken: no element has it (the page's body has it), or
/// an Apply button, which has done its work.
fn focus_is_free() -> bool {
    let doc = web_sys::window().and_then(|w| w.document());
    let active = doc.as_ref().and_then(web_sys::Document::active_element);
    let body = doc.as_ref().and_then(web_sys::Document::body);
    match (active, body) {
        (None, _) => true,
        (Some(a), _) if a.get_attribute("data-testid").as_deref() == Some("relabel-apply") => true,
        (Some(a), Some(b)) => a == *b.as_ref(),
        (Some(_), None) => false,
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
                            <td>{format!("{} {key}", group_label(&group))}</td><td class="num">{before}</td><td class="num">{after}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// A count group in words (its data key stays in `data-metric`).
fn group_label(group: &str) -> &str {
    match group {
        "sub_mode" => "sub-mode",
        "fm_bucket" => "FM bucket",
        other => other,
    }
}
