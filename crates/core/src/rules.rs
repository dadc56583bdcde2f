//! The harness's rules config (`config/rules.example.yaml`, harness-formats.md §7.7).
//!
//! Semantic rules are judgment calls offered to Jev; decidable rules are checked in code.
//! Parsing and the mechanical checks live here so the importer, the metrics and the
//! re-label feature share one definition.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A parsed rules config, in config order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct RulesConfig {
    /// Semantic rule key → one-line description, in config order.
    pub semantic_rules: IndexMap<String, String>,
    /// Decidable rule key → rule, in config order.
    pub decidable_rules: IndexMap<String, DecidableRule>,
}

/// One decidable (code-checked) rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecidableRule {
    /// Human description (may be absent; display falls back to the key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The rule kind and its regexes.
    #[serde(flatten)]
    pub kind: RuleKind,
}

/// The two kinds of decidable rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RuleKind {
    /// `violation` if `forbidden_regex` matches; else `ok` if `ok_regex` matches; else `n/a`.
    ForbiddenWhen {
        /// Pattern whose presence is a violation.
        forbidden_regex: String,
        /// Optional pattern whose presence is compliance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ok_regex: Option<String>,
    },
    /// Applies when `applies_regex` matches; then `required_regex` must match.
    RequiredWhen {
        /// Pattern that makes the rule apply.
        applies_regex: String,
        /// Pattern required where the rule applies.
        required_regex: String,
        /// Per statement (default) or anywhere in the trajectory.
        #[serde(default)]
        scope: Scope,
    },
}

/// Scope of a `required_when` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Every statement that matches `applies_regex` must match `required_regex`.
    #[default]
    PerStatement,
    /// Any statement matching `required_regex` satisfies the rule.
    Global,
}
