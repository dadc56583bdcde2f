//! Audit verdicts from the trajectory viewer: when the open failure is in the audit queue,
//! the keys `a` (grader wrong), `r` (grader right) and `u` (unsure) record a decision, as in
//! the audit view, in the same store (`runlens.audit.<hash>`), and move to the next cell of
//! the list.

use leptos::prelude::*;
use runlens_core::audit::{Verdict, audit_key};
use runlens_core::trajectory::WalkPlace;

use super::keys::{neighbour, step};
use crate::components::page_keys::not_a_page_key;
use crate::pages::audit::list::mark;
use crate::pages::audit::store;
use crate::state::UrlState;

/// The open cell's audit line and keys (mounted when the cell is in the audit queue at the
/// address's `ct`, as the worker's answer says).
#[component]
pub fn AuditKeys(
    /// The bundle's content hash (the decisions' store).
    hash: String,
    model: String,
    trace: String,
    /// The open cell's place in the list `j` / `k` walk (a verdict moves on in it).
    #[prop(into)]
    place: Signal<WalkPlace>,
) -> impl IntoView {
    let state = UrlState::use_context();
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
                step(state, place.with_untracked(|p| neighbour(state, p, 1)));
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if not_a_page_key(&ev) {
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
}
