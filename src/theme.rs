//! Light and dark themes follow the system setting (`prefers-color-scheme`); CSS styles the
//! page, and charts read [`chart_theme`] so they redraw when the setting changes.

use leptos::prelude::*;
use runlens_charts::Theme;
use wasm_bindgen::{JsCast, closure::Closure};

/// Whether the reader's system asks for a dark theme.
pub fn prefers_dark() -> bool {
    dark_query().is_some_and(|m| m.matches())
}

fn dark_query() -> Option<web_sys::MediaQueryList> {
    web_sys::window()?
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
}

/// Shared signal: is the system in dark mode.
#[derive(Debug, Clone, Copy)]
struct DarkMode(RwSignal<bool>);

/// Provides the theme signal and follows system changes. Call once, in the root.
pub fn provide_theme() {
    let dark = RwSignal::new(prefers_dark());
    provide_context(DarkMode(dark));
    if let Some(query) = dark_query() {
        let on_change = Closure::<dyn Fn()>::new(move || dark.set(prefers_dark()));
        query.set_onchange(Some(on_change.as_ref().unchecked_ref()));
        // The listener lives as long as the page.
        on_change.forget();
    }
}

/// The chart theme for the current system setting (tracked).
pub fn chart_theme() -> Theme {
    let dark = use_context::<DarkMode>().map_or_else(prefers_dark, |d| d.0.get());
    if dark { Theme::DARK } else { Theme::LIGHT }
}
