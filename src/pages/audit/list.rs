//! The queue list, virtualised: fixed-height rows, only the visible ones (plus a margin)
//! rendered between two spacers.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::{AuditLog, Verdict};

use super::entries::Entry;
use crate::components::{RowWindow, ScrollBox};

/// Geometry of the list: 34 px rows in a 476 px box, 10 rows rendered beyond each edge.
pub const ROWS: RowWindow = RowWindow {
    row_height: 34,
    view_height: 476,
    margin: 10,
};

/// Short mark of a verdict shown in the row.
pub fn mark(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::GraderWrong) => "grader wrong",
        Some(Verdict::GraderRight) => "grader right",
        Some(Verdict::Unsure) => "unsure",
        None => "",
    }
}

/// The list; a click selects a row.
#[component]
pub fn QueueList(
    queue: Memo<Arc<Vec<Entry>>>,
    log: RwSignal<AuditLog>,
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let scroll = ScrollBox::new();
    let range = move || {
        let n = queue.with(|q| q.len());
        let (first, last) = ROWS.range(scroll.top(), n);
        (first, last, n)
    };
    // Keep the selected row in view when j / k move it.
    Effect::new(move |_| {
        let Some(i) = selected.get() else { return };
        let Some(el) = scroll.node.get() else { return };
        let y = i * ROWS.row_height;
        let cur = el.scroll_top().max(0) as usize;
        if y < cur || y + ROWS.row_height > cur + ROWS.view_height {
            scroll.scroll_to(y.saturating_sub(ROWS.view_height / 2));
        }
    });
    let rows = move || {
        let (first, last, _) = range();
        let q = queue.get();
        (first..last)
            .filter_map(|i| q.get(i).map(|e| (i, e.clone())))
            .map(|(i, e)| view! { <Row index=i entry=e log=log selected=selected /> })
            .collect_view()
    };
    view! {
        <div class="audit-list" node_ref=scroll.node role="listbox" aria-label="Audit queue"
            style=format!("height:{}px;overflow-y:auto", ROWS.view_height)
            on:scroll=scroll.on_scroll()>
            <div class="spacer" style=move || {
                let (first, last, n) = range();
                format!("height:{}px", ROWS.spacers(first, last, n).0)
            }></div>
            {rows}
            <div class="spacer" style=move || {
                let (first, last, n) = range();
                format!("height:{}px", ROWS.spacers(first, last, n).1)
            }></div>
        </div>
    }
}

#[component]
fn Row(
    index: usize,
    entry: Entry,
    log: RwSignal<AuditLog>,
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    let key = entry.item.key.clone();
    let verdict = {
        let key = key.clone();
        move || log.with(|l| l.get(&key).map(|d| d.verdict))
    };
    let is_selected = move || selected.get() == Some(index);
    let v2 = verdict.clone();
    view! {
        <button type="button" class="audit-row" role="option" data-key=key.clone()
            data-index=index aria-selected=move || is_selected().to_string()
            data-verdict=move || verdict().map(|v| v.as_str()).unwrap_or("")
            style=format!("height:{}px", ROWS.row_height)
            on:click=move |_| selected.set(Some(index))>
            <span class="cdf">{format!("{:.3}", entry.item.correct_despite_fail)}</span>
            <span class="key">{key.clone()}</span>
            <span class="corpus">{entry.corpus.clone()}</span>
            <span class="mark">{move || mark(v2())}</span>
        </button>
    }
}
