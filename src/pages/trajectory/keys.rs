//! Walking the list: Prev / Next buttons with the position, the diff toggle, the help
//! overlay, and the keys `j` / `k` / `g` / `?` / Escape (ignored while typing in a field).

use leptos::prelude::*;
use runlens_core::trajectory::{CellId, WalkPlace};

use crate::components::page_keys::not_a_page_key;
use crate::state::{Tab, UrlState, ViewState};

/// Opens `cell` (a neighbour in the window of the open cell's [`WalkPlace`]). Returns
/// whether it moved (there was one).
pub fn step(state: UrlState, cell: Option<CellId>) -> bool {
    let Some((model, trace)) = cell else {
        return false;
    };
    state.push(|s| {
        s.tab = Tab::Trajectory;
        s.trajectory.model = Some(model);
        s.trajectory.trace = Some(trace);
    });
    true
}

/// The cell `delta` (±1) places from the one the address opens (the answered one, or one
/// walked to before its answer came), as `place`'s window names it.
pub fn neighbour(state: UrlState, place: &WalkPlace, delta: isize) -> Option<CellId> {
    state.with_untracked(|s| place.neighbour(open_cell(s), delta))
}

/// The cell the address opens (empty keys when none: `j` then opens the list's first).
fn open_cell(s: &ViewState) -> (&str, &str) {
    (
        s.trajectory.model.as_deref().unwrap_or_default(),
        s.trajectory.trace.as_deref().unwrap_or_default(),
    )
}

/// The navigation bar, the help overlay and the page-wide key handler.
#[component]
pub fn NavBar(
    /// The open cell's place in the list `j` / `k` walk.
    #[prop(into)]
    place: Signal<WalkPlace>,
    /// Whether the list has been answered (before, its length is unknown, not 0).
    #[prop(into)]
    counted: Signal<bool>,
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
        if not_a_page_key(&ev) {
            return;
        }
        // While the help is open the page behind it is inert: only its own keys work.
        if help.get_untracked() && !matches!(ev.key().as_str(), "?" | "Escape") {
            return;
        }
        match ev.key().as_str() {
            "j" => {
                step(state, place.with_untracked(|p| neighbour(state, p, 1)));
            }
            "k" => {
                step(state, place.with_untracked(|p| neighbour(state, p, -1)));
            }
            "g" => state.push(|s| s.trajectory.diff = !s.trajectory.diff),
            "?" => set_help.update(|h| *h = !*h),
            "Escape" => set_help.set(false),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || handle.remove());
    // The address's cell in the answer's window: the position follows keys pressed before
    // the next answer comes.
    let at = Memo::new(move |_| state.with(|s| place.with(|p| (p.index_of(open_cell(s)), p.len))));
    let position_text = move || {
        if !counted.get() {
            return "… / …".to_owned();
        }
        let (i, len) = at.get();
        let i = i.map_or_else(|| "–".to_owned(), |i| (i + 1).to_string());
        format!("{i} / {len}")
    };
    let diff = move || state.with(|s| s.trajectory.diff);
    let none_at =
        move |delta| state.with(|s| place.with(|p| p.neighbour(open_cell(s), delta).is_none()));
    let prev_disabled = move || none_at(-1);
    let next_disabled = move || none_at(1);
    view! {
        <nav class="trajectory-nav" aria-label="Walk the list">
            <button class="nav-prev" data-testid="trajectory-prev" disabled=prev_disabled
                on:click=move |_| { step(state, place.with_untracked(|p| neighbour(state, p, -1))); }>"← Prev (k)"</button>
            <span class="nav-position" data-testid="trajectory-position"
                aria-busy=move || (!counted.get()).to_string()>{position_text}</span>
            <button class="nav-next" data-testid="trajectory-next" disabled=next_disabled
                on:click=move |_| { step(state, place.with_untracked(|p| neighbour(state, p, 1))); }>"Next (j) →"</button>
            <span class="hint" data-testid="trajectory-list">{move || format!(" in {}", name.get())}</span>
            <button class="diff-toggle" data-testid="diff-toggle" aria-pressed=move || diff().to_string()
                on:click=move |_| state.push(|s| s.trajectory.diff = !s.trajectory.diff)>
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
