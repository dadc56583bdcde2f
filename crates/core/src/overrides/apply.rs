//! Applying an overrides file to a bundle body.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::changes::{WhatChanged, from_counts, sub_mode_counts, what_changed};
use super::file::{LabelOverride, OVERRIDES_FORMAT, OverridesFile};
use crate::audit::audit_key;
use crate::bundle::{BundleBody, FailureLabel};
use crate::metrics::failures::FailureCounts;

/// Why an overrides file cannot be applied (nothing is changed then).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// `format` / `version` are not `runlens-overrides` / 1.
    #[error(
        "overrides file: expected format \"runlens-overrides\" version 1, found {format:?} version {version}"
    )]
    Format {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// An override names a corpus the bundle lacks.
    #[error("overrides[{index}] ({key}): corpus {corpus:?} is not in the bundle")]
    UnknownCorpus {
        /// 0-based override index.
        index: usize,
        /// The override key.
        key: String,
        /// The corpus named.
        corpus: String,
    },
    /// `key` is not `new.model/new.trace_id`, or `original` is for another cell.
    #[error("overrides[{index}]: key {key:?}: expected {expected:?}")]
    KeyMismatch {
        /// 0-based override index.
        index: usize,
        /// The key found.
        key: String,
        /// The key `new` (and `original`) imply.
        expected: String,
    },
}

/// What applying did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct AppliedSummary {
    /// Overrides that replaced an existing label.
    pub replaced: usize,
    /// Overrides for cells that had no label (appended).
    pub inserted: usize,
    /// Overrides whose label was already in place (applying twice changes nothing).
    pub unchanged: usize,
    /// Keys whose label before applying equalled neither `original` nor `new` (applied
    /// anyway; the bundle's labels differ from the ones the override was made on).
    pub stale: Vec<String>,
    /// Per corpus touched, the count differences.
    pub changes: IndexMap<String, WhatChanged>,
}

/// Replaces failure labels by the overrides, in file order. Checks every override first
/// and changes nothing on error. Does not check `bundle_hash` (the caller compares it with
/// the bundle's stored `content_hash` via [`OverridesFile::matches_bundle`]; recomputing the
/// hash of a large body is slow).
pub fn apply_overrides(
    body: &mut BundleBody,
    file: &OverridesFile,
) -> Result<AppliedSummary, ApplyError> {
    if file.format != OVERRIDES_FORMAT || file.version != 1 {
        return Err(ApplyError::Format {
            format: file.format.clone(),
            version: file.version,
        });
    }
    for (index, o) in file.overrides.iter().enumerate() {
        check(body, index, o)?;
    }
    let mut summary = AppliedSummary::default();
    // Per touched corpus: counts before, key → index, and each touched key's first label.
    let mut touched: IndexMap<String, Touched> = IndexMap::new();
    for o in &file.overrides {
        let Some(corpus) = body.corpora.iter_mut().find(|c| c.name == o.corpus) else {
            continue; // checked above
        };
        let t = touched
            .entry(corpus.name.clone())
            .or_insert_with(|| Touched::new(&corpus.failure_labels));
        let slot = t.index.get(&o.key).copied();
        let current = slot.and_then(|i| corpus.failure_labels.get_mut(i));
        t.first
            .entry(o.key.clone())
            .or_insert_with(|| current.as_deref().cloned());
        match current {
            Some(current) if *current == o.new => summary.unchanged += 1,
            Some(current) => {
                if o.original.as_ref() != Some(current) {
                    summary.stale.push(o.key.clone());
                }
                *current = o.new.clone();
                summary.replaced += 1;
            }
            None => {
                if o.original.is_some() {
                    summary.stale.push(o.key.clone());
                }
                t.index.insert(o.key.clone(), corpus.failure_labels.len());
                corpus.failure_labels.push(o.new.clone());
                summary.inserted += 1;
            }
        }
    }
    for (name, t) in touched {
        let Some(corpus) = body.corpus(&name) else {
            continue;
        };
        let labels = &corpus.failure_labels;
        let changed = t
            .first
            .iter()
            .filter(|(key, first)| {
                let now = t.index.get(*key).and_then(|&i| labels.get(i));
                now != first.as_ref()
            })
            .count();
        let after = sub_mode_counts(labels);
        summary
            .changes
            .insert(name, from_counts(&t.counts, &after, changed));
    }
    Ok(summary)
}

