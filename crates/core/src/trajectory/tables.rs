//! The tables each SQL statement reads, marked gold / not gold with their Jev ranking.
//!
//! A statement's tables are the harness's FROM/JOIN parse of that statement alone
//! ([`TableMatcher::gold_tables_harness`] on a one-statement list, harness-formats.md §5.2),
//! so a table shows exactly when the harness would count it.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::bundle::{Question, RankingRow};
use crate::metrics::gold_tables::TableMatcher;

/// One table read by a statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableMark {
    /// Lower-cased `namespace.table`.
    pub table: String,
    /// True when the table is in the question's gold set.
    pub gold: bool,
    /// 1-based position in the ranking row's `ranked` list (`None`: no ranking row, or the
    /// table is not ranked).
    pub rank: Option<usize>,
    /// The stored P(yes) (4 dp) from the ranking row's `scores`, when present.
    pub p_yes: Option<f64>,
}

/// The tables of one statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatementTables {
    /// 0-based index of the statement in its list.
    pub statement: usize,
    /// Tables in name order.
    pub tables: Vec<TableMark>,
}

/// The gold set the viewer marks against: the ranking row's `gold` when there is a ranking
/// row (what the retrieval metrics used), else the harness rule over the question's `gt_sql`.
pub fn gold_set(
    matcher: &TableMatcher,
    question: Option<&Question>,
    ranking: Option<&RankingRow>,
) -> BTreeSet<String> {
    match (ranking, question) {
        (Some(row), _) => row.gold.iter().map(|t| t.to_ascii_lowercase()).collect(),
        (None, Some(q)) => matcher.gold_tables_harness(&q.gt_sql),
        (None, None) => BTreeSet::new(),
    }
}

/// For each statement (gold or candidate), the tables it reads, marked against `gold` and
/// placed in `ranking` when given.
///
/// Example: statements `["SELECT * FROM crm.a JOIN crm.b ON 1"]`, gold `{crm.a}`, ranked
/// `[crm.b, crm.a]` → `crm.a` gold rank 2, `crm.b` not gold rank 1.
pub fn statement_tables<S: AsRef<str>>(
    matcher: &TableMatcher,
    statements: &[S],
    gold: &BTreeSet<String>,
    ranking: Option<&RankingRow>,
) -> Vec<StatementTables> {
    statements
        .iter()
        .enumerate()
        .map(|(i, sql)| StatementTables {
            statement: i,
            tables: matcher
                .gold_tables_harness(std::slice::from_ref(&sql.as_ref()))
                .into_iter()
                .map(|table| mark(table, gold, ranking))
                .collect(),
        })
        .collect()
}

fn mark(table: String, gold: &BTreeSet<String>, ranking: Option<&RankingRow>) -> TableMark {
    let rank = ranking.and_then(|r| {
        r.ranked
            .iter()
            .position(|t| t.eq_ignore_ascii_case(&table))
            .map(|p| p + 1)
    });
    let p_yes = ranking.and_then(|r| {
        r.scores()
            .iter()
            .find(|(t, _)| t.eq_ignore_ascii_case(&table))
            .map(|(_, p)| p)
    });
    TableMark {
        gold: gold.contains(&table),
        table,
        rank,
        p_yes,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn ranking() -> RankingRow {
        RankingRow {
            trace_id: "ex-006".into(),
            gold: vec!["crm.dim_account".into(), "crm.fct_opportunity".into()],
            ranked: vec![
                "crm.fct_opportunity".into(),
                "crm.dim_account".into(),
                "marts.usage_daily".into(),
                "crm.fct_support_case".into(),
            ],
            scores: [
                ("crm.fct_opportunity".into(), 0.9731),
                ("crm.dim_account".into(), 0.8812),
                ("marts.usage_daily".into(), 0.1207),
                ("crm.fct_support_case".into(), 0.0302),
            ]
            .into_iter()
            .collect(),
            ..RankingRow::default()
        }
    }

    #[test]
    fn tables_per_statement_with_gold_rank_and_p_yes() {
        let matcher = TableMatcher::new(&["marts", "crm"]).unwrap();
        let row = ranking();
        let gold = gold_set(&matcher, None, Some(&row));
        let statements = [
            "SELECT * FROM CRM.dim_account a LEFT JOIN marts.usage_daily u ON a.id = u.id",
            "SELECT 1",
            // Comma join and backquotes miss under the harness rule.
            "SELECT * FROM crm.fct_support_case s, crm.fct_opportunity o",
        ];
        let got = statement_tables(&matcher, &statements, &gold, Some(&row));
        let mk = |table: &str, gold, rank, p_yes| TableMark {
            table: table.into(),
            gold,
            rank: Some(rank),
            p_yes: Some(p_yes),
        };
        assert_eq!(
            got,
            vec![
                StatementTables {
                    statement: 0,
                    tables: vec![
                        mk("crm.dim_account", true, 2, 0.8812),
                        mk("marts.usage_daily", false, 3, 0.1207),
                    ],
                },
                StatementTables {
                    statement: 1,
                    tables: vec![]
                },
                StatementTables {
                    statement: 2,
                    tables: vec![mk("crm.fct_support_case", false, 4, 0.0302)],
                },
            ]
        );
    }

    #[test]
    fn without_ranking_gold_comes_from_gt_sql() {
        let matcher = TableMatcher::new(&["crm"]).unwrap();
        let question = Question {
            trace_id: "q".into(),
            gt_sql: vec!["SELECT x FROM crm.a".into(), "SELECT y FROM crm.b".into()],
            ..Question::default()
        };
        let gold = gold_set(&matcher, Some(&question), None);
        assert_eq!(gold, BTreeSet::from(["crm.a".to_string(), "crm.b".into()]));
        let got = statement_tables(&matcher, &["SELECT 1 FROM crm.b JOIN crm.c"], &gold, None);
        assert_eq!(
            got[0].tables,
            vec![
                TableMark {
                    table: "crm.b".into(),
                    gold: true,
                    rank: None,
                    p_yes: None
                },
                TableMark {
                    table: "crm.c".into(),
                    gold: false,
                    rank: None,
                    p_yes: None
                },
            ]
        );
    }
}
