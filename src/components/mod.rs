//! Reusable widgets taking plain data or signals; no fetching.

pub mod bundle_loader;
pub mod caption;
pub mod chart_canvas;
pub mod copy_link;
pub mod error_panel;
pub mod export_buttons;
pub mod hash_notice;
pub mod import_warnings;
pub mod inline_code;
pub mod load_progress;
pub mod metric;
pub mod model_filter;
pub mod open_bundle;
pub mod page_keys;
pub mod page_nav;
pub mod row_window;
pub mod tab_bar;
pub mod text_measure;

pub use bundle_loader::{BundleLoader, RenderLoaded};
pub use caption::{BundleInfo, caption};
pub use chart_canvas::{AnyChart, ChartCanvas, drawn_scale, layout_point, render_scaled};
pub use copy_link::CopyLink;
pub use error_panel::ErrorPanel;
pub use export_buttons::ExportButtons;
pub use hash_notice::{HashNotice, WholeZipNotice, hash_disagrees, short_hash};
pub use import_warnings::ImportWarnings;
pub use load_progress::LoadProgress;
pub use metric::MetricValue;
pub use model_filter::{ModelChoice, ModelFilter};
pub use open_bundle::OpenBundle;
pub use page_nav::{NavItem, PageNav};
pub use row_window::{RowWindow, ScrollBox};
pub use tab_bar::TabBar;
