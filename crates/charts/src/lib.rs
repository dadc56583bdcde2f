//! runlens-charts: every chart of the dashboard as a plain function generic over plotters'
//! [`DrawingBackend`](plotters::prelude::DrawingBackend).
//!
//! The app draws these functions on a `<canvas>` (plotters-canvas); the tests and the SVG export
//! draw the very same functions to `SVGBackend`. Nothing here knows about Leptos, the DOM or how
//! the numbers were computed: callers pass finished data (computed by `runlens-core`).

mod ci_bars;
mod curves;
mod theme;

pub use ci_bars::{BarLayout, CiBar, CiBarChart, draw_ci_bars};
pub use curves::{CurveChart, CurveLayout, Marker, Series, draw_curves};
pub use theme::{Palette, Theme};

/// The error type of every drawing function: plotters' drawing-area error for backend `DB`.
pub type ChartError<DB> =
    plotters::drawing::DrawingAreaErrorKind<<DB as plotters::prelude::DrawingBackend>::ErrorType>;
