//! runlens-charts: every chart of the dashboard as a plain function generic over plotters'
//! [`DrawingBackend`](plotters::prelude::DrawingBackend).
//!
//! The app draws these functions on a `<canvas>` (plotters-canvas); the tests and the SVG export
//! ([`render_svg`]) draw the very same functions to `SVGBackend`. Nothing here knows about Leptos, the DOM or how
//! the numbers were computed: callers pass finished data (computed by `runlens-core`).

mod alt;
mod any;
mod ci_bars;
mod curves;
mod forest;
mod frame;
mod hbars;
mod heatmap;
mod histogram;
mod hit;
mod k_star;
mod probability;
mod read_out;
mod stacked;
mod text;
mod theme;
mod title;
mod trend;
mod turn_tokens;

pub use any::{AnyChart, AnyLayout, CAPTION_HEIGHT, CAPTION_LINE, SvgError, draw_any, render_svg};
pub use ci_bars::{BarLayout, CiBar, CiBarChart, draw_ci_bars};
pub use curves::{CurveChart, CurveLayout, Marker, Series, draw_curves};
pub use forest::{DOT_RADIUS, ForestChart, ForestLayout, ForestRow, draw_forest};
pub use frame::RowsLayout;
pub use hbars::{HBar, HBarChart, draw_hbars};
pub use heatmap::{HeatmapChart, draw_heatmap, yl_or_br};
pub use histogram::{HistogramChart, Threshold, draw_histogram};
pub use hit::{HitBox, HitLayout, hex_color};
pub use k_star::{KStarChart, KStarLayout, NOT_FOUND_LABEL, draw_k_star_histogram};
pub use probability::{
    GOLD_MARK, ProbabilityBar, ProbabilityChart, ProbabilityLayout, TITLE_CHARS,
    draw_probability_bars,
};
pub use stacked::{LEGEND_BAND, StackRow, StackedChart, draw_stacked};
pub use text::{format_threshold, truncate_chars, wrap_words};
pub use theme::{Palette, Theme};
pub use trend::{
    RUN_LABEL_CHARS, TREND_LEGEND_MAX, TrendChart, TrendLayout, TrendSeries, TrendValue, draw_trend,
};
pub use turn_tokens::{
    INPUT_COLOUR, OUTPUT_COLOUR, TurnTokens, TurnTokensChart, TurnTokensLayout, draw_turn_tokens,
};

/// Every font the charts draw text in, as `(family, size in px)`: the app draws a line in each
/// while the page waits for a bundle, because a canvas's first text in a font is slow
/// (Chromium sets up the font then), which otherwise lands in the task drawing the first chart.
pub const FONTS: &[(&str, u32)] = &[
    ("sans-serif", 11),
    ("sans-serif", 12),
    ("sans-serif", 13),
    ("sans-serif", 15),
    ("sans-serif", 16),
    ("sans-serif", 17),
    ("sans-serif", 18),
];

/// The error type of every drawing function: plotters' drawing-area error for backend `DB`.
pub type ChartError<DB> =
    plotters::drawing::DrawingAreaErrorKind<<DB as plotters::prelude::DrawingBackend>::ErrorType>;
