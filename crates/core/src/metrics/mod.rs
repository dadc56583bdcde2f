//! Metrics and statistics: every number the dashboard shows, computed from raw per-row data.
//!
//! Definitions follow harness-formats.md (ClickHouse/data-agent-mnist) exactly; each
//! function documents its definition, conventions and an example. Kernels take plain
//! slices and sets; bundle-level functions map the run bundle onto them. Everything here is
//! deterministic and gives identical results natively and on wasm32.

pub mod board_run;
pub mod bootstrap;
pub mod cell_facts;
pub mod compare;
pub mod compare_failures;
pub mod compare_flips;
pub mod compare_ranking;
pub mod confidence;
pub mod curves;
pub mod error;
pub mod failures;
pub mod failures_view;
pub mod fm_shares;
pub mod gate;
pub mod gate_preview;
pub mod gate_view;
pub mod gold_tables;
pub mod leaderboard;
pub mod matrix_view;
pub mod paired;
pub mod pass_at_budget;
pub mod question_rows;
pub mod ranking;
pub mod ranking_metrics;
pub mod ranking_view;
pub mod report;
pub mod report_board;
pub mod report_failures;
pub mod report_options;
pub mod report_retrieval;
pub mod row_gold;
pub mod rule_checks;
pub mod run_scores;
pub mod statement_parses;
pub mod stats;
pub mod stepwise;
pub mod taxonomy;

pub use error::MetricsError;
pub use gold_tables::GoldRule;
pub use report::{MetricsReport, ReportOptions, metrics_report};
pub use stepwise::Stepwise;
