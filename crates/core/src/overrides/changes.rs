//! The "what changed" summary of a re-labelling: count differences per sub-mode, family and
//! FM crosswalk bucket (the counts of [`crate::metrics::failures`]).

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::bundle::FailureLabel;
use crate::metrics::failures::{FailureCounts, count_failures};

/// One count that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountChange {
    /// Sub-mode, family or bucket label.
    pub key: String,
    /// Count before.
    pub before: usize,
    /// Count after.
    pub after: usize,
}

/// Count differences between two label sets (only keys whose count changed, in the
/// taxonomy order of [`FailureCounts`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WhatChanged {
    /// Cells whose label differs (changed, added or removed).
    pub labels_changed: usize,
    /// Sub-mode counts that changed.
    pub sub_mode: Vec<CountChange>,
    /// Family counts that changed.
    pub family: Vec<CountChange>,
    /// FM crosswalk bucket counts that changed.
    pub fm_bucket: Vec<CountChange>,
}

/// Compares two label sets of one corpus (before and after re-labelling).
///
/// Example: one `wrong_join` re-labelled `correct_but_judged_fail` → sub-mode `wrong_join`
/// 1 → 0 and `correct_but_judged_fail` 0 → 1; family `query_construction` 1 → 0 and
/// `grading` 0 → 1; bucket `FM4 wrong impl` 1 → 0 and `not a model failure` 0 → 1.
pub fn what_changed(before: &[FailureLabel], after: &[FailureLabel]) -> WhatChanged {
    let (old, new) = (by_key(before), by_key(after));
    let changed = new.iter().filter(|(k, l)| old.get(*k) != Some(*l)).count()
        + old.keys().filter(|k| !new.contains_key(*k)).count();
    from_counts(&sub_mode_counts(before), &sub_mode_counts(after), changed)
}

/// Labels by `(model, trace_id)` (a repeated key keeps its last label).
fn by_key(labels: &[FailureLabel]) -> HashMap<(&str, &str), &FailureLabel> {
    labels
        .iter()
        .map(|l| ((l.model.as_str(), l.trace_id.as_str()), l))
        .collect()
}

/// The sub-mode / family / bucket counts of a label set.
pub(crate) fn sub_mode_counts(labels: &[FailureLabel]) -> FailureCounts {
    count_failures(labels.iter().map(|l| l.sub_mode.as_deref()))
}

/// The changes between two counts, for `labels_changed` cells.
pub(crate) fn from_counts(
    b: &FailureCounts,
    a: &FailureCounts,
    labels_changed: usize,
) -> WhatChanged {
    WhatChanged {
        labels_changed,
        sub_mode: diff_counts(&b.sub_mode, &a.sub_mode),
        family: diff_counts(&b.family, &a.family),
        fm_bucket: diff_counts(&b.fm_bucket, &a.fm_bucket),
    }
}

fn diff_counts(
    before: &IndexMap<String, usize>,
    after: &IndexMap<String, usize>,
) -> Vec<CountChange> {
    let keys = after
        .keys()
        .chain(before.keys().filter(|k| !after.contains_key(*k)));
    keys.filter_map(|k| {
        let (b, a) = (
            before.get(k).copied().unwrap_or(0),
            after.get(k).copied().unwrap_or(0),
        );
        (b != a).then(|| CountChange {
            key: k.clone(),
            before: b,
            after: a,
        })
    })
    .collect()
}

impl WhatChanged {
    /// The one-line summary, e.g. `1 label changed; sub-mode: wrong_join 1→0,
    /// correct_but_judged_fail 0→1; family: …; FM bucket: …` (`no label changed` when empty).
    pub fn summary_line(&self) -> String {
        if self.labels_changed == 0 {
            return "no label changed".into();
        }
        let plural = if self.labels_changed == 1 { "" } else { "s" };
        let mut parts = vec![format!("{} label{plural} changed", self.labels_changed)];
        for (name, list) in [
            ("sub-mode", &self.sub_mode),
            ("family", &self.family),
            ("FM bucket", &self.fm_bucket),
        ] {
            if !list.is_empty() {
                let items: Vec<String> = list
                    .iter()
                    .map(|c| format!("{} {}→{}", c.key, c.before, c.after))
                    .collect();
                parts.push(format!("{name}: {}", items.join(", ")));
            }
        }
        parts.join("; ")
    }
}
