//! Table universe and gold tables from gold SQL, under two selectable definitions.
//!
//! - [`GoldRule::Harness`] is the harness rule (harness-formats §5.2), quirks included:
//!   statements are joined with single spaces, then `(?i)(?:from|join)\s+(<ns>\.[a-z_][a-z0-9_]*)`
//!   (no leading word boundary) is matched and lower-cased. Comma joins, backquoted names
//!   and `FROM(` miss; CTE and subquery bodies count.
//! - [`GoldRule::Parser`] parses each statement with `sqlparser`'s ClickHouse dialect and
//!   collects every relation (table factor) named `<ns>.<table>`, case-insensitively and
//!   lower-cased, with quotes removed. Comma joins, backquoted/double-quoted names, CTE
//!   bodies and subqueries are handled; aliases and CTE names are never qualified, so they
//!   never count. A statement that does not parse falls back to the harness rule for that
//!   statement alone and is reported in [`ParsedGold::unparsed`].

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::Arc;

use regex::Regex;
use serde::{Deserialize, Serialize};
use sqlparser::ast::{ObjectNamePart, visit_relations};
use sqlparser::dialect::ClickHouseDialect;
use sqlparser::parser::Parser;

use super::error::MetricsError;
pub use super::statement_parses::StatementParses;

/// Which definition of "gold tables" to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldRule {
    /// The harness's FROM/JOIN namespace regex, quirks included.
    #[default]
    Harness,
    /// The `sqlparser` (ClickHouse dialect) rule.
    Parser,
}

/// The outcome of the parser rule on one gold SQL list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedGold {
    /// Lower-cased `ns.table` names, sorted.
    pub tables: BTreeSet<String>,
    /// 0-based indexes of statements that did not parse (the harness rule was used for them).
    pub unparsed: Vec<usize>,
}

/// Namespace-aware table matchers, compiled once for a list of namespaces (cloning is cheap:
/// the compiled regexes are shared).
#[derive(Debug, Clone)]
pub struct TableMatcher {
    namespaces: Vec<String>,
    table_re: Regex,
    from_join_re: Regex,
    /// Parser-rule outcomes found earlier (e.g. by the dashboard's loader worker).
    parses: Option<Arc<StatementParses>>,
}

impl TableMatcher {
    /// Compiles the matchers for `namespaces` (e.g. `["marts", "crm"]`).
    ///
    /// Errors: a namespace that is not an identifier `[A-Za-z_][A-Za-z0-9_]*`.
    pub fn new<S: AsRef<str>>(namespaces: &[S]) -> Result<Self, MetricsError> {
        let ident = Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*$").expect("constant regex");
        let mut names = Vec::with_capacity(namespaces.len());
        for ns in namespaces {
            let ns = ns.as_ref().trim();
            if !ident.is_match(ns) {
                return Err(MetricsError::InvalidNamespace(ns.to_string()));
            }
            names.push(ns.to_ascii_lowercase());
        }
        // An empty alternation must match nothing: use a never-matching namespace group.
        let alt = if names.is_empty() {
            r"[^\s\S]".to_string()
        } else {
            names.join("|")
        };
        let table_re =
            Regex::new(&format!(r"(?i)\b(?:{alt})\.[a-z_][a-z0-9_]*")).expect("identifiers only");
        let from_join_re = Regex::new(&format!(
            r"(?i)(?:from|join)\s+((?:{alt})\.[a-z_][a-z0-9_]*)"
        ))
        .expect("identifiers only");
        Ok(TableMatcher {
            namespaces: names,
            table_re,
            from_join_re,
            parses: None,
        })
    }

    /// This matcher answering the parser rule from `parses` where they hold a statement
    /// (the same outcome, without parsing again). Parses found for other namespaces are
    /// ignored.
    pub fn with_parses(mut self, parses: Arc<StatementParses>) -> Self {
        if parses.namespaces == self.namespaces {
            self.parses = Some(parses);
        }
        self
    }

    /// Whether [`Self::with_parses`] attached outcomes.
    pub fn has_parses(&self) -> bool {
        self.parses.is_some()
    }

