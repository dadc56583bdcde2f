//! The parser rule's outcome per gold SQL statement, found once and reused: parsing every
//! gold statement with `sqlparser` is the costly part of the parser rule and of the rule
//! differences, so the dashboard's loader worker finds these off the page's thread and the
//! page's `TableMatcher` answers from them (`TableMatcher::with_parses`; the parses of a
//! bundle's gold SQL: `StatementParses::of_gold_sql`, in `gold_tables`).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::bundle::BundleBody;

/// Statement text → its qualified relations (lower-case `ns.table`, sorted), or `None` when
/// the statement does not parse; valid for the matcher namespaces it names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementParses {
    /// The namespaces the relations were qualified with (lower-case, in the matcher's order).
    pub namespaces: Vec<String>,
    /// Outcome per distinct statement.
    pub statements: HashMap<String, Option<Vec<String>>>,
}

impl StatementParses {
    /// Every distinct gold statement of `body`, in bundle order (what `of_gold_sql`
    /// parses; a caller may parse them a few at a time).
    pub fn gold_statements(body: &BundleBody) -> Vec<&str> {
        let mut seen = HashSet::new();
        body.corpora
            .iter()
            .flat_map(|c| &c.questions)
            .flat_map(|q| &q.gt_sql)
            .map(String::as_str)
            .filter(|s| seen.insert(*s))
            .collect()
    }
}
