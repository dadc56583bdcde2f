//! The view registry: every view of a bundle, in tab order, with its label, its key, where
//! its code is and what it waits for. The tab bar, the view keys (`1`–`7`), the narrow
//! screen's menu, the arrow keys, the overview's choice of view and the split build's chunk
//! list (`data-chunk` on the tabs, read by e2e/tests/chunks.test.mjs) all read this table. Adding a view: a folder under
//! `pages/` that ends with `lazy_view!(chunk: Component)`, its `Tab` line (`state`), and a
//! line here (docs/architecture.md, "Worked example: add a view").

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::pages::views::Code;
use crate::pages::{LeaderboardView, audit, failures, gate, matrix, ranking, trajectory};
use crate::state::Tab;

/// What a view needs of a v2 bundle that is still loading (a v1 bundle is whole at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// The summary, or the tables the worker reads right after it: mounts at once.
    Summary,
    /// The whole bundle for its answers: mounts at once (its questions wait in the worker,
    /// which answers them the moment the rest is in) under a line saying the rest is loading.
    WholeForAnswers,
    /// The whole bundle in the page: mounts once it is in, a line meanwhile.
    WholeToMount,
}

/// One view.
#[derive(Clone, Copy)]
pub struct ViewDef {
    /// Its identity and URL key.
    pub tab: Tab,
    /// The tab's label.
    pub label: &'static str,
    /// The key that opens it from anywhere on the page (not while typing in a field).
    pub shortcut: &'static str,
    /// What it waits for.
    pub needs: Needs,
    /// Where its code is.
    pub code: Code,
}

impl ViewDef {
    /// The split build's chunk of the view (`None`: in the first download).
    pub fn chunk(&self) -> Option<&'static str> {
        match self.code {
            Code::First(_) => None,
            Code::Chunk(chunk) => Some(chunk.name),
        }
    }
}

/// Every view, in tab order.
pub static VIEWS: [ViewDef; 7] = [
    ViewDef {
        tab: Tab::Leaderboard,
        label: "Leaderboard",
        shortcut: "1",
        needs: Needs::Summary,
        code: Code::First(|bundle| view! { <LeaderboardView bundle=bundle /> }.into_any()),
    },
    ViewDef {
        tab: Tab::Matrix,
        label: "Matrix",
        shortcut: "2",
        needs: Needs::WholeForAnswers,
        code: Code::Chunk(matrix::CHUNK),
    },
    ViewDef {
        tab: Tab::Ranking,
        label: "Table ranking",
        shortcut: "3",
        needs: Needs::Summary,
        code: Code::Chunk(ranking::CHUNK),
    },
    ViewDef {
        tab: Tab::Failures,
        label: "Failures",
        shortcut: "4",
        needs: Needs::Summary,
        code: Code::Chunk(failures::CHUNK),
    },
    ViewDef {
        tab: Tab::Audit,
        label: "Audit queue",
        shortcut: "5",
        needs: Needs::WholeForAnswers,
        code: Code::Chunk(audit::CHUNK),
    },
    ViewDef {
        tab: Tab::Gate,
        label: "Gate",
        shortcut: "6",
        needs: Needs::Summary,
        code: Code::Chunk(gate::CHUNK),
    },
    ViewDef {
        tab: Tab::Trajectory,
        label: "Trajectory",
        shortcut: "7",
        needs: Needs::WholeToMount,
        code: Code::Chunk(trajectory::CHUNK),
    },
];

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
    VIEWS.iter().find(|v| v.shortcut == key).map(|v| v.tab)
}

/// Mounts `tab`'s view (the caller decides when, by [`ViewDef::needs`]).
pub fn mount(tab: Tab, bundle: Arc<Bundle>) -> AnyView {
    crate::pages::views::mount_view(tab, view_def(tab).code, bundle)
}