    /// The parser rule's outcome for every distinct statement of `statements`.
    pub fn statement_parses<'a>(
        &self,
        statements: impl IntoIterator<Item = &'a str>,
    ) -> StatementParses {
        let mut out = StatementParses {
            namespaces: self.namespaces.clone(),
            ..StatementParses::default()
        };
        for sql in statements {
            if !out.statements.contains_key(sql) {
                let tables = self.statement_tables(sql).map(|t| t.into_iter().collect());
                out.statements.insert(sql.to_owned(), tables);
            }
        }
        out
    }

    /// The qualified relations of one statement by the parser rule, or `None` when it does
    /// not parse.
    pub fn statement_tables(&self, sql: &str) -> Option<BTreeSet<String>> {
        if let Some(known) = self.parses.as_ref().and_then(|p| p.statements.get(sql)) {
            return known.as_ref().map(|t| t.iter().cloned().collect());
        }
        let statements = Parser::parse_sql(&ClickHouseDialect {}, sql).ok()?;
        let mut tables = BTreeSet::new();
        let _ = visit_relations(&statements, |name| {
            if let Some(t) = self.qualified(&name.0) {
                tables.insert(t);
            }
            ControlFlow::<()>::Continue(())
        });
        Some(tables)
    }

    /// The namespaces, lower-cased, in the given order.
    pub fn namespaces(&self) -> &[String] {
        &self.namespaces
    }

    /// The universe: sorted, distinct, lower-cased namespaced tables mentioned anywhere in
    /// `schema_text` (§5.1; every qualified mention counts, not only `Table` headers).
    pub fn universe(&self, schema_text: &str) -> Vec<String> {
        let set: BTreeSet<String> = self
            .table_re
            .find_iter(schema_text)
            .map(|m| m.as_str().to_ascii_lowercase())
            .collect();
        set.into_iter().collect()
    }

    /// Gold tables by the harness rule over statements joined with single spaces.
    ///
    /// Example: `["SELECT * FROM crm.a a, crm.b b"]` → `{crm.a}` (comma join missed).
    pub fn gold_tables_harness<S: AsRef<str>>(&self, gt_sql: &[S]) -> BTreeSet<String> {
        let joined = gt_sql
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(" ");
        self.harness_text(&joined)
    }

    fn harness_text(&self, text: &str) -> BTreeSet<String> {
        self.from_join_re
            .captures_iter(text)
            .map(|c| c[1].to_ascii_lowercase())
            .collect()
    }

    /// Gold tables by the parser rule (see the module docs).
    ///
    /// Example: ``["SELECT * FROM `crm`.`a`, crm.b"]`` → `{crm.a, crm.b}`.
    pub fn gold_tables_parsed<S: AsRef<str>>(&self, gt_sql: &[S]) -> ParsedGold {
        let mut out = ParsedGold::default();
        for (i, sql) in gt_sql.iter().enumerate() {
            match self.statement_tables(sql.as_ref()) {
                Some(tables) => out.tables.extend(tables),
                None => {
                    out.unparsed.push(i);
                    out.tables.extend(self.harness_text(sql.as_ref()));
                }
            }
        }
        out
    }

    /// Gold tables under `rule`.
    pub fn gold_tables<S: AsRef<str>>(&self, gt_sql: &[S], rule: GoldRule) -> BTreeSet<String> {
        match rule {
            GoldRule::Harness => self.gold_tables_harness(gt_sql),
            GoldRule::Parser => self.gold_tables_parsed(gt_sql).tables,
        }
    }

    fn qualified(&self, parts: &[ObjectNamePart]) -> Option<String> {
        let [ns, table] = parts else { return None };
        let ns = ns.as_ident()?.value.to_ascii_lowercase();
        let table = table.as_ident()?.value.to_ascii_lowercase();
        self.namespaces
            .contains(&ns)
            .then(|| format!("{ns}.{table}"))
    }
}

/// One question where the two gold rules disagree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldDifference {
    /// The question.
    pub trace_id: String,
    /// Tables only the harness rule found.
    pub only_harness: Vec<String>,
    /// Tables only the parser rule found.
    pub only_parser: Vec<String>,
    /// Statements the parser could not parse (0-based).
    pub unparsed: Vec<usize>,
}

/// Lists questions whose gold sets differ between the two rules, in input order.
///
/// `questions` yields `(trace_id, gt_sql)`. Questions with equal sets are omitted.
pub fn gold_rule_differences<'a, I, S>(matcher: &TableMatcher, questions: I) -> Vec<GoldDifference>
where
    I: IntoIterator<Item = (&'a str, &'a [S])>,
    S: AsRef<str> + 'a,
{
    let mut out = Vec::new();
    for (trace_id, gt_sql) in questions {
        let harness = matcher.gold_tables_harness(gt_sql);
        let parsed = matcher.gold_tables_parsed(gt_sql);
        if harness != parsed.tables {
            out.push(GoldDifference {
                trace_id: trace_id.to_string(),
                only_harness: harness.difference(&parsed.tables).cloned().collect(),
                only_parser: parsed.tables.difference(&harness).cloned().collect(),
                unparsed: parsed.unparsed,
            });
        }
    }
    out
}

#[cfg(test)]
#[path = "gold_tables_tests.rs"]
mod tests;

impl StatementParses {
    /// The outcome of every gold statement (`gt_sql`) of every question of `body`, or `None`
    /// when the bundle has no valid namespaces (then neither rule difference nor parser
    /// rule parses anything).
    pub fn of_gold_sql(body: &crate::bundle::BundleBody) -> Option<StatementParses> {
        if body.namespaces.is_empty() {
            return None;
        }
        let matcher = TableMatcher::new(&body.namespaces).ok()?;
        Some(matcher.statement_parses(Self::gold_statements(body)))
    }
}
