//! The queue's entries (core's [`AuditEntry`]: the data's owner answers the queue) and the
//! decision counts over them.

pub use runlens_core::audit::AuditEntry as Entry;
use runlens_core::audit::{AuditCounts, AuditLog};

/// Decision counts over the queue's items only (decisions on items outside the current
/// queue are kept but not counted here).
pub fn queue_counts(queue: &[Entry], log: &AuditLog) -> AuditCounts {
    let mut sub = AuditLog::new();
    for e in queue {
        if let Some(d) = log.get(&e.item.key) {
            sub.record(d.clone());
        }
    }
    sub.counts()
}
