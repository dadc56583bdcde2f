//! The matrix grid, virtualised on both axes: one scroll box; only the rows and columns in
//! view (plus a margin) exist, spacers keep the scroll extent of the whole matrix; the
//! header row and the question column stay in place (CSS `sticky`). Rows are asked for in
//! blocks ([`RowBlocks`]) as they scroll into view. A click on a cell, or Enter on the
//! keyboard cursor (arrow keys, once the grid has the focus), opens that trajectory.

use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::metrics::matrix_view::{Mark, MatrixAnswer, MatrixQuery, MatrixRow};

use super::marks::symbol;
use crate::components::RowWindow;
use crate::derived::answers::{ViewQuery, ask};
use crate::derived::row_blocks::RowBlocks;
use crate::state::UrlState;

/// Height of a row, px.
const ROW_HEIGHT: usize = 28;
/// Width of a model's column, px.
const CELL_WIDTH: usize = 28;
/// Height of the header row (model names, written upwards), px.
const HEAD_HEIGHT: usize = 136;
/// Height of the scroll box, px.
const BOX_HEIGHT: usize = 560;
/// Rows asked for at once.
const BLOCK: usize = 64;
/// Columns rendered beyond each edge of the box.
const COLUMN_MARGIN: usize = 4;

/// Rows in view for a scroll offset (the header row covers the top of the box).
const ROWS: RowWindow = RowWindow {
    row_height: ROW_HEIGHT,
    view_height: BOX_HEIGHT - HEAD_HEIGHT,
    margin: 8,
};

/// Width of the question column for a box `width` px wide holding `n` model columns: 132 px
/// on a phone; else the room the model columns leave, 320–720 px (a wide screen shows more of
/// each question; many models keep 320 px and scroll sideways).
///
/// Example: 20 models (560 px) in a 1,000 px box: 438 px; in 1,392 px: 720 px; 60 models: 320.
pub fn question_width(width: usize, n: usize) -> usize {
    if width < 640 {
        132
    } else {
        width.saturating_sub(n * CELL_WIDTH + 2).clamp(320, 720)
    }
}

/// The columns `[start, end)` of `n` in view at scroll offset `left` in a box `width` px
/// wide whose first `question` px hide under the question column.
///
/// Example: 28 px columns, a 1,000 px box, a 320 px question column, `left` = 560 (column
/// 20 at the column's edge): columns 16..49 (20 − 4 to 20 + 24 + 1 + 4) of 60.
pub fn column_range(left: usize, width: usize, question: usize, n: usize) -> (usize, usize) {
    let first = left / CELL_WIDTH;
    let visible = width.saturating_sub(question) / CELL_WIDTH;
    let start = first.saturating_sub(COLUMN_MARGIN).min(n);
    let end = (first + visible + 1 + COLUMN_MARGIN).min(n);
    (start, end.max(start))
}

