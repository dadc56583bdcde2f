//! The table universe and namespaces of a bundle (harness-formats.md §5.1).
//!
//! Order of precedence: a schema prompt with namespaces (given, or else the prefixes of the
//! ranking rows' tables, or else of the prompt's ``Table `ns.t` `` headers) → the table
//! matcher's hits in the prompt; otherwise the union of the ranking rows' `ranked` lists
//! (each holds the whole universe). Namespaces default to the universe's prefixes.

use std::collections::BTreeSet;

use regex::Regex;

use crate::bundle::{RankingRow, SchemaPrompt, UniverseSource, Warning};
use crate::metrics::gold_tables::TableMatcher;

/// The resolved universe.
pub(crate) struct Universe {
    pub tables: Vec<String>,
    pub namespaces: Vec<String>,
    pub source: UniverseSource,
}

/// Resolves the universe from the prompt, the given namespaces and the ranking rows.
pub(crate) fn resolve(
    prompt: Option<&SchemaPrompt>,
    given_namespaces: Option<&[String]>,
    ranked: BTreeSet<String>,
    warnings: &mut Vec<Warning>,
) -> Universe {
    if let Some(prompt) = prompt {
        let namespaces: Vec<String> = match given_namespaces {
            Some(ns) => ns.to_vec(),
            None if !ranked.is_empty() => prefixes(ranked.iter()),
            None => header_namespaces(&prompt.text),
        };
        match TableMatcher::new(&namespaces) {
            Ok(matcher) if !namespaces.is_empty() => {
                let tables = matcher.universe(&prompt.text);
                if !ranked.is_empty() && ranked.iter().ne(tables.iter()) {
                    warnings.push(Warning {
                        file: prompt.file_name.clone(),
                        line: None,
                        kind: "universe_mismatch".to_owned(),
                        message: format!(
                            "the schema prompt gives {} tables but the ranking rows rank {}; the prompt's universe is used",
                            tables.len(),
                            ranked.len()
                        ),
                    });
                }
                let namespaces = if given_namespaces.is_some() { namespaces } else { prefixes(tables.iter()) };
                return Universe { tables, namespaces, source: UniverseSource::SchemaPrompt };
            }
            Ok(_) => warnings.push(Warning {
                file: prompt.file_name.clone(),
                line: None,
                kind: "no_namespaces".to_owned(),
                message: "no table namespaces given (--namespaces) or found (Table `ns.table` headers); the prompt yields no universe".to_owned(),
            }),
            Err(e) => warnings.push(Warning {
                file: prompt.file_name.clone(),
                line: None,
                kind: "invalid_namespace".to_owned(),
                message: e.to_string(),
            }),
        }
    }
    if ranked.is_empty() {
        return Universe {
            tables: Vec::new(),
            namespaces: given_namespaces.map(<[String]>::to_vec).unwrap_or_default(),
            source: UniverseSource::None,
        };
    }
    let namespaces = match given_namespaces {
        Some(ns) => ns.to_vec(),
        None => prefixes(ranked.iter()),
    };
    Universe {
        tables: ranked.into_iter().collect(),
        namespaces,
        source: UniverseSource::RankingRows,
    }
}

/// The tables the ranking rows rank, lower-cased: what [`resolve`] compares with the prompt.
pub(crate) fn ranked_tables<'a>(
    rankings: impl Iterator<Item = &'a RankingRow>,
) -> BTreeSet<String> {
    rankings
        .flat_map(|r| r.ranked.iter().map(|t| t.to_ascii_lowercase()))
        .collect()
}

/// Sorted distinct `ns` prefixes of `ns.table` names.
fn prefixes<'a>(tables: impl Iterator<Item = &'a String>) -> Vec<String> {
    let set: BTreeSet<String> = tables
        .filter_map(|t| t.split_once('.').map(|(ns, _)| ns.to_owned()))
        .collect();
    set.into_iter().collect()
}

/// Namespaces of the prompt's table headings: ``Table `ns.table` `` and list items
/// ``- `ns.table` `` (the harness's example prompts use both).
fn header_namespaces(text: &str) -> Vec<String> {
    let Ok(re) =
        Regex::new(r"(?im)(?:\bTable\s+|^\s*[-*]\s+)`([a-z_][a-z0-9_]*)\.[a-z_][a-z0-9_]*`")
    else {
        return Vec::new();
    };
    let set: BTreeSet<String> = re
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str().to_ascii_lowercase())
        .collect();
    set.into_iter().collect()
}
