//! The failure list under the charts: every row that passes all filters, virtualised (a
//! fixed-height scroll box renders only the visible rows plus a margin, with spacers for
//! the rest), exportable as CSV; a row's button opens its trajectory.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::truncate_chars;
use runlens_core::bundle::Bundle;
use runlens_core::csv::{number_cell, to_csv};
use runlens_core::metrics::taxonomy::{bucket_of, family_of};

use super::rows::{FailRow, label};
use crate::components::{ExportButtons, RowWindow, ScrollBox};
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
/// Characters of the question shown in a row.
const QUESTION_CHARS: usize = 110;

/// The text cells of one row: corpus, model, trace, question, sub-mode, confidence,
/// correct_despite_fail, rule, schema hint, FM label.
fn cells(b: &Bundle, r: &FailRow) -> Option<[String; 10]> {
    let c = b.body.corpora.get(r.corpus)?;
    let l = label(b, r)?;
    let q = r
        .question
        .and_then(|i| c.questions.get(i))
        .map_or_else(String::new, |q| q.nl_question.clone());
    let fm =
        r.fm.and_then(|i| c.fm_labels.get(i))
            .map_or_else(String::new, |f| f.fm.clone());
    let opt = |v: Option<f64>| v.map_or_else(String::new, |v| format!("{v:.2}"));
    Some([
        c.name.clone(),
        l.model.clone(),
        l.trace_id.clone(),
        q,
        l.sub_mode.clone().unwrap_or_default(),
        opt(l.sub_mode_confidence),
        opt(l.correct_despite_fail),
        l.prevented_by_rule.clone().unwrap_or_default(),
        opt(l.schema_hint_would_help),
        fm,
    ])
}

/// The list as CSV (unrounded numbers, full question text).
pub fn list_csv(b: &Bundle, rows: &[FailRow]) -> String {
    let out: Vec<Vec<String>> = rows
        .iter()
        .filter_map(|r| {
            let c = b.body.corpora.get(r.corpus)?;
            let l = label(b, r)?;
            let cell = cells(b, r)?;
            let sub = l.sub_mode.as_deref();
            Some(vec![
                c.name.clone(),
                l.model.clone(),
                l.trace_id.clone(),
                cell[3].clone(),
                sub.unwrap_or_default().to_owned(),
                sub.and_then(family_of).unwrap_or_default().to_owned(),
                sub.map(bucket_of)
                    .map(|b| b.label())
                    .unwrap_or_default()
                    .to_owned(),
                number_cell(l.sub_mode_confidence),
                number_cell(l.correct_despite_fail),
                number_cell(l.schema_hint_would_help),
                cell[7].clone(),
                cell[9].clone(),
            ])
        })
        .collect();
    to_csv(
        &[
            "corpus",
            "model",
            "trace_id",
            "question",
            "sub_mode",
            "family",
            "fm_bucket",
            "sub_mode_confidence",
            "correct_despite_fail",
            "schema_hint_would_help",
            "prevented_by_rule",
            "fm",
        ],
        &out,
    )
}

/// The virtualised failure list.
#[component]
pub fn FailureList(
    /// The loaded bundle.
    bundle: StoredValue<Arc<Bundle>>,
    /// Rows under every filter.
    rows: Memo<Vec<FailRow>>,
    /// Caption of the CSV export.
    #[prop(into)]
    caption: Signal<String>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let scroll = ScrollBox::new();
    // A new filter starts at the top of the list.
    scroll.reset_on_change(move || rows.track());
    let n = move || rows.with(Vec::len);
    let visible = move || {
        let (start, end) = ROWS.range(scroll.top(), n());
        let items: Vec<(usize, [String; 10])> = rows.with(|rs| {
            bundle.with_value(|b| {
                (start..end)
                    .filter_map(|i| Some((i, cells(b, rs.get(i)?)?)))
                    .collect()
            })
        });
        (start, end, items)
    };
    let csv =
        Callback::new(move |()| rows.with_untracked(|r| bundle.with_value(|b| list_csv(b, r))));
    view! {
        <section class="failure-list" data-testid="failure-list">
            <h3>"Failures " <span data-metric="failures:listed" data-value=move || n().to_string()>{n}</span></h3>
            <ExportButtons base_name="failures" caption=caption csv=csv />
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
                    let (start, end, items) = visible();
                    let (above, below) = ROWS.spacers(start, end, n());
                    view! {
                        <div class="spacer" role="none" style=format!("height:{above}px")></div>
                        {items.into_iter().map(|(i, c)| {
                            let [corpus, model, trace, q, sub, conf, cdf, rule, _, _] = c;
                            let (model_attr, trace_attr) = (model.clone(), trace.clone());
                            let name = bundle.with_value(|b| b.body.display_name(&model).to_owned());
                            let open = {
                                let (corpus, model, trace) = (corpus.clone(), model.clone(), trace.clone());
                                move |_| state.push(|s| s.open_cell(&corpus, &model, &trace, "failures"))
                            };
                            view! {
                                <div class="fail-row" role="row" aria-rowindex=(i + 2).to_string() data-index=i data-trace=trace_attr
                                    data-model=model_attr style=format!("height:{ROW_HEIGHT}px")>
                                    <span role="cell" title=model.clone()>{name}</span>
                                    <span role="cell"><button type="button" class="open" on:click=open
                                        aria-label=format!("open trajectory {trace}")>{trace.clone()}</button></span>
                                    <span role="cell" class="question" title=q.clone()>{truncate_chars(&q, QUESTION_CHARS)}</span>
                                    <span role="cell">{sub}</span><span role="cell">{conf}</span><span role="cell">{cdf}</span><span role="cell">{rule}</span>
                                </div>
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
