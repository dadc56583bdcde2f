//! Per-question table-ranking metrics (harness-formats.md §5.5), as pure kernels.
//!
//! Inputs are the realised ranking (`ranked`, best first; the stored `ranked` list is
//! authoritative) and the gold set `G`. Shared conventions:
//! - **Positions** are 0-based (`i`), **ranks** 1-based (`i + 1`).
//! - **Binary relevance**: a table is relevant iff it is in `G`.
//! - **Duplicates** in `ranked` (never produced by the harness, whose `ranked` is a
//!   permutation of the universe) earn credit only at their first occurrence, so every
//!   metric stays in `[0, 1]`.
//! - **Gold outside the ranking** (e.g. outside the universe) still counts in `|G|`, in the
//!   nDCG ideal and in recall's denominator, capping those scores below 1.
//! - **`k = 0`** is the empty prefix: nDCG, recall, precision, success and RR are 0;
//!   all-required is true only for an empty `G`.
//! - **`k` beyond the list** behaves as the whole list (the prefix cannot grow).
//!
//! - **Sums start at `+0.0`** (`fold`, not `Iterator::sum`, whose empty sum is `-0.0`), so
//!   an empty sum never prints as `-0.0` in JSON.
//!
//! Each metric's kernel lives in the registry, [`super::ranking_metrics`]; the functions
//! here reduce a ranking to gold positions and call it. MRR@k, precision@k and success@k are
//! runlens extensions the harness lacks.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};

use super::ranking_metrics::{NDCG, RECALL};
pub use super::ranking_metrics::{discount, ideal_dcg};

/// 0-based positions of the first occurrence of each gold table in `ranked`, ascending.
///
/// Stops scanning once every gold table has been found. Example: ranked `[a, b, c]`,
/// gold `{c, a}` → `[0, 2]`.
pub fn gold_positions<S, T, H>(ranked: &[S], gold: &HashSet<T, H>) -> Vec<usize>
where
    S: AsRef<str>,
    T: Borrow<str> + Hash + Eq,
    H: BuildHasher,
{
    // Small gold sets (the usual 1–5 tables) are matched through a cheap (length, last 8
    // bytes) key and a string comparison instead of hashing every ranked table.
    let keys: Vec<((usize, u64), &str)> = if gold.len() <= SMALL_GOLD {
        gold.iter()
            .map(|g| (tail_key(g.borrow()), g.borrow()))
            .collect()
    } else {
        Vec::new()
    };
    let is_gold = |table: &str| {
        if gold.len() <= SMALL_GOLD {
            let key = tail_key(table);
            keys.iter().any(|(k, g)| *k == key && *g == table)
        } else {
            gold.contains(table)
        }
    };
    let mut positions: Vec<usize> = Vec::with_capacity(gold.len());
    for (i, table) in ranked.iter().enumerate() {
        if positions.len() == gold.len() {
            break;
        }
        let table = table.as_ref();
        // A repeat of an already-found gold table earns nothing (|G| is small: linear check).
        if is_gold(table) && !positions.iter().any(|&p| ranked[p].as_ref() == table) {
            positions.push(i);
        }
    }
    positions
}

/// Gold sets up to this size use the (length, tail) pre-filter in [`gold_positions`].
const SMALL_GOLD: usize = 16;

/// `(len, last ≤ 8 bytes as a little-endian u64)`: equal strings have equal keys.
fn tail_key(s: &str) -> (usize, u64) {
    let bytes = s.as_bytes();
    let start = bytes.len().saturating_sub(8);
    let mut word = [0u8; 8];
    word[..bytes.len() - start].copy_from_slice(&bytes[start..]);
    (bytes.len(), u64::from_le_bytes(word))
}

