//! The judge audit queue (Dashboard II): failures the labeller thinks were graded wrongly,
//! and the reviewer's decisions on them, with JSON and CSV export/import.

mod error;
mod files;
mod log;
mod queue;

pub use error::FormatError;
pub(crate) use error::{Errors, describe, first_error_line, string_field};
pub use files::{AUDIT_FORMAT, CSV_HEADER};
pub use log::{AuditCounts, AuditDecision, AuditLog, Verdict};
pub use queue::{AuditItem, audit_key, audit_queue};

#[cfg(test)]
mod tests;
