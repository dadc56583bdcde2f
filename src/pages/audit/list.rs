//! The queue list, virtualised: fixed-height rows, only the visible ones (plus a margin)
//! rendered between two spacers.

use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use runlens_core::audit::{AuditLog, Verdict};

use super::entries::Entry;

/// Row height in pixels (CSS `.audit-row` uses the same).
pub const ROW_H: f64 = 34.0;
/// Height of the scrolling list in pixels.
const VIEW_H: f64 = 476.0;
/// Rows rendered beyond each edge.
const MARGIN: usize = 10;

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
    let scroller = NodeRef::<Div>::new();
    let (top, set_top) = signal(0.0f64);
    let range = move || {
        let n = queue.with(|q| q.len());
        let first = ((top.get() / ROW_H) as usize).saturating_sub(MARGIN).min(n);
        let last = (first + (VIEW_H / ROW_H) as usize + 2 * MARGIN + 1).min(n);
        (first, last, n)
    };
    // Keep the selected row in view when j / k move it.
    Effect::new(move |_| {
        let Some(i) = selected.get() else { return };
        let Some(el) = scroller.get() else { return };
        let y = i as f64 * ROW_H;
        let cur = f64::from(el.scroll_top());
        if y < cur || y + ROW_H > cur + VIEW_H {
            el.set_scroll_top((y - VIEW_H / 2.0).max(0.0) as i32);
            set_top.set(f64::from(el.scroll_top()));
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
        <div class="audit-list" node_ref=scroller role="listbox" aria-label="Audit queue"
            style=format!("height:{VIEW_H}px;overflow-y:auto")
            on:scroll=move |_| {
                if let Some(el) = scroller.get() { set_top.set(f64::from(el.scroll_top())); }
            }>
            <div class="spacer" style=move || format!("height:{}px", range().0 as f64 * ROW_H)></div>
            {rows}
            <div class="spacer" style=move || {
                let (_, last, n) = range();
                format!("height:{}px", (n - last) as f64 * ROW_H)
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
            style=format!("height:{ROW_H}px")
            on:click=move |_| selected.set(Some(index))>
            <span class="cdf">{format!("{:.3}", entry.item.correct_despite_fail)}</span>
            <span class="key">{key.clone()}</span>
            <span class="corpus">{entry.corpus.clone()}</span>
            <span class="mark">{move || mark(v2())}</span>
        </button>
    }
}