/// nDCG@k with binary gain and log2 discount.
///
/// ## Definition
/// `DCG = Σ_{i < k, ranked[i] ∈ G} 1/log2(i + 2)`, `IDCG = Σ_{i < min(|G|, k)} 1/log2(i + 2)`,
/// `nDCG@k = DCG / IDCG`, and `0.0` when `IDCG = 0` (empty `G` or `k = 0`).
/// ## Example
/// ranked `[u, d, s]`, `G = {u, s}`: `nDCG@3 = (1 + 1/log2 4) / (1 + 1/log2 3) ≈ 0.919721`.
/// ```
/// use std::collections::HashSet;
/// use runlens_core::metrics::ranking::ndcg_at_k;
/// let gold: HashSet<&str> = ["u", "s"].into_iter().collect();
/// let ndcg = ndcg_at_k(&["u", "d", "s"], &gold, 3);
/// assert!((ndcg - 1.5 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-12);
/// ```
pub fn ndcg_at_k<S, T, H>(ranked: &[S], gold: &HashSet<T, H>, k: usize) -> f64
where
    S: AsRef<str>,
    T: Borrow<str> + Hash + Eq,
    H: BuildHasher,
{
    ndcg_from_positions(&gold_positions(ranked, gold), gold.len(), k)
}

/// nDCG@k from precomputed [`gold_positions`] and `|G|` (same definition as [`ndcg_at_k`]).
pub fn ndcg_from_positions(positions: &[usize], n_gold: usize, k: usize) -> f64 {
    NDCG.at_positions(positions, n_gold, k)
}

/// recall@k = `|set(ranked[:k]) ∩ G| / |G|`, `0.0` when `G` is empty.
///
/// Example: ranked `[u, d, s]`, `G = {u, s}`: recall@1 = 1/2, recall@3 = 2/2.
/// ```
/// use std::collections::HashSet;
/// use runlens_core::metrics::ranking::recall_at_k;
/// let gold: HashSet<&str> = ["u", "s"].into_iter().collect();
/// assert_eq!(recall_at_k(&["u", "d", "s"], &gold, 1), 0.5);
/// assert_eq!(recall_at_k(&["u", "d", "s"], &gold, 3), 1.0);
/// ```
pub fn recall_at_k<S, T, H>(ranked: &[S], gold: &HashSet<T, H>, k: usize) -> f64
where
    S: AsRef<str>,
    T: Borrow<str> + Hash + Eq,
    H: BuildHasher,
{
    recall_from_positions(&gold_positions(ranked, gold), gold.len(), k)
}

/// recall@k from precomputed positions (same definition as [`recall_at_k`]).
pub fn recall_from_positions(positions: &[usize], n_gold: usize, k: usize) -> f64 {
    RECALL.at_positions(positions, n_gold, k)
}

/// all-required@k: true iff `G ⊆ set(ranked[:k])` (vacuously true for an empty `G`).
///
/// Example: ranked `[u, d, s]`, `G = {u, s}`: false at k = 2, true at k = 3.
pub fn all_required_at_k<S, T, H>(ranked: &[S], gold: &HashSet<T, H>, k: usize) -> bool
where
    S: AsRef<str>,
    T: Borrow<str> + Hash + Eq,
    H: BuildHasher,
{
    hits_within(&gold_positions(ranked, gold), k) == gold.len()
}

/// k*: the smallest `k` whose top `k` holds every gold table (= the worst gold rank), or
/// `None` when some gold table is not in the ranking or `G` is empty.
pub fn k_star_from_positions(positions: &[usize], n_gold: usize) -> Option<usize> {
    if n_gold == 0 || positions.len() < n_gold {
        return None;
    }
    positions.last().map(|&p| p + 1)
}

/// 1-based rank of the worst-ranked gold table **that is ranked**; `None` when no gold
/// table appears in the ranking. Equals k* when every gold table is ranked.
pub fn worst_gold_rank_from_positions(positions: &[usize]) -> Option<usize> {
    positions.last().map(|&p| p + 1)
}

/// Number of positions `< k` (positions are ascending).
fn hits_within(positions: &[usize], k: usize) -> usize {
    positions.partition_point(|&p| p < k)
}

#[cfg(test)]
#[path = "ranking_tests.rs"]
mod tests;
