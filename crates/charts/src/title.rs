//! Chart titles that wrap onto more lines instead of running off the canvas: plotters'
//! own caption is one line, cut by the canvas edge when the title is longer than the chart
//! is wide (a 390 px screen, a long corpus name).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::ChartError;
use crate::text::wrap_words;

/// Draws `title` centred at the top of `area`, inside the chart's `margin` (px, what the
/// chart gives `ChartBuilder::margin`), in as many lines as the width needs (measured by the
/// backend), and returns the area below it at full width. Build the chart on it with
/// `margin` on every side but the top: one line then sits exactly where plotters' own
/// caption put it.
pub fn titled<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    style: &TextStyle,
    margin: u32,
) -> Result<DrawingArea<DB, Shift>, ChartError<DB>> {
    let (w, h) = area.dim_in_pixel();
    let width = w.saturating_sub(2 * margin);
    let fits = |s: &str| {
        area.estimate_text_size(s, style)
            .map_or(true, |(tw, _)| tw <= width)
    };
    let mut below = area.margin(margin, 0, margin, margin);
    for line in wrap_words(title, fits) {
        below = below.titled(&line, style.clone())?;
    }
    let used = (h as i32 - below.dim_in_pixel().1 as i32).max(0) as u32;
    Ok(area.split_vertically(used.min(h)).1)
}
