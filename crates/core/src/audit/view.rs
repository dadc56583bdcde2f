//! What the audit view shows, computed where the bundle lives (the dashboard's loader
//! worker): the queue across corpora for a threshold, a corpus and a model selection, with
//! the reader's re-labels in force. The reviewer's decisions stay with the page.

use serde::{Deserialize, Serialize};

use super::queue::{AuditItem, audit_queue_of};
use crate::bundle::BundleBody;
use crate::metrics::failures_view::Labelled;
use crate::overrides::{Relabel, RelabelledLabels};

/// One queue item with its corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// Corpus name.
    pub corpus: String,
    /// The item (key `"<model>/<trace_id>"`).
    pub item: AuditItem,
}

/// Items of `corpus` (every corpus for `None` or an unknown name) with
/// `correct_despite_fail ≥ threshold` whose model passes `shows_model`, with the labels in
/// force of `b`; sorted by `correct_despite_fail` descending, then model, trace id and
/// corpus.
pub fn audit_entries(
    b: Labelled<'_>,
    corpus: Option<&str>,
    threshold: f64,
    shows_model: impl Fn(&str) -> bool,
) -> Vec<AuditEntry> {
    let corpora = &b.body.corpora;
    let known = corpus.filter(|c| corpora.iter().any(|k| k.name == *c));
    let mut out: Vec<AuditEntry> = corpora
        .iter()
        .enumerate()
        .filter(|(_, c)| known.is_none_or(|k| k == c.name))
        .flat_map(|(i, c)| {
            audit_queue_of(c, b.labels(i), threshold)
                .into_iter()
                .map(move |item| AuditEntry {
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

/// What the view asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditQuery {
    /// One corpus, or every one (`None`, or a name the bundle lacks).
    pub corpus: Option<String>,
    /// The `correct_despite_fail` threshold (`ct`).
    pub threshold: f64,
    /// Model keys shown (empty: all).
    pub models: Vec<String>,
    /// Re-labels in force, in the order applied.
    pub relabels: Vec<Relabel>,
}

/// The answer to an [`AuditQuery`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AuditAnswer {
    /// Corpora with failure labels (re-labels counted), in bundle order.
    pub corpora: Vec<String>,
    /// The queue. The votes' reasoning is left out (the item's cell, asked for when it is
    /// shown, has it): a long queue's answer stays small.
    pub entries: Vec<AuditEntry>,
}

/// Answers audit queries on one bundle, keeping the labels per set of re-labels. Make a new
/// one for another bundle.
#[derive(Debug, Default)]
pub struct AuditAnswerer {
    relabelled: RelabelledLabels,
}

impl AuditAnswerer {
    /// The answer to `q`.
    pub fn answer(&mut self, body: &BundleBody, q: &AuditQuery) -> AuditAnswer {
        self.relabelled.put(body, &q.relabels);
        let b = Labelled::with(body, self.relabelled.labels());
        let shows = |m: &str| q.models.is_empty() || q.models.iter().any(|x| x == m);
        let mut entries = audit_entries(b, q.corpus.as_deref(), q.threshold, shows);
        for e in &mut entries {
            for v in &mut e.item.votes {
                v.reasoning = None;
            }
        }
        AuditAnswer {
            corpora: b.corpora_with_labels(),
            entries,
        }
    }
}
