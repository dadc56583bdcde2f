//! The view registry: every view of a bundle, in tab order, with its label, its key, where
//! its code is and what it waits for. The tab bar, the view keys (`1`–`8`), the narrow
//! screen's menu, the arrow keys, the overview's choice of view and the split build's chunk
//! list (`data-chunk` on the tabs, read by e2e/tests/chunks.test.mjs) all read this table.
//! Its rows are the views' own `VIEW`s, in the order of the view list (`state::view_list`):
//! adding a view is its folder and its line there (docs/architecture.md, "Worked example:
//! add a view").

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::pages::views::ViewDef;
use crate::state::Tab;

/// Builds [`VIEWS`] from the view list: each view's `VIEW`, in the list's order.
macro_rules! view_table {
    ($($folder:ident: $tab:ident = $key:literal $(, keys $params:path)?;)*) => {
        /// Every view, in tab order.
        pub static VIEWS: &[ViewDef] = &[$(crate::pages::$folder::VIEW,)*];
    };
}

crate::state::view_list::for_each_view!(view_table);

/// The keys `1`–`9`: a view's key is its place in the tab strip.
const SHORTCUTS: [&str; 9] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// The key that opens `tab`'s view from anywhere on the page (not while typing in a field):
/// its place in the tab strip, `1` to `9` (`None` past the ninth view).
pub fn shortcut(tab: Tab) -> Option<&'static str> {
    let i = VIEWS.iter().position(|v| v.tab == tab)?;
    SHORTCUTS.get(i).copied()
}

/// The registry's entry of `tab`.
pub fn view_def(tab: Tab) -> &'static ViewDef {
    // Every tab has a line (`every_tab_is_registered` in the app's tests).
    VIEWS.iter().find(|v| v.tab == tab).unwrap_or(&VIEWS[0])
}

/// The tab `key` moves to from `current` in the tab strip (`None`: not a tab key): the arrow
/// keys to the previous / next view, Home and End to the first and last.
pub fn tab_after_key(current: Tab, key: &str) -> Option<Tab> {
    let i = VIEWS.iter().position(|v| v.tab == current)?;
    let n = VIEWS.len();
    Some(
        VIEWS[match key {
            "ArrowRight" => (i + 1) % n,
            "ArrowLeft" => (i + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return None,
        }]
        .tab,
    )
}

/// The view whose shortcut is `key`.
pub fn tab_of_shortcut(key: &str) -> Option<Tab> {
    let i = SHORTCUTS.iter().position(|k| *k == key)?;
    VIEWS.get(i).map(|v| v.tab)
}

/// Mounts `tab`'s view (the caller decides when, by [`ViewDef::needs`]).
pub fn mount(tab: Tab, bundle: Arc<Bundle>) -> AnyView {
    crate::pages::views::mount_view(tab, view_def(tab).code, bundle)
}
