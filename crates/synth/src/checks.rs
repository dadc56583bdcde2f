//! The mechanical checks of `rule_checks.py` for the synthetic rules config (§7.7).

use indexmap::IndexMap;
use regex::Regex;
use serde::Serialize;

/// The `checks` block of a failure label.
#[derive(Debug, Clone, Serialize)]
pub struct Checks {
    /// Decidable rule key → `ok` | `violation` | `n/a`, in config order.
    pub decidable: IndexMap<String, &'static str>,
    /// Non-blank statements.
    pub n_queries: usize,
    /// Two statements equal after trimming, lower-casing and collapsing whitespace.
    pub has_repeated_query: bool,
}

/// Compiled decidable rules of `schema::rules_yaml()`.
pub struct RuleChecker {
    forbidden_now: Regex,
    ok_todate: Regex,
    applies_mart: Regex,
    required_mart: Regex,
    naming: Regex,
    spaces: Regex,
}

impl RuleChecker {
    /// Compiles the rules (the same patterns as the YAML, case-insensitive).
    pub fn new() -> Result<Self, regex::Error> {
        Ok(Self {
            forbidden_now: Regex::new(r"(?i)\b(?:now|today|yesterday)\s*\(")?,
            ok_todate: Regex::new(r"(?i)\btoDate(?:Time)?\s*\(")?,
            applies_mart: Regex::new(r"(?i)\busage_daily\b")?,
            required_mart: Regex::new(r"(?i)\b(?:day|org_id)\b")?,
            naming: Regex::new(r"(?i)\borg_name\s+AS\s+[A-Za-z_]\w*")?,
            spaces: Regex::new(r"\s+")?,
        })
    }

    /// Runs every check over a cell's statements.
    pub fn check(&self, sqls: &[String]) -> Checks {
        let stmts: Vec<&str> = sqls
            .iter()
            .map(|s| s.as_str())
            .filter(|s| !s.trim().is_empty())
            .collect();
        let joined = stmts.join("\n");
        let mut decidable = IndexMap::new();
        let reference = if self.forbidden_now.is_match(&joined) {
            "violation"
        } else if self.ok_todate.is_match(&joined) {
            "ok"
        } else {
            "n/a"
        };
        decidable.insert("reference_date".to_string(), reference);
        let applying: Vec<&&str> = stmts
            .iter()
            .filter(|s| self.applies_mart.is_match(s))
            .collect();
        let mart = if applying.is_empty() {
            "n/a"
        } else if applying.iter().any(|s| !self.required_mart.is_match(s)) {
            "violation"
        } else {
            "ok"
        };
        decidable.insert("default_to_usage_mart".to_string(), mart);
        let naming = if self.naming.is_match(&joined) {
            "violation"
        } else {
            "n/a"
        };
        decidable.insert("output_column_naming".to_string(), naming);
        let mut seen = std::collections::HashSet::new();
        let repeated = stmts
            .iter()
            .any(|s| !seen.insert(self.spaces.replace_all(s.trim(), " ").to_lowercase()));
        Checks {
            decidable,
            n_queries: stmts.len(),
            has_repeated_query: repeated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harness_vectors_adapted_to_org_id() {
        let c = RuleChecker::new().unwrap();
        let v = |s: &[&str]| c.check(&s.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(
            v(&["SELECT 1 FROM x WHERE day >= now() - INTERVAL 7 DAY"]).decidable["reference_date"],
            "violation"
        );
        assert_eq!(
            v(&["SELECT sum(daily_spend) FROM marts.usage_daily"]).decidable["default_to_usage_mart"],
            "violation"
        );
        let r = v(&["SELECT 1", "select   1", "SELECT 2"]);
        assert_eq!((r.n_queries, r.has_repeated_query), (3, true));
    }
}
