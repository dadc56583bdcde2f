//! The re-label panel of one failed cell: the harness's request as a form, "Ask", the answer
//! beside the recorded label, and "Apply".

use std::cell::RefCell;
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_core::bundle::Bundle;
use runlens_core::overrides::label_from_answers;
use runlens_core::trajectory::OpenedCell;

use super::AskOutcome;
use super::answer_view::AnswerView;
use super::apply::ApplyButton;
use super::draft::RequestDraft;
use super::failed_cell::{base_label, build_label_request, mechanical_checks};
use super::request_form::RequestForm;
use super::token_prompt::{TokenPrompt, token_needed};
use super::transport::{Jev, explain, proxy_base};

thread_local! {
    /// The last panel's draft and answer, so a panel rebuilt after Apply (every view
    /// re-renders with the new labels) shows the same request and answer.
    static SESSION: RefCell<Option<(String, RequestDraft, Option<AskOutcome>)>> =
        const { RefCell::new(None) };
}

/// Re-labels the failure of `model` on `trace_id` in `corpus`.
#[component]
pub fn RelabelPanel(
    /// The bundle shown (with overrides applied).
    bundle: Arc<Bundle>,
    /// Corpus name.
    #[prop(into)]
    corpus: String,
    /// Candidate model key.
    #[prop(into)]
    model: String,
    /// Question key.
    #[prop(into)]
    trace_id: String,
    /// The cell in full, its question and its labels (in force and as recorded): the
    /// trajectory view's answer.
    opened: OpenedCell,
) -> impl IntoView {
    let jev = Jev::use_context();
    let base_url = proxy_base();
    let session_key = format!("{}/{corpus}/{model}/{trace_id}", bundle.content_hash);
    let recorded = opened.label.clone();
    let original = opened.recorded_label.clone();
    let overridden = (original != recorded).then(|| {
        let sub = |l: &Option<runlens_core::bundle::FailureLabel>| {
            l.as_ref()
                .and_then(|l| l.sub_mode.clone())
                .unwrap_or_else(|| "none".to_owned())
        };
        format!(
            "This label is an override: the bundle's own sub-mode is {}, the one in force is {}.",
            sub(&original),
            sub(&recorded)
        )
    });
    let draft = RwSignal::new(RequestDraft::default());
    let ready = RwSignal::new(false);
    let outcome = RwSignal::new(None::<AskOutcome>);
    let note = RwSignal::new(None::<String>);
    let ask_error = RwSignal::new(None::<String>);
    let needs_token = RwSignal::new(None::<bool>);
    let busy = RwSignal::new(false);
    let info = RwSignal::new(None::<Result<(String, String), String>>);
    let restored = SESSION.with_borrow(|s| s.clone().filter(|(k, _, _)| *k == session_key));
    if let Some((_, d, o)) = restored {
        draft.set(d);
        ready.set(true);
        outcome.set(o);
    } else {
        match build_label_request(&bundle.body, &opened) {
            Ok(request) => {
                draft.set(RequestDraft::from_request(&request));
                ready.set(true);
            }
            Err(e) => note.set(Some(e)),
        }
    }
    {
        let (jev, base) = (jev.clone(), base_url.clone());
        spawn_local(async move {
            let r = jev.0.info(&base).await.map_err(|e| explain(&e, &base));
            info.try_set(Some(r));
        });
    }
    let key = session_key.clone();
    Effect::new(move |_| {
        let (d, o) = (draft.get(), outcome.get());
        if ready.get() {
            SESSION.with_borrow_mut(|s| *s = Some((key.clone(), d, o)));
        }
    });
    let ask = Callback::new(move |()| {
        if !ready.get_untracked() {
            return;
        }
        let request = match draft.with_untracked(RequestDraft::to_request) {
            Ok(r) => r,
            Err(e) => {
                ask_error.set(Some(e));
                return;
            }
        };
        ask_error.set(None);
        needs_token.set(None);
        busy.set(true);
        let (jev, base) = (jev.clone(), base_url.clone());
        spawn_local(async move {
            let request_json = serde_json::to_string(&request).unwrap_or_default();
            let reply = jev.0.ask(&base, &request).await;
            let backend = info
                .try_with_untracked(|i| i.clone().and_then(Result::ok).map(|(b, _)| b))
                .flatten()
                .unwrap_or_else(|| "unknown".to_owned());
            match reply {
                Ok((response, latency_ms, request_id)) => {
                    let o = AskOutcome {
                        request,
                        request_json,
                        response,
                        latency_ms,
                        request_id,
                        backend,
                    };
                    outcome.try_set(Some(o));
                }
                Err(e) => match token_needed(&e) {
                    Some(refused) => {
                        needs_token.try_set(Some(refused));
                    }
                    None => {
                        ask_error.try_set(Some(explain(&e, &base)));
                    }
                },
            }
            busy.try_set(false);
        });
    });
    let checks = mechanical_checks(&bundle.body, &opened.cell.sqls)
        .ok()
        .flatten();
    let start_label = base_label(recorded.as_ref(), &model, &trace_id, checks.as_ref());
    let answer = move || {
        outcome.get().map(|o| {
            let new = label_from_answers(&start_label, &o.response.answers);
            view! {
                <AnswerView outcome=o.clone() original=original.clone() recorded=recorded.clone() new=new.clone() />
                <ApplyButton corpus=corpus.clone() outcome=o original=original.clone() new=new />
            }
        })
    };
    view! {
        <section class="relabel-panel" data-testid="relabel-panel">
            <h3>"Re-label with Jev"</h3>
            <p class="proxy-status" data-testid="proxy-status">
                {move || match info.get() {
                    None => "Looking for the Jev proxy…".to_owned().into_any(),
                    Some(Ok((backend, model))) => view! {
                        "proxy: backend " <code>{backend}</code> " · model " <code data-testid="proxy-model">{model}</code>
                    }.into_any(),
                    Some(Err(e)) => view! { <span class="error">{e}</span> }.into_any(),
                }}
            </p>
            {overridden.map(|o| view! { <p class="notice" data-testid="overridden">{o}</p> })}
            {move || note.get().map(|n| view! { <p class="notice">{n}</p> })}
            // Ask first; the request's ~40 editable fields folded under it (#17: the panel
            // starts compact).
            <p>
                <button class="primary" data-testid="relabel-ask" on:click=move |_| ask.run(()) disabled=move || busy.get() || !ready.get()>
                    {move || if busy.get() { "Asking…" } else { "Ask" }}
                </button>
                " the harness's request for this failure, or edit it first:"
            </p>
            {move || ready.get().then(|| view! {
                <details class="relabel-request" data-testid="relabel-request">
                    <summary>{move || draft.with(|d| format!(
                        "Edit the request ({} questions, {} state fields)",
                        d.questions.len(),
                        d.state.len()
                    ))}</summary>
                    <RequestForm draft=draft />
                </details>
            })}
            {move || ask_error.get().map(|e| view! { <p class="error" role="alert" data-testid="relabel-error">{e}</p> })}
            {move || needs_token.get().map(|refused| view! { <TokenPrompt refused retry=ask /> })}
            {answer}
        </section>
    }
}
