//! Which rows of a long list with fixed-height rows to render for a scroll offset: the
//! visible ones plus a margin above and below; spacers of the right height stand in for the
//! rest, so the scroll bar is that of the whole list.

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
