//! The gold set of one ranking row under a [`GoldRule`]: the single place that choice is
//! made, shared by [`super::report_retrieval::retrieval_section`] and
//! [`super::question_rows::question_rows`] so the two can never disagree.

use std::collections::{HashMap, HashSet};

use super::gold_tables::{GoldRule, TableMatcher};
use crate::bundle::{Corpus, RankingRow};

/// A ranking row's gold tables and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowGold {
    /// The gold tables (lower-case `ns.table`).
    pub tables: HashSet<String>,
    /// True when the parser rule was asked for but the stored `gold` was used instead.
    pub fallback: bool,
}

impl RowGold {
    /// The gold tables, sorted ascending.
    pub fn sorted(&self) -> Vec<String> {
        let mut v: Vec<String> = self.tables.iter().cloned().collect();
        v.sort();
        v
    }
}

/// Chooses gold sets for the rows of one corpus (the matcher and the question index are
/// built once).
///
/// ## Rule
/// - [`GoldRule::Harness`]: the row's stored `gold` (the harness computed it with its own
///   FROM/JOIN rule, §5.2).
/// - [`GoldRule::Parser`]: `TableMatcher::gold_tables_parsed(question.gt_sql)`, **falling
///   back** to the stored `gold` (and flagging [`RowGold::fallback`]) when the bundle has
///   no (or invalid) namespaces, the row's question is not in the corpus, or its `gt_sql`
///   is empty.
#[derive(Debug)]
pub struct GoldChooser<'a> {
    rule: GoldRule,
    matcher: Option<TableMatcher>,
    corpus: &'a Corpus,
    questions: HashMap<&'a str, usize>,
}

impl<'a> GoldChooser<'a> {
    /// Prepares the choice for `corpus` under `rule`, with the bundle's `namespaces`.
    pub fn new<S: AsRef<str>>(namespaces: &[S], corpus: &'a Corpus, rule: GoldRule) -> Self {
        let matcher = (rule == GoldRule::Parser && !namespaces.is_empty())
            .then(|| TableMatcher::new(namespaces).ok())
            .flatten();
        GoldChooser::with_matcher(matcher, corpus, rule)
    }

    /// [`Self::new`] with the bundle's matcher already compiled (`None`: no valid
    /// namespaces), e.g. one answering from [`super::gold_tables::StatementParses`].
    pub fn with_matcher(matcher: Option<TableMatcher>, corpus: &'a Corpus, rule: GoldRule) -> Self {
        let parser = rule == GoldRule::Parser && matcher.is_some();
        GoldChooser {
            rule,
            matcher: matcher.filter(|_| parser),
            corpus,
            questions: if parser {
                corpus.question_index()
            } else {
                HashMap::new()
            },
        }
    }

    /// The gold set of `row`.
    pub fn gold(&self, row: &RankingRow) -> RowGold {
        let parsed = self.matcher.as_ref().and_then(|m| {
            let q = self
                .corpus
                .questions
                .get(*self.questions.get(row.trace_id.as_str())?)?;
            (!q.gt_sql.is_empty()).then(|| m.gold_tables_parsed(&q.gt_sql).tables)
        });
        match parsed {
            Some(tables) => RowGold {
                tables: tables.into_iter().collect(),
                fallback: false,
            },
            None => RowGold {
                tables: row.gold.iter().map(|t| t.to_string()).collect(),
                fallback: self.rule == GoldRule::Parser,
            },
        }
    }
}

#[cfg(test)]
#[path = "row_gold_tests.rs"]
mod tests;
