//! Label overrides (issue 7, "Apply"): re-labelled failures with provenance, an overrides
//! file that loads on top of a bundle, and the "what changed" summary.

mod apply;
mod changes;
mod file;
mod relabel;

pub use apply::{
    AppliedSummary, ApplyError, Relabel, RelabelledLabels, apply_overrides, relabelled,
    what_changed_between,
};
pub use changes::{CountChange, WhatChanged, what_changed};
pub use file::{LabelOverride, OVERRIDES_FORMAT, OverridesFile, request_hash};
pub use relabel::label_from_answers;

#[cfg(test)]
mod tests;
