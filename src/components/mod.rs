//! Reusable widgets taking plain data or signals; no fetching.

pub mod chart_canvas;
pub mod error_panel;
pub mod export_buttons;
pub mod import_warnings;
pub mod metric;

pub use chart_canvas::{AnyChart, ChartCanvas};
pub use error_panel::ErrorPanel;
pub use export_buttons::ExportButtons;
pub use import_warnings::ImportWarnings;
pub use metric::MetricValue;