/// A re-labelled failure in force, as a view's question carries it: its corpus and the
/// label to use (an override's `corpus` and `new`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Relabel {
    /// Corpus name.
    pub corpus: String,
    /// The label in force.
    pub label: FailureLabel,
}

/// Each corpus's failure labels with a set of [`Relabel`]s in force, kept between questions
/// about one bundle: `None` for a corpus none of them touches (its own labels are in force).
#[derive(Debug, Default)]
pub struct RelabelledLabels {
    relabels: Option<Vec<Relabel>>,
    labels: Vec<Option<Vec<FailureLabel>>>,
}

impl RelabelledLabels {
    /// Puts `relabels` in force on `body`'s labels; `true` when they differ from the last
    /// ones (the labels were rebuilt).
    pub fn put(&mut self, body: &BundleBody, relabels: &[Relabel]) -> bool {
        if self.relabels.as_deref() == Some(relabels) {
            return false;
        }
        self.labels = body
            .corpora
            .iter()
            .map(|c| {
                let news: Vec<&FailureLabel> = relabels
                    .iter()
                    .filter(|r| r.corpus == c.name)
                    .map(|r| &r.label)
                    .collect();
                (!news.is_empty()).then(|| relabelled(&c.failure_labels, news))
            })
            .collect();
        self.relabels = Some(relabels.to_vec());
        true
    }

    /// Per corpus (body order), the re-labelled labels, or `None` where the corpus's own
    /// are in force.
    pub fn labels(&self) -> &[Option<Vec<FailureLabel>>] {
        &self.labels
    }
}

/// `labels` with each of `news` in force, as [`apply_overrides`] puts them: a new label
/// replaces the cell's first label (same model and trace id), or is appended when the cell
/// has none; in order, so a later label of the same cell wins.
///
/// Example: labels `[a/1, b/1]`, news `[b/1′, c/1, c/1″]` → `[a/1, b/1′, c/1″]`.
pub fn relabelled<'a>(
    labels: &[FailureLabel],
    news: impl IntoIterator<Item = &'a FailureLabel>,
) -> Vec<FailureLabel> {
    let mut out = labels.to_vec();
    let mut index: HashMap<String, usize> = HashMap::with_capacity(out.len());
    for (i, l) in out.iter().enumerate() {
        index.entry(audit_key(&l.model, &l.trace_id)).or_insert(i);
    }
    for new in news {
        match index.get(&audit_key(&new.model, &new.trace_id)) {
            Some(&i) => out[i] = new.clone(),
            None => {
                index.insert(audit_key(&new.model, &new.trace_id), out.len());
                out.push(new.clone());
            }
        }
    }
    out
}

/// What putting the new labels `after` in force instead of `before` changes in a corpus
/// whose own labels are `labels` (each set applied as [`relabelled`] applies it).
pub fn what_changed_between(
    labels: &[FailureLabel],
    before: &[FailureLabel],
    after: &[FailureLabel],
) -> WhatChanged {
    what_changed(&relabelled(labels, before), &relabelled(labels, after))
}

/// What [`apply_overrides`] remembers about a corpus it changes (no copy of all labels).
struct Touched {
    counts: FailureCounts,
    index: HashMap<String, usize>,
    first: HashMap<String, Option<FailureLabel>>,
}

impl Touched {
    fn new(labels: &[FailureLabel]) -> Touched {
        let mut index = HashMap::with_capacity(labels.len());
        for (i, l) in labels.iter().enumerate() {
            index.entry(audit_key(&l.model, &l.trace_id)).or_insert(i);
        }
        Touched {
            counts: sub_mode_counts(labels),
            index,
            first: HashMap::new(),
        }
    }
}

fn check(body: &BundleBody, index: usize, o: &LabelOverride) -> Result<(), ApplyError> {
    if body.corpus(&o.corpus).is_none() {
        return Err(ApplyError::UnknownCorpus {
            index,
            key: o.key.clone(),
            corpus: o.corpus.clone(),
        });
    }
    let expected = audit_key(&o.new.model, &o.new.trace_id);
    let original_ok = o
        .original
        .as_ref()
        .is_none_or(|l| audit_key(&l.model, &l.trace_id) == expected);
    if o.key != expected || !original_ok {
        return Err(ApplyError::KeyMismatch {
            index,
            key: o.key.clone(),
            expected,
        });
    }
    Ok(())
}