/// The grid of `answer`'s columns and `query`'s rows.
#[component]
pub fn MatrixGrid(
    /// The loaded bundle (whose owner answers).
    bundle: Arc<Bundle>,
    /// The view's question.
    query: Memo<MatrixQuery>,
    /// Its answer: the columns and the number of rows.
    answer: MatrixAnswer,
) -> impl IntoView {
    let state = UrlState::use_context();
    let node = NodeRef::<Div>::new();
    // Scroll offsets and the box's width, read from the box when it scrolls or mounts.
    let top = RwSignal::new(0usize);
    let left = RwSignal::new(0usize);
    let width = RwSignal::new(1_000usize);
    let measure = move || {
        if let Some(el) = node.get_untracked() {
            top.set(el.scroll_top().max(0) as usize);
            left.set(el.scroll_left().max(0) as usize);
            width.set(el.client_width().max(0) as usize);
        }
    };
    node.on_load(move |_| measure());
    let n_rows = answer.rows;
    let models = Arc::new(answer.models.clone());
    let n_cols = models.len();
    let corpus = answer.corpus.clone().unwrap_or_default();
    let qwidth = Memo::new(move |_| question_width(width.get(), n_cols));
    let rows_in_view = Memo::new(move |_| ROWS.range(top.get(), n_rows));
    let cols_in_view =
        Memo::new(move |_| column_range(left.get(), width.get(), qwidth.get(), n_cols));
    let b = bundle.clone();
    let blocks = RowBlocks::new(query, rows_in_view, BLOCK, None, move |q, start, end| {
        let b = b.clone();
        Box::pin(async move {
            ask::<Vec<MatrixRow>>(
                &b,
                ViewQuery::MatrixPage {
                    query: q,
                    start,
                    end,
                },
            )
            .await
            .map_err(|e| e.to_string())
        })
    });
    // The keyboard cursor: row and column, moved by the arrow keys.
    let cursor = RwSignal::new(None::<(usize, usize)>);
    // Another question starts at the top left, without a cursor.
    Effect::new(move |mounted: Option<()>| {
        query.track();
        if mounted.is_some() {
            cursor.set(None);
            if let Some(el) = node.get_untracked() {
                el.set_scroll_top(0);
                el.set_scroll_left(0);
            }
            top.set(0);
            left.set(0);
        }
    });
    let open = {
        let corpus = corpus.clone();
        move |model: String, trace: String| {
            let corpus = corpus.clone();
            state.push(move |s| s.open_cell(&corpus, &model, &trace, "question"));
        }
    };
    let keydown = {
        let (models, open) = (models.clone(), open.clone());
        move |ev: leptos::ev::KeyboardEvent| {
            if n_rows == 0 || n_cols == 0 {
                return;
            }
            let (r, c) = cursor.get_untracked().unwrap_or((0, 0));
            let moved = match ev.key().as_str() {
                "ArrowDown" => (r + 1).min(n_rows - 1),
                "ArrowUp" => r.saturating_sub(1),
                "PageDown" => (r + ROWS.view_height / ROW_HEIGHT).min(n_rows - 1),
                "PageUp" => r.saturating_sub(ROWS.view_height / ROW_HEIGHT),
                "ArrowRight" | "ArrowLeft" | "Home" | "End" => r,
                "Enter" => {
                    let trace = blocks.row(r).map(|row| row.trace_id.clone());
                    if let (Some(trace), Some((model, _))) = (trace, models.get(c)) {
                        ev.prevent_default();
                        open(model.clone(), trace);
                    }
                    return;
                }
                _ => return,
            };
            let col = match ev.key().as_str() {
                "ArrowRight" => (c + 1).min(n_cols - 1),
                "ArrowLeft" => c.saturating_sub(1),
                "Home" => 0,
                "End" => n_cols - 1,
                _ => c,
            };
            ev.prevent_default();
            cursor.set(Some((moved, col)));
            scroll_into_view(node, moved, col, qwidth.get_untracked());
            measure();
        }
    };
    let head = {
        let models = models.clone();
        move || {
            let (start, end) = cols_in_view.get();
            let q = qwidth.get();
            let cells = models[start..end]
                .iter()
                .enumerate()
                .map(|(i, (key, name))| {
                    view! {
                        <div class="mx-col" role="columnheader" aria-colindex=(start + i + 2).to_string()
                            title=key.clone() data-model=key.clone()>
                            <span>{name.clone()}</span>
                        </div>
                    }
                })
                .collect_view();
            view! {
                <div class="mx-head" role="row" aria-rowindex="1" style=format!("height:{HEAD_HEIGHT}px")>
                    <div class="mx-q mx-corner" role="columnheader" aria-colindex="1" style=format!("flex-basis:{q}px")>"question"</div>
                    <div class="mx-gap" role="none" style=format!("flex-basis:{}px", start * CELL_WIDTH)></div>
                    {cells}
                </div>
            }
        }
    };
    let body = move || {
        let (start, end) = rows_in_view.get();
        let (c0, c1) = cols_in_view.get();
        let (above, below) = ROWS.spacers(start, end, n_rows);
        let q = qwidth.get();
        let at = cursor.get();
        let rows = (start..end).map(|i| (i, blocks.row(i))).collect::<Vec<_>>();
        let rows = rows.into_iter().map(|(i, row)| {
            let Some(row) = row else {
                return view! {
                    <div class="mx-row pending" role="row" aria-rowindex=(i + 2).to_string() aria-busy="true"
                        style=format!("height:{ROW_HEIGHT}px")></div>
                }
                .into_any();
            };
            let cells = (c0..c1)
                .map(|c| {
                    let mark = row.mark(c);
                    let (key, name) = models[c].clone();
                    let sub = row.sub_mode(c).map(str::to_owned);
                    let title = match &sub {
                        Some(s) => format!("{name} · {}: {} · {s}", row.trace_id, mark.label()),
                        None => format!("{name} · {}: {}", row.trace_id, mark.label()),
                    };
                    let here = at == Some((i, c));
                    let trace = row.trace_id.clone();
                    let on_open = {
                        let (open, key, trace) = (open.clone(), key.clone(), trace.clone());
                        move |_| {
                            cursor.set(Some((i, c)));
                            open(key.clone(), trace.clone());
                        }
                    };
                    view! {
                        <button type="button" class="mx-cell" class:cursor=here role="gridcell" tabindex="-1"
                            aria-colindex=(c + 2).to_string() aria-selected=here.to_string()
                            data-outcome=mark.key() data-trajectory=format!("{key}/{trace}")
                            data-sub-mode=sub title=title.clone() disabled=mark == Mark::Missing aria-label=title on:click=on_open>
                            {symbol(mark)}
                        </button>
                    }
                })
                .collect_view();
            view! {
                <div class="mx-row" role="row" aria-rowindex=(i + 2).to_string() data-trace=row.trace_id.clone()
                    style=format!("height:{ROW_HEIGHT}px")>
                    <div class="mx-q" role="rowheader" aria-colindex="1"
                        title=format!("{}: {}", row.trace_id, row.question) style=format!("flex-basis:{q}px")>
                        {if row.question.is_empty() { row.trace_id.clone() } else { row.question.clone() }}
                    </div>
                    <div class="mx-gap" role="none" style=format!("flex-basis:{}px", c0 * CELL_WIDTH)></div>
                    {cells}
                </div>
            }
            .into_any()
        });
        view! {
            <div class="spacer" role="none" style=format!("height:{above}px")></div>
            {rows.collect_view()}
            <div class="spacer" role="none" style=format!("height:{below}px")></div>
        }
    };
    let inner_width = move || qwidth.get() + n_cols * CELL_WIDTH;
    view! {
        <div class="mx-scroll" node_ref=node tabindex="0" role="grid" data-testid="matrix-grid"
            aria-label="Questions × models: arrow keys move, Enter opens the trajectory"
            aria-rowcount=(n_rows + 1).to_string() aria-colcount=(n_cols + 1).to_string()
            style=format!("height:{BOX_HEIGHT}px;overflow:auto;position:relative;overflow-anchor:none")
            on:scroll=move |_| measure() on:keydown=keydown>
            <div class="mx-inner" style=move || format!("width:{}px", inner_width())>
                {head}
                {body}
            </div>
        </div>
    }
}

/// Scrolls the box so that row `r`, column `c` is in view (below the header, right of the
/// question column).
fn scroll_into_view(node: NodeRef<Div>, r: usize, c: usize, question: usize) {
    let Some(el) = node.get_untracked() else {
        return;
    };
    let (top, left) = (
        el.scroll_top().max(0) as usize,
        el.scroll_left().max(0) as usize,
    );
    let rows_h = ROWS.view_height;
    let y = r * ROW_HEIGHT;
    if y < top {
        el.set_scroll_top(y as i32);
    } else if y + ROW_HEIGHT > top + rows_h {
        el.set_scroll_top((y + ROW_HEIGHT - rows_h) as i32);
    }
    let cols_w = (el.client_width().max(0) as usize).saturating_sub(question);
    let x = c * CELL_WIDTH;
    if x < left {
        el.set_scroll_left(x as i32);
    } else if x + CELL_WIDTH > left + cols_w {
        el.set_scroll_left((x + CELL_WIDTH - cols_w) as i32);
    }
}
