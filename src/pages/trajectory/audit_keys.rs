//! Audit verdicts from the trajectory viewer: when the open failure is in the audit queue,
//! the keys `a` (grader wrong), `r` (grader right) and `u` (unsure) record a decision, as in
//! the audit view, in the same store (`runlens.audit.<hash>`), and move to the next cell of
//! the list.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::{Verdict, audit_key};
use runlens_core::bundle::Bundle;

use super::keys::{step, typing};
use super::list::{CellId, ListKey, walk_list_of};
use crate::pages::audit::list::mark;
use crate::pages::audit::store;
use crate::state::{UrlState, ViewState};

/// The open cell's audit line and keys; nothing when the cell is not in the audit queue (at
/// the address's `ct`).
#[component]
pub fn AuditKeys(
    bundle: Arc<Bundle>,
    corpus: String,
    model: String,
    trace: String,
    /// The list `j` / `k` walk (a verdict moves on in it).
    #[prop(into)]
    list: Signal<Arc<Vec<CellId>>>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let queue_key = state.with_untracked(|s| {
        ListKey::of(
            corpus.clone(),
            &ViewState {
                from: Some("audit".into()),
                ..s.clone()
            },
        )
    });
    let id = (model.clone(), trace.clone());
    if !walk_list_of(&bundle, &queue_key).contains(&id) {
        return ().into_any();
    }
    let hash = bundle.content_hash.clone();
    let key = audit_key(&model, &trace);
    let decided = RwSignal::new(
        store::load(&hash)
            .ok()
            .and_then(|l| l.get(&key).map(|d| d.verdict)),
    );
    let error = RwSignal::new(None::<String>);
    let decide = move |verdict: Verdict| {
        let mut log = store::load(&hash).unwrap_or_default();
        log.amend(&key, Some(verdict), None, store::now());
        match store::save(&hash, &log) {
            Ok(()) => {
                decided.set(Some(verdict));
                list.with_untracked(|l| step(state, l, 1));
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if typing(&ev) || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let verdict = match ev.key().as_str() {
            "a" => Verdict::GraderWrong,
            "r" => Verdict::GraderRight,
            "u" => Verdict::Unsure,
            _ => return,
        };
        ev.prevent_default();
        decide(verdict);
    });
    on_cleanup(move || handle.remove());
    view! {
        <p class="audit-keys hint" data-testid="trajectory-audit"
            data-verdict=move || decided.get().map(|v| v.as_str()).unwrap_or("")>
            "In the audit queue · "
            {move || match decided.get() {
                Some(v) => format!("decided: {}", mark(Some(v))),
                None => "not decided yet".to_owned(),
            }}
            " · keys: a grader wrong, r grader right, u unsure (then the next cell)"
            {move || error.get().map(|e| view! { <span class="error" role="alert">" "{e}</span> })}
        </p>
    }
    .into_any()
}
