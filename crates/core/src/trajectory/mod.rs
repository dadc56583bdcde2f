//! Pure support for the trajectory viewer (one model × one question): SQL highlighting,
//! the tables each statement reads, `sql_results` as tables, and the gold/candidate diff.

pub mod diff;
pub mod highlight;
pub mod result_view;
pub mod steps;
pub mod tables;

pub use diff::{DiffLine, DiffTag, sql_diff, sql_diff_statements};
pub use highlight::{HighlightSpan, SpanKind, sql_highlight};
pub use result_view::{ResultView, result_table};
pub use steps::{Step, run_steps};
pub use tables::{StatementTables, TableMark, gold_set, statement_tables};
