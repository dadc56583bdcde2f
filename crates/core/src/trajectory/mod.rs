//! Pure support for the trajectory viewer (one model × one question): SQL highlighting and
//! layout,
//! the tables each statement reads, `sql_results` as tables, the gold/candidate diff, the
//! lists `j` / `k` walk, and the view's answers (the open cell and its place in its list).

pub mod diff;
pub mod highlight;
pub mod pretty;
pub mod result_view;
pub mod steps;
pub mod tables;
pub mod view;
#[cfg(test)]
mod view_tests;
pub mod walk;

pub use diff::{DiffLine, DiffTag, sql_diff, sql_diff_statements};
pub use highlight::{HighlightSpan, SpanKind, sql_highlight};
pub use pretty::sql_pretty;
pub use result_view::{ResultView, result_table};
pub use steps::{Step, run_steps};
pub use tables::{StatementTables, TableMark, gold_set, statement_tables};
pub use view::{
    Choice, ChoicesQuery, OpenedCell, TrajectoryAnswer, TrajectoryAnswerer, TrajectoryQuery,
    choices,
};
pub use walk::{CellId, FailuresScope, WalkFrom, WalkPlace, list_label, resolve_corpus, walk_list};
