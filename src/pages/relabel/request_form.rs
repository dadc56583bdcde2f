//! The editable request: model, every state field, every question with its instruction and
//! options; questions (noul / choice / score) and options can be added and removed.
//!
//! The form is rebuilt only when its shape changes (a question or option added or removed);
//! typing updates the draft without re-rendering, so focus stays put.

use leptos::prelude::*;

use super::draft::{FieldValue, Kind, QuestionDraft, RequestDraft};

/// The shape of a draft: what the form's structure depends on.
fn shape(d: &RequestDraft) -> (Vec<usize>, Vec<(Kind, usize)>) {
    let fields = d
        .state
        .iter()
        .map(|(_, v)| match v {
            FieldValue::Lines(items) => items.len(),
            _ => usize::MAX,
        })
        .collect();
    let questions = d
        .questions
        .iter()
        .map(|q| (q.kind, q.options.len()))
        .collect();
    (fields, questions)
}

/// The form over `draft`.
#[component]
pub fn RequestForm(draft: RwSignal<RequestDraft>) -> impl IntoView {
    let shape = Memo::new(move |_| draft.with(shape));
    let add = move |kind: Kind| {
        draft.update(|d| {
            let n = d.questions.len();
            d.questions
                .push(QuestionDraft::blank(format!("q{n}"), kind));
        });
    };
    view! {
        <div class="request-form" data-testid="request-form">
            <label class="field">
                "model (empty = the proxy's default) "
                <input type="text" data-field="model" prop:value=draft.with_untracked(|d| d.model.clone())
                    on:input=move |ev| draft.update(|d| d.model = event_target_value(&ev)) />
            </label>
            {move || {
                // Read, not `track()`: tracking a memo that was never read leaves it
                // uncomputed and unsubscribed from the draft, so the form never rebuilt.
                shape.with(|_| ());
                view! {
                    <fieldset class="state-fields">
                        <legend>"state"</legend>
                        {(0..draft.with_untracked(|d| d.state.len())).map(|i| state_field(draft, i)).collect_view()}
                    </fieldset>
                    <fieldset class="questions">
                        <legend>"questions"</legend>
                        {(0..draft.with_untracked(|d| d.questions.len())).map(|i| question(draft, i)).collect_view()}
                    </fieldset>
                }
            }}
            <p class="add-question">
                "Add a question: "
                <button on:click=move |_| add(Kind::Noul)>"+ yes/no (noul)"</button>
                <button on:click=move |_| add(Kind::Choice)>"+ choice"</button>
                <button on:click=move |_| add(Kind::Score)>"+ score"</button>
            </p>
        </div>
    }
}

fn option_mut(d: &mut RequestDraft, i: usize, j: usize) -> Option<&mut (String, String)> {
    d.questions.get_mut(i)?.options.get_mut(j)
}

fn state_field(draft: RwSignal<RequestDraft>, i: usize) -> impl IntoView {
    let (key, value) = draft
        .with_untracked(|d| d.state.get(i).cloned())
        .unwrap_or((String::new(), FieldValue::Text(String::new())));
    let body = match value {
        FieldValue::Text(text) => view! {
            <textarea data-field=key.clone() aria-label=key.clone() rows="2" prop:value=text on:input=move |ev| {
                let v = event_target_value(&ev);
                draft.update(|d| if let Some(f) = d.state.get_mut(i) { f.1 = FieldValue::Text(v) });
            }></textarea>
        }
        .into_any(),
        FieldValue::Json(text) => view! {
            <textarea data-field=key.clone() aria-label=key.clone() class="json" rows="3" prop:value=text on:input=move |ev| {
                let v = event_target_value(&ev);
                draft.update(|d| if let Some(f) = d.state.get_mut(i) { f.1 = FieldValue::Json(v) });
            }></textarea>
        }
        .into_any(),
        FieldValue::Lines(items) => items
            .into_iter()
            .enumerate()
            .map(|(j, text)| {
                view! {
                    <textarea data-field=format!("{key}[{j}]") aria-label=format!("{key} {}", j + 1) rows="3" prop:value=text on:input=move |ev| {
                        let v = event_target_value(&ev);
                        draft.update(|d| {
                            if let Some((_, FieldValue::Lines(items))) = d.state.get_mut(i) && let Some(slot) = items.get_mut(j) {
                                *slot = v;
                            }
                        });
                    }></textarea>
                }
            })
            .collect_view()
            .into_any(),
    };
    view! { <div class="state-field"><label>{key.clone()}</label>{body}</div> }
}

fn question(draft: RwSignal<RequestDraft>, i: usize) -> impl IntoView {
    let q = draft
        .with_untracked(|d| d.questions.get(i).cloned())
        .unwrap_or_else(|| QuestionDraft::blank(String::new(), Kind::Noul));
    let kind = q.kind;
    let remove = move |_| {
        draft.update(|d| {
            if i < d.questions.len() {
                d.questions.remove(i);
            }
        })
    };
    let add_option = move |_| {
        draft.update(|d| {
            if let Some(q) = d.questions.get_mut(i) {
                let n = q.options.len();
                q.options.push(match kind {
                    Kind::Score => (String::new(), format!("level {n}")),
                    _ => (format!("option_{n}"), String::new()),
                });
            }
        })
    };
    let options = q.options.iter().cloned().enumerate().map(|(j, (label, desc))| {
        let label_box = (kind == Kind::Choice).then(|| view! {
            <input type="text" class="option-label" aria-label="option label" prop:value=label
                on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| if let Some(o) = option_mut(d, i, j) { o.0 = v }); } />
        });
        view! {
            <li data-option=j>
                {label_box}
                <input type="text" class="option-description" aria-label="description" prop:value=desc
                    on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| if let Some(o) = option_mut(d, i, j) { o.1 = v }); } />
                <button aria-label="Remove this option" on:click=move |_| draft.update(|d| if let Some(q) = d.questions.get_mut(i) && j < q.options.len() { q.options.remove(j); })>"×"</button>
            </li>
        }
    }).collect_view();
    view! {
        <div class="question" data-question=q.id.clone() data-kind=kind.as_str()>
            <p>
                <input type="text" class="question-id" aria-label="question id" prop:value=q.id.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| if let Some(q) = d.questions.get_mut(i) { q.id = v }); } />
                " " <span class="kind">{kind.as_str()}</span> " "
                <button on:click=remove>"Remove question"</button>
            </p>
            <textarea class="instructions" aria-label="instructions" rows="3" prop:value=q.instructions.clone()
                on:input=move |ev| { let v = event_target_value(&ev); draft.update(|d| if let Some(q) = d.questions.get_mut(i) { q.instructions = v }); }></textarea>
            {(kind != Kind::Noul).then(|| view! {
                <ol class="options" start="0">{options}</ol>
                <button on:click=add_option>{if kind == Kind::Score { "+ level" } else { "+ option" }}</button>
            })}
        </div>
    }
}
