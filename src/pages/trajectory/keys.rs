//! Walking the list: Prev / Next buttons with the position, the diff toggle, the help
//! overlay, and the keys `j` / `k` / `g` / `?` / Escape (ignored while typing in a field).

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::list::CellId;
use crate::state::{Tab, UrlState};

/// Opens the cell `delta` places from the open one in `list` (the first cell when the open
/// one is not in the list). Returns whether it moved.
pub fn step(state: UrlState, list: &[CellId], delta: isize) -> bool {
    let pos = state.with_untracked(|s| position(list, s.cell_model.as_deref(), s.trace.as_deref()));
    let next = match pos {
        Some(i) => i.checked_add_signed(delta).filter(|&j| j < list.len()),
        None => (!list.is_empty()).then_some(0),
    };
    let Some((model, trace)) = next.and_then(|j| list.get(j)).cloned() else {
        return false;
    };
    state.push(|s| {
        s.tab = Tab::Trajectory;
        s.cell_model = Some(model);
        s.trace = Some(trace);
    });
    true
}

/// Index of `(model, trace)` in `list`.
pub fn position(list: &[CellId], model: Option<&str>, trace: Option<&str>) -> Option<usize> {
    let (model, trace) = (model?, trace?);
    list.iter().position(|(m, t)| m == model && t == trace)
}

/// True when the key went to a text field (inputs, text areas, selects, editable content).
pub fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let tag = el.tag_name().to_ascii_uppercase();
    matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || el
            .dyn_ref::<web_sys::HtmlElement>()
            .is_some_and(|h| h.is_content_editable())
}

/// The navigation bar, the help overlay and the page-wide key handler.
#[component]
pub fn NavBar(
    /// The list `j` / `k` walk.
    #[prop(into)]
    list: Signal<Arc<Vec<CellId>>>,
    /// Its name, e.g. `failures · wrong_filter`.
    #[prop(into)]
    name: Signal<String>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let (help, set_help) = signal(false);
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    Effect::new(move |_| {
        let open = help.get();
        let Some(d) = dialog.get() else { return };
        if open && !d.open() {
            let _ = d.show_modal();
        } else if !open && d.open() {
            d.close();
        }
    });
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing(&ev) {
            return;
        }
        // While the help is open the page behind it is inert: only its own keys work.
        if help.get_untracked() && !matches!(ev.key().as_str(), "?" | "Escape") {
            return;
        }
        match ev.key().as_str() {
            "j" => {
                list.with_untracked(|l| step(state, l, 1));
            }
            "k" => {
                list.with_untracked(|l| step(state, l, -1));
            }
            "g" => state.push(|s| s.diff = !s.diff),
            "?" => set_help.update(|h| *h = !*h),
            "Escape" => set_help.set(false),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
    let pos = Memo::new(move |_| {
        let (m, t) = state.with(|s| (s.cell_model.clone(), s.trace.clone()));
        list.with(|l| position(l, m.as_deref(), t.as_deref()))
    });
    let len = move || list.with(|l| l.len());
    let position_text = move || {
        let at = pos
            .get()
            .map_or_else(|| "–".to_owned(), |i| (i + 1).to_string());
        format!("{at} / {}", len())
    };
    let diff = move || state.with(|s| s.diff);
    let prev_disabled = move || pos.get().is_none_or(|i| i == 0);
    let next_disabled = move || pos.get().map_or(len() == 0, |i| i + 1 >= len());
    view! {
        <nav class="trajectory-nav" aria-label="Walk the list">
            <button class="nav-prev" data-testid="trajectory-prev" disabled=prev_disabled
                on:click=move |_| { list.with_untracked(|l| step(state, l, -1)); }>"← Prev (k)"</button>
            <span class="nav-position" data-testid="trajectory-position">{position_text}</span>
            <button class="nav-next" data-testid="trajectory-next" disabled=next_disabled
                on:click=move |_| { list.with_untracked(|l| step(state, l, 1)); }>"Next (j) →"</button>
            <span class="hint" data-testid="trajectory-list">{move || format!(" in {}", name.get())}</span>
            <button class="diff-toggle" data-testid="diff-toggle" aria-pressed=move || diff().to_string()
                on:click=move |_| state.push(|s| s.diff = !s.diff)>
                {move || if diff() { "Hide SQL diff (g)" } else { "Show SQL diff (g)" }}
            </button>
            <button class="help-button" on:click=move |_| set_help.set(true)>"Keys (?)"</button>
        </nav>
        // A modal <dialog>: the browser keeps focus inside it (the page behind is inert),
        // closes it on Escape and gives focus back to where it was.
        <dialog class="help-overlay" aria-label="Keyboard shortcuts" data-testid="trajectory-help"
            node_ref=dialog on:close=move |_| set_help.set(false)>
                <h3>"Keyboard"</h3>
                <dl>
                    <dt><kbd>"j"</kbd></dt><dd>"next trajectory in the list"</dd>
                    <dt><kbd>"k"</kbd></dt><dd>"previous trajectory in the list"</dd>
                    <dt><kbd>"g"</kbd></dt><dd>"show / hide the gold vs candidate SQL diff"</dd>
                    <dt><kbd>"?"</kbd></dt><dd>"this help"</dd>
                    <dt><kbd>"Esc"</kbd></dt><dd>"close this help"</dd>
                </dl>
                <button on:click=move |_| set_help.set(false)>"Close"</button>
        </dialog>
    }
}
