//! The queue's filters (corpus, threshold) and the review actions with their keys.

use std::sync::Arc;

use leptos::html::Textarea;
use leptos::prelude::*;
use runlens_core::audit::{AuditLog, Verdict};

use super::entries::Entry;
use super::list::mark;
use crate::components::page_keys::not_a_page_key;
use crate::state::UrlState;

/// Corpus choice and the `correct_despite_fail` threshold slider (URL `corpus`, `ct`).
#[component]
pub fn AuditControls(corpora: Vec<String>) -> impl IntoView {
    let state = UrlState::use_context();
    let ct = move || state.with(|s| s.failures.cdf_threshold);
    let set = move |ev: &leptos::ev::Event, push: bool| {
        if let Ok(v) = event_target_value(ev).parse::<f64>() {
            let v = v.clamp(0.0, 1.0);
            if push {
                state.push(|s| s.failures.cdf_threshold = v)
            } else {
                state.replace(|s| s.failures.cdf_threshold = v)
            }
        }
    };
    view! {
        <div class="controls">
            <label>"corpus "
                <select data-testid="audit-corpus"
                    prop:value=move || state.with(|s| s.corpus.clone().unwrap_or_default())
                    on:change=move |ev| { let v = event_target_value(&ev); state.push(|s| s.corpus = (!v.is_empty()).then_some(v)); }>
                    <option value="">"all corpora"</option>
                    {corpora.into_iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>"correct despite fail ≥ "
                <input type="range" min="0" max="1" step="0.01" data-testid="audit-threshold"
                    prop:value=move || ct().to_string()
                    on:input=move |ev| set(&ev, false) on:change=move |ev| set(&ev, true) />
                <output>{move || format!("{:.2}", ct())}</output>
            </label>
        </div>
    }
}

/// Said when Enter would save a note on an item with no verdict.
const NO_VERDICT_YET: &str = "This item has no verdict yet: save the note with one of the buttons (grader wrong, grader \
     right, unsure).";
/// Said when Escape would lose typed text.
const UNSAVED: &str = "The note is not saved: press Escape again to discard it, or save it.";

/// Buttons (and keys) for the selected item: verdicts, note, move, open trajectory.
#[component]
pub fn AuditActions(
    queue: Memo<Arc<Vec<Entry>>>,
    selected: RwSignal<Option<usize>>,
    current: Memo<Option<Entry>>,
    log: RwSignal<AuditLog>,
    decide: Callback<(Option<Verdict>, Option<String>)>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let note_open = RwSignal::new(false);
    let note_ref = NodeRef::<Textarea>::new();
    let step = move |d: isize| {
        let n = queue.with_untracked(|q| q.len());
        if n == 0 {
            return;
        }
        let i = selected.get_untracked().unwrap_or(0) as isize + d;
        selected.set(Some(i.clamp(0, n as isize - 1) as usize));
    };
    let verdict = move |v: Verdict| {
        decide.run((Some(v), None));
        step(1);
    };
    let open_note = move || {
        note_open.set(true);
        request_animation_frame(move || {
            if let Some(t) = note_ref.get_untracked() {
                let key = current.get_untracked().map(|e| e.item.key);
                t.set_value(
                    &key.and_then(|k| log.with_untracked(|l| l.get(&k).map(|d| d.note.clone())))
                        .unwrap_or_default(),
                );
                let _ = t.focus();
            }
        });
    };
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if not_a_page_key(&ev) || note_open.get_untracked() {
            return;
        }
        match ev.key().as_str() {
            "a" => verdict(Verdict::GraderWrong),
            "r" => verdict(Verdict::GraderRight),
            "u" => verdict(Verdict::Unsure),
            "n" => open_note(),
            "j" => step(1),
            "k" => step(-1),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
    // The note editor: Enter saves (on an item with a verdict; an undecided item's note is
    // saved with the verdict chosen by a button below, never as a silent "unsure"); Escape
    // closes, asking first (a second Escape) when the typed text would be lost.
    let note_hint = RwSignal::new(None::<&'static str>);
    let typed = move || {
        note_ref
            .get_untracked()
            .map(|t| t.value())
            .unwrap_or_default()
    };
    let saved_note = move || {
        current
            .get_untracked()
            .and_then(|e| log.with_untracked(|l| l.get(&e.item.key).map(|d| d.note.clone())))
            .unwrap_or_default()
    };
    let has_verdict = move || {
        current
            .get_untracked()
            .is_some_and(|e| log.with_untracked(|l| l.get(&e.item.key).is_some()))
    };
    let close_note = move || {
        note_hint.set(None);
        note_open.set(false);
    };
    let save_note = move |verdict: Option<Verdict>| {
        decide.run((verdict, Some(typed())));
        close_note();
    };
    let on_note_key = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "Enter" if !ev.shift_key() => {
            ev.prevent_default();
            if has_verdict() {
                save_note(None);
            } else {
                note_hint.set(Some(NO_VERDICT_YET));
            }
        }
        "Escape" => {
            ev.prevent_default();
            if typed() == saved_note() || note_hint.get_untracked() == Some(UNSAVED) {
                close_note();
            } else {
                note_hint.set(Some(UNSAVED));
            }
        }
        _ => note_hint.set(None),
    };
    let decided = move || {
        current
            .get()
            .and_then(|e| log.with(|l| l.get(&e.item.key).map(|d| (d.verdict, d.note.clone()))))
    };
    let undecided = move || decided().is_none();
    let open = move |_| {
        if let Some(e) = current.get_untracked() {
            state.push(|s| s.open_cell(&e.corpus, &e.item.model, &e.item.trace_id, "audit"));
        }
    };
    view! {
        <div class="audit-actions" role="group" aria-label="Decision">
            <button type="button" data-testid="audit-wrong" on:click=move |_| verdict(Verdict::GraderWrong)>"Grader wrong (a)"</button>
            <button type="button" data-testid="audit-right" on:click=move |_| verdict(Verdict::GraderRight)>"Grader right (r)"</button>
            <button type="button" data-testid="audit-unsure" on:click=move |_| verdict(Verdict::Unsure)>"Unsure (u)"</button>
            <button type="button" data-testid="audit-note" on:click=move |_| open_note()>"Note (n)"</button>
            <button type="button" on:click=move |_| step(-1)>"Previous (k)"</button>
            <button type="button" on:click=move |_| step(1)>"Next (j)"</button>
            <button type="button" data-testid="audit-open" on:click=open>"Open trajectory"</button>
            <p class="decision" data-testid="audit-decision">{move || match decided() {
                Some((v, note)) if note.is_empty() => format!("Decided: {}", mark(Some(v))),
                Some((v, note)) => format!("Decided: {} · note: {note}", mark(Some(v))),
                None => "Not decided yet".to_owned(),
            }}</p>
            <Show when=move || note_open.get()>
                <label class="note">
                    {move || if undecided() {
                        "Note (save it with a verdict below; Escape cancels) "
                    } else {
                        "Note (Enter saves, Escape cancels) "
                    }}
                    <textarea node_ref=note_ref data-testid="audit-note-text" rows="3" on:keydown=on_note_key></textarea>
                </label>
                <p class="note-actions">
                    <Show
                        when=undecided
                        fallback=move || view! {
                            <button type="button" data-testid="audit-note-save" on:click=move |_| save_note(None)>"Save note"</button>
                        }
                    >
                        <button type="button" data-testid="audit-note-save-wrong" on:click=move |_| save_note(Some(Verdict::GraderWrong))>"Save with grader wrong"</button>
                        " "
                        <button type="button" data-testid="audit-note-save-right" on:click=move |_| save_note(Some(Verdict::GraderRight))>"Save with grader right"</button>
                        " "
                        <button type="button" data-testid="audit-note-save-unsure" on:click=move |_| save_note(Some(Verdict::Unsure))>"Save with unsure"</button>
                    </Show>
                    " "
                    <button type="button" data-testid="audit-note-cancel" on:click=move |_| close_note()>"Cancel"</button>
                </p>
                {move || note_hint.get().map(|hint| view! {
                    <p class="hint" role="alert" data-testid="audit-note-hint">{hint}</p>
                })}
            </Show>
        </div>
    }
}
