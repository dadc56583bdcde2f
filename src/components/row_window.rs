//! Which rows of a long list with fixed-height rows to render for a scroll offset: the
//! visible ones plus a margin above and below; spacers of the right height stand in for the
//! rest, so the scroll bar is that of the whole list. [`ScrollBox`] tracks the box's scroll
//! offset. Used by the failure list, the audit queue and the ranking's question table.

use leptos::html::Div;
use leptos::prelude::*;

/// Geometry of a virtualised list, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowWindow {
    /// Height of every row.
    pub row_height: usize,
    /// Height of the scroll box.
    pub view_height: usize,
    /// Rows rendered beyond each edge of the box.
    pub margin: usize,
}

impl RowWindow {
    /// The rows `[start, end)` to render at scroll offset `top` out of `n`.
    ///
    /// Example: rows of 30 px in a 450 px box with a margin of 5, at `top` = 300 (row 10 at
    /// the top edge): rows 5..31 (10 − 5 to 10 + 15 + 1 + 5) of 1,000.
    pub fn range(&self, top: usize, n: usize) -> (usize, usize) {
        let first = top / self.row_height.max(1);
        let start = first.saturating_sub(self.margin).min(n);
        let end = (first + self.view_height / self.row_height.max(1) + 1 + self.margin).min(n);
        (start, end.max(start))
    }

    /// Heights of the spacers above and below the rendered rows `[start, end)` of `n`.
    pub fn spacers(&self, start: usize, end: usize, n: usize) -> (usize, usize) {
        (
            start * self.row_height,
            n.saturating_sub(end) * self.row_height,
        )
    }
}

/// The scroll offset of a virtualised list's box, as a signal the rendered window follows.
#[derive(Debug, Clone, Copy)]
pub struct ScrollBox {
    /// The scroll box (put on its element with `node_ref`).
    pub node: NodeRef<Div>,
    top: RwSignal<usize>,
}

impl ScrollBox {
    /// A box at the top.
    pub fn new() -> Self {
        ScrollBox {
            node: NodeRef::new(),
            top: RwSignal::new(0),
        }
    }

    /// The scroll offset, px (tracked).
    pub fn top(&self) -> usize {
        self.top.get()
    }

    /// Reads the offset from the element (its `on:scroll` handler).
    pub fn on_scroll(self) -> impl Fn(web_sys::Event) + Copy + 'static {
        move |_| {
            if let Some(el) = self.node.get_untracked() {
                self.top.set(el.scroll_top().max(0) as usize);
            }
        }
    }

    /// Scrolls to `px` from the top and records it.
    pub fn scroll_to(&self, px: usize) {
        if let Some(el) = self.node.get_untracked() {
            el.set_scroll_top(i32::try_from(px).unwrap_or(i32::MAX));
            self.top.set(el.scroll_top().max(0) as usize);
        } else {
            self.top.set(px);
        }
    }

    /// Back to the top whenever what `track` reads changes (other filters or another sort),
    /// but not on mount: the box starts at the top, and setting `scrollTop` there would force
    /// a layout of the whole page in the mounting task.
    pub fn reset_on_change(self, track: impl Fn() + 'static) {
        Effect::new(move |mounted: Option<()>| {
            track();
            if mounted.is_some() {
                self.top.set(0);
                if let Some(el) = self.node.get_untracked() {
                    el.set_scroll_top(0);
                }
            }
        });
    }
}

impl Default for ScrollBox {
    fn default() -> Self {
        Self::new()
    }
}
