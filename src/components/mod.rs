//! Reusable widgets taking plain data or signals; no fetching.

pub mod bundle_loader;
pub mod chart_canvas;
pub mod error_panel;
pub mod import_warnings;
pub mod load_progress;
pub mod metric;
pub mod open_bundle;

pub use bundle_loader::{BundleLoader, RenderLoaded};
pub use chart_canvas::{AnyChart, ChartCanvas};
pub use error_panel::ErrorPanel;
pub use import_warnings::ImportWarnings;
pub use load_progress::LoadProgress;
pub use metric::MetricValue;
pub use open_bundle::OpenBundle;
