//! The one owner of shared view state: a [`ViewState`] signal mirrored in the page address.
//!
//! Changes made with [`UrlState::push`] add a history entry (back/forward walk through views);
//! [`UrlState::replace`] rewrites the current one (used while a slider is dragged).
//! Back/forward (`popstate`) reads the address back into the signal.

mod ov_link;
mod overrides;
pub mod params;
mod query;
pub(crate) mod view_list;
mod view_state;

use leptos::prelude::*;

pub use crate::pages::compare::url::CompareParams;
pub use crate::pages::failures::url::{DEFAULT_CDF_THRESHOLD, FailuresParams};
pub use crate::pages::gate::url::GateParams;
pub use crate::pages::leaderboard::url::BoardParams;
pub use crate::pages::matrix::url::MatrixParams;
pub use crate::pages::ranking::url::{DEFAULT_K, DEFAULT_THRESHOLD, RankingParams};
pub use crate::pages::trajectory::url::TrajectoryParams;
pub use ov_link::{
    LinkOf, MAX_LINK_CHARS, decode_overrides, encode_overrides, is_link_of, link_of, link_value,
};
pub use overrides::{OverridesState, relabels_in_force, storage_key, warm_storage};
pub use params::Sort;
pub use query::{decode_query, encode_query};
pub use view_state::{Tab, ViewState};

/// Handle on the shared view state (a context; cheap to copy).
#[derive(Debug, Clone, Copy)]
pub struct UrlState {
    state: RwSignal<ViewState>,
    /// Whether changes are written to the page address (false for detached test states).
    in_address: bool,
}

/// Reads the view state from the current page address.
fn from_location() -> ViewState {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    decode_query(&search)
}

impl UrlState {
    /// Creates the state from the page address, provides it as context and follows
    /// back/forward navigation. Call once, in the root component.
    pub fn provide() -> UrlState {
        let state = UrlState {
            state: RwSignal::new(from_location()),
            in_address: true,
        };
        provide_context(state);
        let handle = window_event_listener(leptos::ev::popstate, move |_| {
            state.state.set(from_location());
        });
        on_cleanup(move || handle.remove());
        state
    }

    /// The state provided by the root, or a detached one (components mounted alone in tests).
    pub fn use_context() -> UrlState {
        use_context::<UrlState>().unwrap_or_else(|| UrlState::detached(ViewState::default()))
    }

    /// A state that is not tied to the address (tests, components mounted alone).
    pub fn detached(state: ViewState) -> UrlState {
        UrlState {
            state: RwSignal::new(state),
            in_address: false,
        }
    }

    /// Reads a part of the state, tracking it.
    pub fn with<T>(&self, f: impl FnOnce(&ViewState) -> T) -> T {
        self.state.with(f)
    }

    /// Reads a part of the state without tracking.
    pub fn with_untracked<T>(&self, f: impl FnOnce(&ViewState) -> T) -> T {
        self.state.with_untracked(f)
    }

    /// The tab shown, or `None` once the state is gone (the app unmounted).
    pub fn try_tab(&self) -> Option<Tab> {
        self.state.try_with_untracked(|s| s.tab)
    }

    /// Changes the state and adds a history entry.
    pub fn push(&self, f: impl FnOnce(&mut ViewState)) {
        self.change(f, true);
    }

    /// Changes the state and rewrites the current history entry.
    pub fn replace(&self, f: impl FnOnce(&mut ViewState)) {
        self.change(f, false);
    }

    fn change(&self, f: impl FnOnce(&mut ViewState), push: bool) {
        let mut next = self.state.get_untracked();
        f(&mut next);
        if self.state.with_untracked(|cur| *cur == next) {
            return;
        }
        if self.in_address {
            write_address(&next, push);
        }
        self.state.set(next);
    }

    /// The address of the current view (what "Copy link" copies).
    pub fn href(&self) -> String {
        let Some(location) = web_sys::window().map(|w| w.location()) else {
            return String::new();
        };
        let base = format!(
            "{}{}",
            location.origin().unwrap_or_default(),
            location.pathname().unwrap_or_default()
        );
        format!("{base}{}", self.with_untracked(encode_query))
    }
}

/// Writes `state` into the address bar (no reload).
fn write_address(state: &ViewState, push: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(history) = window.history() else {
        return;
    };
    let mut url = encode_query(state);
    if url.is_empty() {
        // An empty query would keep the old one: go to the page itself.
        url = window.location().pathname().unwrap_or_else(|_| "./".into());
    }
    let outcome = if push {
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
    };
    if outcome.is_err() {
        leptos::logging::warn!("runlens: the browser refused to update the address");
    }
}
