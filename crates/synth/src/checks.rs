//! The mechanical checks of `rule_checks.py` (§7.7) over the synthetic rules config
//! (`schema::rules_yaml()`), computed by `runlens-core`'s rule checks so the synthetic labels
//! carry exactly what the importer and the re-label feature compute.

use runlens_core::metrics::rule_checks::CompiledRules;
use runlens_core::rules::RulesConfig;

use crate::{SynthError, schema};

/// The `checks` block of a failure label (decidable verdicts in config order, `n_queries`,
/// `has_repeated_query`).
pub use runlens_core::metrics::rule_checks::MechanicalChecks as Checks;

/// The compiled decidable rules of `schema::rules_yaml()`.
pub struct RuleChecker(CompiledRules);

impl RuleChecker {
    /// Parses and compiles the synthetic rules config.
    pub fn new() -> Result<Self, SynthError> {
        let config = RulesConfig::from_yaml_str(&schema::rules_yaml(), "rules.yaml")
            .map_err(|e| SynthError::Invariant(format!("synthetic rules config: {e}")))?;
        CompiledRules::new(&config)
            .map(RuleChecker)
            .map_err(|e| SynthError::Invariant(format!("synthetic rules config: {e}")))
    }

    /// Runs every check over a cell's statements.
    pub fn check(&self, sqls: &[String]) -> Checks {
        self.0.checks(sqls)
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
            runlens_core::metrics::rule_checks::Verdict::Violation
        );
        assert_eq!(
            v(&["SELECT sum(daily_spend) FROM marts.usage_daily"]).decidable["default_to_usage_mart"],
            runlens_core::metrics::rule_checks::Verdict::Violation
        );
        let r = v(&["SELECT 1", "select   1", "SELECT 2"]);
        assert_eq!((r.n_queries, r.has_repeated_query), (3, true));
    }
}
