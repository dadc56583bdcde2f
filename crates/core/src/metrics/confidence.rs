//! What-if re-ranking from scores and the high-confidence set (harness-formats §5.3, §6.2).

use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};

use serde::{Deserialize, Serialize};

/// Re-ranks `universe` by P(yes) (`scores(table)`) descending, keeping ties in universe order.
///
/// ## Conventions
/// `universe` should be in the harness's universe order (sorted alphabetically); the sort is
/// stable, so equal scores keep that order, exactly like the harness. A table with no score
/// (or a NaN score) scores `0.0`, as a missing Jev answer does. Use this only for what-if
/// views: the stored `ranked` list is authoritative, because stored scores are rounded.
/// ## Example
/// universe `[a, b, c]`, scores `{a: 0.2, b: 0.9, c: 0.2}` → `[b, a, c]`.
pub fn rank_by_scores<S, F>(universe: &[S], scores: F) -> Vec<&str>
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<f64>,
{
    let score = |t: &str| scores(t).filter(|p| !p.is_nan()).unwrap_or(0.0);
    let mut ranked: Vec<(&str, f64)> = universe
        .iter()
        .map(|t| (t.as_ref(), score(t.as_ref())))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.into_iter().map(|(t, _)| t).collect()
}

/// The high-confidence set at threshold `t`: tables with `P ≥ t`, in ranked order; when that
/// is empty, `{ranked[0]}` (the gate's fallback, §6.2). Missing scores count as `0.0`.
///
/// Example: ranked `[b, a]`, scores `{b: 0.4, a: 0.1}`, `t = 0.5` → `[b]` (fallback).
pub fn high_confidence_set<S, F>(ranked: &[S], scores: F, t: f64) -> Vec<&str>
where
    S: AsRef<str>,
    F: Fn(&str) -> Option<f64>,
{
    let chosen: Vec<&str> = ranked
        .iter()
        .map(AsRef::as_ref)
        .filter(|table| scores(table).is_some_and(|p| p >= t))
        .collect();
    if chosen.is_empty() {
        ranked.first().map(AsRef::as_ref).into_iter().collect()
    } else {
        chosen
    }
}

/// How one question's high-confidence set compares with its gold set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ConfidenceSetScore {
    /// Number of distinct tables in the set.
    pub size: usize,
    /// `|set ∩ G| / |set|`, `0.0` for an empty set.
    pub precision: f64,
    /// `|set ∩ G| / |G|`, `0.0` for an empty `G`.
    pub recall: f64,
    /// Whether `G ⊆ set` (vacuously true for an empty `G`).
    pub covers_gold: bool,
}

/// Scores a table set against the gold set (duplicates in `set` count once).
///
/// Example: set `[a, b]`, `G = {a, c}` → size 2, precision 1/2, recall 1/2, not covering.
pub fn score_table_set<T, H>(set: &[&str], gold: &HashSet<T, H>) -> ConfidenceSetScore
where
    T: Borrow<str> + Hash + Eq,
    H: BuildHasher,
{
    let distinct: HashSet<&str> = set.iter().copied().collect();
    let hits = distinct.iter().filter(|t| gold.contains(**t)).count();
    ConfidenceSetScore {
        size: distinct.len(),
        precision: if distinct.is_empty() {
            0.0
        } else {
            hits as f64 / distinct.len() as f64
        },
        recall: if gold.is_empty() {
            0.0
        } else {
            hits as f64 / gold.len() as f64
        },
        covers_gold: hits == gold.len(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use std::collections::HashMap;

    use super::*;

    fn scores(pairs: &[(&str, f64)]) -> HashMap<String, f64> {
        pairs.iter().map(|(t, p)| (t.to_string(), *p)).collect()
    }

    #[test]
    fn ties_keep_universe_order_and_missing_scores_are_zero() {
        let universe = ["a", "b", "c", "d"];
        let s = scores(&[("a", 0.2), ("b", 0.9), ("c", 0.2), ("d", f64::NAN)]);
        assert_eq!(
            rank_by_scores(&universe, |t| s.get(t).copied()),
            vec!["b", "a", "c", "d"]
        );
        let s = scores(&[("c", 0.5)]);
        assert_eq!(
            rank_by_scores(&universe, |t| s.get(t).copied()),
            vec!["c", "a", "b", "d"]
        );
    }

    #[test]
    fn high_confidence_set_threshold_and_fallback() {
        let ranked = ["b", "a", "c"];
        let s = scores(&[("b", 0.9), ("a", 0.5), ("c", 0.4999)]);
        assert_eq!(
            high_confidence_set(&ranked, |t| s.get(t).copied(), 0.5),
            vec!["b", "a"]
        );
        assert_eq!(
            high_confidence_set(&ranked, |t| s.get(t).copied(), 0.95),
            vec!["b"]
        );
        let empty: [&str; 0] = [];
        assert!(high_confidence_set(&empty, |t| s.get(t).copied(), 0.5).is_empty());
    }

    #[test]
    fn set_score_precision_recall_cover() {
        let gold: HashSet<String> = ["a", "c"].iter().map(|s| s.to_string()).collect();
        let sc = score_table_set(&["a", "b", "a"], &gold);
        assert_eq!(
            sc,
            ConfidenceSetScore {
                size: 2,
                precision: 1.0 / 2.0,
                recall: 1.0 / 2.0,
                covers_gold: false
            }
        );
        let sc = score_table_set(&["a", "c"], &gold);
        assert!(sc.covers_gold);
        assert_eq!(score_table_set(&[], &gold).precision, 0.0);
    }
}
