//! The judge audit queue (Dashboard II): failures the labeller thinks were graded wrongly,
//! and the reviewer's decisions on them, with JSON and CSV export/import.

mod error;
mod files;
mod log;
mod queue;
mod view;

pub use error::FormatError;
pub(crate) use error::{Errors, describe, first_error_line, string_field};
pub use files::{AUDIT_FORMAT, CSV_HEADER};
pub use log::{AuditCounts, AuditDecision, AuditLog, Verdict};
pub use queue::{AuditItem, audit_key, audit_queue, audit_queue_of};
pub use view::{AuditAnswer, AuditAnswerer, AuditEntry, AuditQuery, audit_entries};

#[cfg(test)]
mod tests;
