//! The harness's mechanical rule checks (`rule_checks.py`, harness-formats §7.7).
//!
//! Verdicts are `ok`, `violation` or `n/a` (the rule did not apply — distinct from
//! compliance). All regexes are compiled once, case-insensitively, by [`CompiledRules::new`].

use indexmap::IndexMap;
use regex::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};

use super::error::MetricsError;
use crate::rules::{RuleKind, RulesConfig, Scope};

/// A decidable rule's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// `"ok"`: the rule applied and was followed.
    #[serde(rename = "ok")]
    Ok,
    /// `"violation"`: the rule applied and was broken.
    #[serde(rename = "violation")]
    Violation,
    /// `"n/a"`: the rule did not apply.
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Verdict {
    /// The harness spelling: `ok`, `violation`, `n/a`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Violation => "violation",
            Verdict::NotApplicable => "n/a",
        }
    }
}

/// The facts dict the harness sends to Jev as `mechanical_checks` and stores as `checks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MechanicalChecks {
    /// Decidable rule key → verdict, in config order.
    pub decidable: IndexMap<String, Verdict>,
    /// Number of non-blank statements.
    pub n_queries: usize,
    /// Two non-blank statements are equal after trim, lower-case and whitespace collapse.
    pub has_repeated_query: bool,
}

#[derive(Debug, Clone)]
enum CompiledRule {
    ForbiddenWhen {
        forbidden: Regex,
        ok: Option<Regex>,
    },
    RequiredWhen {
        applies: Regex,
        required: Regex,
        scope: Scope,
    },
}

/// A rules config with every decidable rule's regexes compiled.
#[derive(Debug, Clone)]
pub struct CompiledRules {
    rules: Vec<(String, CompiledRule)>,
}

fn compile(rule: &str, field: &'static str, pattern: &str) -> Result<Regex, MetricsError> {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .map_err(|e| MetricsError::InvalidRuleRegex {
            rule: rule.to_string(),
            field,
            message: e.to_string(),
        })
}

impl CompiledRules {
    /// Compiles `config`. Errors: a key in both groups, or a regex that does not compile
    /// (the error names the rule and the field).
    pub fn new(config: &RulesConfig) -> Result<Self, MetricsError> {
        if let Some(key) = config
            .decidable_rules
            .keys()
            .find(|k| config.semantic_rules.contains_key(*k))
        {
            return Err(MetricsError::DuplicateRuleKey(key.clone()));
        }
        let mut rules = Vec::with_capacity(config.decidable_rules.len());
        for (key, rule) in &config.decidable_rules {
            let compiled = match &rule.kind {
                RuleKind::ForbiddenWhen {
                    forbidden_regex,
                    ok_regex,
                } => CompiledRule::ForbiddenWhen {
                    forbidden: compile(key, "forbidden_regex", forbidden_regex)?,
                    ok: ok_regex
                        .as_deref()
                        .map(|p| compile(key, "ok_regex", p))
                        .transpose()?,
                },
                RuleKind::RequiredWhen {
                    applies_regex,
                    required_regex,
                    scope,
                } => CompiledRule::RequiredWhen {
                    applies: compile(key, "applies_regex", applies_regex)?,
                    required: compile(key, "required_regex", required_regex)?,
                    scope: *scope,
                },
            };
            rules.push((key.clone(), compiled));
        }
        Ok(CompiledRules { rules })
    }

    /// The decidable rule keys, in config order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|(k, _)| k.as_str())
    }

    /// Every decidable verdict for one trajectory's statements.
    ///
    /// - `forbidden_when`: `violation` if `forbidden_regex` matches the statements joined
    ///   with `\n`; else `ok` if `ok_regex` is given and matches; else `n/a`.
    /// - `required_when`: `n/a` if no statement matches `applies_regex`; else
    ///   `per_statement`: `violation` if any applying statement misses `required_regex`;
    ///   `global`: `ok` if any statement matches `required_regex`, else `violation`.
    pub fn verdicts<S: AsRef<str>>(&self, sqls: &[S]) -> IndexMap<String, Verdict> {
        let joined = sqls
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join("\n");
        self.rules
            .iter()
            .map(|(k, r)| (k.clone(), verdict(r, sqls, &joined)))
            .collect()
    }

    /// Verdicts plus the generic facts, as the harness's `checks` dict.
    pub fn checks<S: AsRef<str>>(&self, sqls: &[S]) -> MechanicalChecks {
        MechanicalChecks {
            decidable: self.verdicts(sqls),
            n_queries: n_queries(sqls),
            has_repeated_query: has_repeated_query(sqls),
        }
    }
}

fn verdict<S: AsRef<str>>(rule: &CompiledRule, sqls: &[S], joined: &str) -> Verdict {
    match rule {
        CompiledRule::ForbiddenWhen { forbidden, ok } => {
            if forbidden.is_match(joined) {
                Verdict::Violation
            } else if ok.as_ref().is_some_and(|re| re.is_match(joined)) {
                Verdict::Ok
            } else {
                Verdict::NotApplicable
            }
        }
        CompiledRule::RequiredWhen {
            applies,
            required,
            scope,
        } => {
            let mut applying = sqls
                .iter()
                .map(AsRef::as_ref)
                .filter(|s| applies.is_match(s))
                .peekable();
            if applying.peek().is_none() {
                return Verdict::NotApplicable;
            }
            let followed = match scope {
                Scope::PerStatement => applying.all(|s| required.is_match(s)),
                Scope::Global => sqls.iter().any(|s| required.is_match(s.as_ref())),
            };
            if followed {
                Verdict::Ok
            } else {
                Verdict::Violation
            }
        }
    }
}

/// `n_queries`: the number of non-blank statements. Example: `["SELECT 1", " "]` → 1.
pub fn n_queries<S: AsRef<str>>(sqls: &[S]) -> usize {
    sqls.iter()
        .filter(|s| !s.as_ref().trim().is_empty())
        .count()
}

/// `has_repeated_query`: two non-blank statements are equal after trimming, lower-casing
/// and collapsing whitespace. Example: `["SELECT 1", "select   1"]` → true.
pub fn has_repeated_query<S: AsRef<str>>(sqls: &[S]) -> bool {
    let mut seen = std::collections::HashSet::new();
    sqls.iter()
        .filter(|s| !s.as_ref().trim().is_empty())
        .map(|s| {
            s.as_ref()
                .to_lowercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .any(|norm| !seen.insert(norm))
}

#[cfg(test)]
#[path = "rule_checks_tests.rs"]
mod tests;
