//! The failure list under the charts: every row that passes all filters, virtualised (a
//! fixed-height scroll box renders only the visible rows plus a margin, with spacers for
//! the rest). The rows are asked for in blocks from the data's owner (the loader worker) as
//! they scroll into view ([`RowBlocks`]); a row not yet answered shows as an empty row of the same height.
//! The CSV export is the owner's answer too. A row's button opens its trajectory.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::truncate_chars;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::failures_view::{FailuresQuery, ListRow};

use crate::components::export_buttons::CsvLater;
use crate::components::{ExportButtons, RowWindow, ScrollBox};
use crate::derived::answers::{ViewQuery, ask};
use crate::derived::row_blocks::{Blocks, RowBlocks};
use crate::state::UrlState;

/// Geometry of the list: 34 px rows (fixed, so the window is computed from the scroll
/// offset) in a 476 px box, 8 rows rendered beyond each edge.
pub const ROWS: RowWindow = RowWindow {
    row_height: 34,
    view_height: 476,
    margin: 8,
};
/// Row height in pixels.
pub const ROW_HEIGHT: usize = ROWS.row_height;
/// Rows asked for at once (a block starts at a multiple of this).
pub const BLOCK: usize = 64;
/// Characters of the question shown in a row.
const QUESTION_CHARS: usize = 110;

thread_local! {
    /// The rows last shown, with their bundle's content hash: the list mounted again for the
    /// same bundle and question starts with them (see `super::LAST`).
    static LAST_ROWS: RefCell<Option<(String, Blocks<FailuresQuery, ListRow>)>> =
        const { RefCell::new(None) };
}

/// The virtualised failure list.
#[component]
pub fn FailureList(
    /// The loaded bundle (whose owner answers).
    bundle: Arc<Bundle>,
    /// The view's question.
    query: Memo<FailuresQuery>,
    /// Rows under every filter.
    listed: Memo<usize>,
    /// Caption of the CSV export.
    #[prop(into)]
    caption: Signal<String>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let scroll = ScrollBox::new();
    // A new filter starts at the top of the list.
    scroll.reset_on_change(move || query.track());
    let n = move || listed.get();
    let window = Memo::new(move |_| ROWS.range(scroll.top(), listed.get()));
    let hash = bundle.content_hash.clone();
    let kept = LAST_ROWS
        .with_borrow(Clone::clone)
        .filter(|(h, _)| *h == hash)
        .map(|(_, bl)| bl);
    let b = bundle.clone();
    let blocks = RowBlocks::new(query, window, BLOCK, kept, move |q, start, end| {
        let b = b.clone();
        Box::pin(async move {
            ask::<Vec<ListRow>>(
                &b,
                ViewQuery::FailuresPage {
                    query: q,
                    start,
                    end,
                },
            )
            .await
            .map_err(|e| e.to_string())
        })
    });
    Effect::new(move |_| {
        let kept = blocks.blocks();
        LAST_ROWS.set(Some((hash.clone(), kept)));
    });
    let csv = {
        let b = bundle.clone();
        CsvLater(Rc::new(move || {
            let (b, q) = (b.clone(), query.get_untracked());
            Box::pin(async move {
                ask::<String>(&b, ViewQuery::FailuresCsv(q))
                    .await
                    .map_err(|e| e.to_string())
            })
        }))
    };
    let open = move |row: &ListRow| {
        let (corpus, model, trace) = (row.corpus.clone(), row.model.clone(), row.trace_id.clone());
        move |_| state.push(|s| s.open_cell(&corpus, &model, &trace, "failures"))
    };
    let opt = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:.2}"));
    view! {
        <section class="failure-list" data-testid="failure-list" id="fail-list-section">
            <h3>"Failures " <span data-metric="failures:listed" data-value=move || n().to_string()>{n}</span></h3>
            <ExportButtons base_name="failures" caption=caption csv_later=csv />
            // A table for assistive technology (rows of cells under column headers); the
            // rows are laid out as a grid and only those in view exist.
            <div class="fail-table" role="table" aria-label="Failures" aria-rowcount=move || (n() + 1).to_string()>
            <div role="rowgroup">
            <div class="fail-row fail-head" role="row" aria-rowindex="1">
                <span role="columnheader">"model"</span><span role="columnheader">"trace"</span>
                <span role="columnheader">"question"</span><span role="columnheader">"sub-mode"</span>
                <span role="columnheader">"conf."</span><span role="columnheader">"cdf"</span>
                <span role="columnheader">"rule"</span>
            </div>
            </div>
            // No scroll anchoring: re-rendering the window moved the rows under the anchor,
            // the browser adjusted `scrollTop`, which re-rendered the window again, and so on.
            <div class="fail-scroll" role="rowgroup" node_ref=scroll.node on:scroll=scroll.on_scroll() data-testid="failure-scroll"
                style=format!("height:{}px;overflow-y:auto;position:relative;overflow-anchor:none", ROWS.view_height)>
                {move || {
                    let (start, end) = window.get();
                    let (above, below) = ROWS.spacers(start, end, n());
                    let rows = (start..end).map(|i| (i, blocks.row(i))).collect::<Vec<_>>();
                    view! {
                        <div class="spacer" role="none" style=format!("height:{above}px")></div>
                        {rows.into_iter().map(|(i, row)| match row {
                            None => view! {
                                <div class="fail-row pending" role="row" aria-rowindex=(i + 2).to_string()
                                    aria-busy="true" style=format!("height:{ROW_HEIGHT}px")></div>
                            }.into_any(),
                            Some(r) => {
                                let on_open = open(&r);
                                let ListRow { model, name, trace_id, question, sub_mode, confidence, correct_despite_fail, rule, .. } = r;
                                let model_attr = model.clone();
                                view! {
                                    <div class="fail-row" role="row" aria-rowindex=(i + 2).to_string() data-index=i data-trace=trace_id.clone()
                                        data-model=model_attr style=format!("height:{ROW_HEIGHT}px")>
                                        <span role="cell" title=model>{name}</span>
                                        <span role="cell"><button type="button" class="open" on:click=on_open
                                            aria-label=format!("open trajectory {trace_id}")>{trace_id.clone()}</button></span>
                                        <span role="cell" class="question" title=question.clone()>{truncate_chars(&question, QUESTION_CHARS)}</span>
                                        <span role="cell">{sub_mode.unwrap_or_default()}</span><span role="cell">{opt(confidence)}</span>
                                        <span role="cell">{opt(correct_despite_fail)}</span><span role="cell">{rule.unwrap_or_default()}</span>
                                    </div>
                                }.into_any()
                            }
                        }).collect_view()}
                        <div class="spacer" role="none" style=format!("height:{below}px")></div>
                    }
                }}
            </div>
            </div>
        </section>
    }
}
