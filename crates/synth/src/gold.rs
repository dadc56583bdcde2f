//! The harness's two table matchers (harness-formats.md §5.1 and §5.2), as implemented once
//! in `runlens-core` ([`TableMatcher`]): the synthetic ranking rows must use exactly the gold
//! that the importer, the metrics and the dashboard derive.
//!
//! - universe matcher: a word boundary, a listed namespace, a dot, `[a-z_][a-z0-9_]*`;
//! - FROM/JOIN matcher: `from` or `join` (no leading word boundary), whitespace, then a
//!   namespaced name. Comma joins and backquoted names are missed on purpose: this is
//!   what the harness does.

use runlens_core::metrics::gold_tables::TableMatcher;

use crate::SynthError;

/// Compiled matchers for one namespace list.
#[derive(Debug, Clone)]
pub struct Matchers(TableMatcher);

impl Matchers {
    /// Builds the matchers for `namespaces` (e.g. `["marts", "crm"]`).
    pub fn new(namespaces: &[String]) -> Result<Self, SynthError> {
        TableMatcher::new(namespaces)
            .map(Matchers)
            .map_err(|e| SynthError::Invariant(format!("table matcher: {e}")))
    }

    /// The sorted, distinct, lower-cased tables mentioned anywhere in `text` (§5.1).
    ///
    /// ```
    /// let m = runlens_synth::gold::Matchers::new(&["crm".into()]).unwrap();
    /// assert_eq!(m.universe("see crm.dim_account and CRM.Dim_Account"), vec!["crm.dim_account"]);
    /// ```
    pub fn universe(&self, text: &str) -> Vec<String> {
        self.0.universe(text)
    }

    /// Gold tables of a statement list, joined with single spaces first (§5.2).
    ///
    /// ```
    /// let m = runlens_synth::gold::Matchers::new(&["crm".into()]).unwrap();
    /// let sql = vec!["SELECT 1 FROM crm.a a, crm.b b".to_string()];
    /// assert_eq!(m.gold(&sql), vec!["crm.a"]);
    /// ```
    pub fn gold(&self, statements: &[String]) -> Vec<String> {
        self.0.gold_tables_harness(statements).into_iter().collect()
    }

    /// Gold tables of one text (a single statement or an already joined list).
    pub fn gold_text(&self, text: &str) -> Vec<String> {
        self.0.gold_tables_harness(&[text]).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m() -> Matchers {
        Matchers::new(&["marts".into(), "crm".into()]).unwrap()
    }

    #[test]
    fn harness_reference_vectors() {
        let sql = "SELECT u.daily_spend FROM marts.usage_daily u JOIN crm.dim_account a ON a.tenant_id = u.tenant_id";
        assert_eq!(
            m().gold_text(sql),
            vec!["crm.dim_account", "marts.usage_daily"]
        );
        let list = vec![
            "SELECT * FROM crm.fct_opportunity".to_string(),
            "SELECT * FROM other.foo".to_string(),
        ];
        assert_eq!(m().gold(&list), vec!["crm.fct_opportunity"]);
        let text = "Table `marts.usage_daily` stores ...\nTable `crm.dim_account` ...\njoin crm.fct_support_case on ...";
        assert_eq!(m().universe(text).len(), 3);
    }

    #[test]
    fn misses_backquotes_and_from_paren() {
        assert!(
            m().gold_text("SELECT 1 FROM `crm`.`dim_account`")
                .is_empty()
        );
        assert!(m().gold_text("SELECT 1 FROM(SELECT 1 FROM x)").is_empty());
        assert_eq!(
            m().gold_text("select x FROM crm.dim_account.tenant_id"),
            vec!["crm.dim_account"]
        );
    }
}
