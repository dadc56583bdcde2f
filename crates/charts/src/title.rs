//! Chart titles and x-axis descriptions that wrap onto more lines instead of running off the
//! canvas: plotters' own caption and axis description are one line, cut by the canvas edge
//! when the text is longer than the chart is wide (a 390 px screen, a long corpus name).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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

/// Makes room at the bottom of `area` for the x-axis description `desc` when plotters, which
/// centres it under the plot (`y_label_width` px right of the chart's `margin`), would run it
/// off the canvas; draws it there instead, centred on the chart, in as many lines as its
/// width needs, in `style`. Returns the area above it and the description plotters should
/// draw under the axis itself: `desc` when it fits there (as before), else `""`.
pub fn x_described<'a, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    desc: &'a str,
    style: &TextStyle,
    margin: u32,
    y_label_width: u32,
) -> Result<(DrawingArea<DB, Shift>, &'a str), ChartError<DB>> {
    let (w, h) = area.dim_in_pixel();
    let text_width = |s: &str| area.estimate_text_size(s, style).map_or(0, |(tw, _)| tw);
    let plot_width = w.saturating_sub(2 * margin + y_label_width);
    if text_width(desc) <= plot_width {
        return Ok((area.clone(), desc));
    }
    let width = w.saturating_sub(2 * margin);
    let lines = wrap_words(desc, |s| text_width(s) <= width);
    let line_h = area
        .estimate_text_size("Ag", style)
        .map_or(16, |(_, th)| th + 3);
    let used = (line_h * lines.len() as u32).min(h);
    let (above, below) = area.split_vertically(h - used);
    let centred = style.pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in lines.iter().enumerate() {
        below.draw_text(line, &centred, (w as i32 / 2, (i as u32 * line_h) as i32))?;
    }
    Ok((above, ""))
}

/// How many x-axis labels to ask plotters for on a plot `plot_width` px wide: about one per
/// 56 px, so a narrow chart's labels do not run together, at least `at_least`, at most 10.
pub fn x_label_count(plot_width: u32, at_least: u32) -> usize {
    (plot_width / 56).clamp(at_least, 10) as usize
}
