//! The queue across corpora: core's `audit_queue` per corpus, filtered by the model
//! selection, merged most likely first.

use runlens_core::audit::{AuditCounts, AuditItem, AuditLog, audit_queue};
use runlens_core::bundle::Bundle;

/// One queue item with its corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Corpus name.
    pub corpus: String,
    /// The item (key `"<model>/<trace_id>"`).
    pub item: AuditItem,
}

/// Items of `corpus` (every corpus for `None` or an unknown name) with
/// `correct_despite_fail ≥ threshold` whose model passes `shows_model`; sorted by
/// `correct_despite_fail` descending, then model, trace id and corpus.
pub fn entries(
    bundle: &Bundle,
    corpus: Option<&str>,
    threshold: f64,
    shows_model: impl Fn(&str) -> bool,
) -> Vec<Entry> {
    let corpora = &bundle.body.corpora;
    let known = corpus.filter(|c| corpora.iter().any(|k| k.name == *c));
    let mut out: Vec<Entry> = corpora
        .iter()
        .filter(|c| known.is_none_or(|k| k == c.name))
        .flat_map(|c| {
            audit_queue(c, threshold)
                .into_iter()
                .map(move |item| Entry {
                    corpus: c.name.clone(),
                    item,
                })
        })
        .filter(|e| shows_model(&e.item.model))
        .collect();
    out.sort_by(|a, b| {
        b.item
            .correct_despite_fail
            .total_cmp(&a.item.correct_despite_fail)
            .then_with(|| a.item.model.cmp(&b.item.model))
            .then_with(|| a.item.trace_id.cmp(&b.item.trace_id))
            .then_with(|| a.corpus.cmp(&b.corpus))
    });
    out
}

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
