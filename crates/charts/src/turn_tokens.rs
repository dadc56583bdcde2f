//! Tokens per model call of one trajectory (`usage.per_turn`): one stacked column per call,
//! input tokens (prompt + cache read + cache write) below, output tokens (completion,
//! reasoning included) on top.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::title::titled;
use crate::{ChartError, Theme};

/// Colour of the input part (Okabe-Ito sky blue).
pub const INPUT_COLOUR: RGBColor = RGBColor(0x56, 0xb4, 0xe9);
/// Colour of the output part (Okabe-Ito orange).
pub const OUTPUT_COLOUR: RGBColor = RGBColor(0xe6, 0x9f, 0x00);

/// One model call's tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnTokens {
    /// Prompt + cache read + cache write tokens.
    pub input: u64,
    /// Completion tokens (reasoning included).
    pub output: u64,
}

impl TurnTokens {
    /// From a harness `per_turn` entry `[prompt, completion, reasoning, cache_read,
    /// cache_write]` (reasoning is inside completion, so it is not added).
    pub fn from_per_turn(t: [u64; 5]) -> TurnTokens {
        TurnTokens {
            input: t[0].saturating_add(t[3]).saturating_add(t[4]),
            output: t[1],
        }
    }
}

/// The per-call token chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnTokensChart {
    /// Title above the plot.
    pub title: String,
    /// Calls in order; column `i` is call `i + 1`.
    pub turns: Vec<TurnTokens>,
    /// Colours of background, text and grid.
    pub theme: Theme,
}

/// Pixel geometry of the drawn columns.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnTokensLayout {
    /// Per call: `(left, right)` pixel x of its column.
    pub columns_px: Vec<(i32, i32)>,
    /// Pixel y of 0 tokens and of the axis top.
    pub y_px: (i32, i32),
}

/// Draws `chart` on `area`; zero-token parts draw no rectangle.
pub fn draw_turn_tokens<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &TurnTokensChart,
) -> Result<TurnTokensLayout, ChartError<DB>> {
    let theme = chart.theme;
    let n = chart.turns.len().max(1) as f64;
    let most = chart
        .turns
        .iter()
        .map(|t| t.input.saturating_add(t.output))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let top = most * 1.1;
    area.fill(&theme.background)?;
    let label_style = ("sans-serif", 12).into_font().color(&theme.text);
    let title_style = ("sans-serif", 15).into_font().color(&theme.text);
    let plot_area = titled(area, &chart.title, &title_style, 10)?;
    let mut ctx = ChartBuilder::on(&plot_area)
        .margin(10)
        .margin_top(0)
        .x_label_area_size(30)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..n, 0.0..top)?;
    ctx.configure_mesh()
        .x_desc("model call")
        .y_desc("tokens")
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(5)
        .y_label_formatter(&|y| format!("{}", y.round() as i64))
        .label_style(label_style.clone())
        .axis_desc_style(label_style.clone())
        .axis_style(theme.text)
        .bold_line_style(theme.grid)
        .light_line_style(theme.background)
        .draw()?;
    let span = |i: usize| (i as f64 + 0.15, i as f64 + 0.85);
    for (i, t) in chart.turns.iter().enumerate() {
        let (l, r) = span(i);
        let (input, output) = (t.input as f64, t.output as f64);
        if t.input > 0 {
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(l, 0.0), (r, input)],
                INPUT_COLOUR.filled(),
            )))?;
        }
        if t.output > 0 {
            ctx.draw_series(std::iter::once(Rectangle::new(
                [(l, input), (r, input + output)],
                OUTPUT_COLOUR.filled(),
            )))?;
        }
    }
    let columns_px: Vec<(i32, i32)> = (0..chart.turns.len())
        .map(|i| {
            let (l, r) = span(i);
            (
                ctx.backend_coord(&(l, 0.0)).0,
                ctx.backend_coord(&(r, 0.0)).0,
            )
        })
        .collect();
    let y_px = (
        ctx.backend_coord(&(0.0, 0.0)).1,
        ctx.backend_coord(&(0.0, top)).1,
    );
    // Call numbers under the columns, sparse when columns are narrow.
    let below = label_style.clone().pos(Pos::new(HPos::Center, VPos::Top));
    let width = columns_px
        .first()
        .map_or(1, |&(l, r)| (r - l).max(1).unsigned_abs());
    let every = 18u32.div_ceil(width) as usize;
    for (i, &(l, r)) in columns_px.iter().enumerate() {
        if i % every == 0 {
            area.draw(&Text::new(
                (i + 1).to_string(),
                ((l + r) / 2, y_px.0 + 4),
                below.clone(),
            ))?;
        }
    }
    // Legend, top right.
    let (w, _) = area.dim_in_pixel();
    let x = w as i32 - 190;
    let left = label_style.pos(Pos::new(HPos::Left, VPos::Center));
    for (row, (colour, text)) in [(INPUT_COLOUR, "input"), (OUTPUT_COLOUR, "output")]
        .into_iter()
        .enumerate()
    {
        let y = 36 + 16 * row as i32;
        area.draw(&Rectangle::new(
            [(x, y - 5), (x + 10, y + 5)],
            colour.filled(),
        ))?;
        area.draw(&Text::new(text, (x + 14, y), left.clone()))?;
    }
    Ok(TurnTokensLayout { columns_px, y_px })
}
