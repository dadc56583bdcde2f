//! Label overrides (issue 7, "Apply"): re-labelled failures with provenance, an overrides
//! file that loads on top of a bundle, and the "what changed" summary.

mod apply;
mod file;

pub use apply::{
    AppliedSummary, ApplyError, CountChange, WhatChanged, apply_overrides, what_changed,
};
pub use file::{LabelOverride, OVERRIDES_FORMAT, OverridesFile, request_hash};

#[cfg(test)]
mod tests;
