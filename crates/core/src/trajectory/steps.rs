//! One call-ordered list of steps for a run (candidate `sqls`/`sql_results`, or the gold
//! `gt_sql`/`gt_results`): each statement highlighted, its tables marked, its result parsed.
//!
//! The harness stores only these parallel lists, not the turns (§3.2), so a step is one
//! statement with its result, not one model turn.

use std::collections::BTreeSet;

use serde::Serialize;

use super::highlight::{HighlightSpan, sql_highlight};
use super::pretty::sql_pretty;
use super::result_view::{ResultView, result_table};
use super::tables::{TableMark, statement_tables};
use crate::bundle::RankingRow;
use crate::metrics::gold_tables::TableMatcher;

/// One statement of a run with everything the viewer shows for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 0-based position in call order.
    pub index: usize,
    /// The statement, highlighted and laid out ([`sql_pretty`]; empty when the result list is
    /// longer than the SQL list).
    pub sql: Vec<HighlightSpan>,
    /// The tables it reads (harness rule), marked gold / ranked.
    pub tables: Vec<TableMark>,
    /// Its result (`None` when the result list is shorter than the SQL list).
    pub result: Option<ResultView>,
}

/// Pairs `sqls[i]` with `results[i]`; lists of unequal length (never written by the harness)
/// give steps with a missing side rather than an error.
pub fn run_steps<S: AsRef<str>, R: AsRef<str>>(
    sqls: &[S],
    results: &[R],
    matcher: &TableMatcher,
    gold: &BTreeSet<String>,
    ranking: Option<&RankingRow>,
) -> Vec<Step> {
    let mut tables = statement_tables(matcher, sqls, gold, ranking).into_iter();
    (0..sqls.len().max(results.len()))
        .map(|i| Step {
            index: i,
            sql: sqls
                .get(i)
                .map_or_else(Vec::new, |s| sql_pretty(sql_highlight(s.as_ref()))),
            tables: tables.next().map(|t| t.tables).unwrap_or_default(),
            result: results.get(i).map(|r| result_table(r.as_ref())),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::trajectory::SpanKind;

    #[test]
    fn steps_pair_statements_with_results() {
        let matcher = TableMatcher::new(&["crm"]).unwrap();
        let gold = BTreeSet::from(["crm.a".to_string()]);
        let sqls = ["SELECT 1 FROM crm.a", "SELECT x FROM crm.b"];
        let results = ["{\"1\":1}", "Error: Unknown identifier x", "(empty result)"];
        let steps = run_steps(&sqls, &results, &matcher, &gold, None);
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].sql[0].kind, SpanKind::Keyword);
        assert_eq!(
            steps[0].tables,
            vec![TableMark {
                table: "crm.a".into(),
                gold: true,
                rank: None,
                p_yes: None
            }]
        );
        assert!(!steps[1].tables[0].gold);
        assert_eq!(
            steps[1].result,
            Some(ResultView::Error("Unknown identifier x".into()))
        );
        assert_eq!(
            (steps[2].sql.len(), steps[2].tables.len(), &steps[2].result),
            (0, 0, &Some(ResultView::Empty))
        );
        let short = run_steps(&sqls, &[] as &[&str], &matcher, &gold, None);
        assert_eq!(short.iter().filter(|s| s.result.is_none()).count(), 2);
    }
}
