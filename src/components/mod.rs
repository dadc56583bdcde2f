//! Reusable widgets taking plain data or signals; no fetching.

pub mod caption;
pub mod chart_canvas;
pub mod copy_link;
pub mod error_panel;
pub mod export_buttons;
pub mod hash_notice;
pub mod import_warnings;
pub mod metric;
pub mod tab_bar;

pub use caption::{BundleInfo, caption};
pub use chart_canvas::{AnyChart, ChartCanvas};
pub use copy_link::CopyLink;
pub use error_panel::ErrorPanel;
pub use export_buttons::ExportButtons;
pub use hash_notice::{HashNotice, hash_disagrees};
pub use import_warnings::ImportWarnings;
pub use metric::MetricValue;
pub use tab_bar::TabBar;
