//! Failure-label aggregates (harness-formats §7.6, §9.2, §9.3).
//!
//! Kernels take iterators of plain fields so that they work on bundle rows, on re-labelled
//! rows and on test data alike. Every count object lists the known keys first, in taxonomy
//! order (zeros included, so charts have stable axes), then unknown keys in first-seen order.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::taxonomy::{FAMILIES, FmBucket, SUB_MODES, bucket_of, family_of};

/// Key used for a row whose `sub_mode` is missing (null).
pub const MISSING: &str = "(missing)";
/// Family key for an unknown or missing sub-mode (the harness writes `family: null`).
pub const NO_FAMILY: &str = "(none)";

/// Counts of failed cells by sub-mode, family and FM crosswalk bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureCounts {
    /// Number of label rows.
    pub n: usize,
    /// Sub-mode → count (16 known sub-modes first, then unknown ones, then [`MISSING`]).
    pub sub_mode: IndexMap<String, usize>,
    /// Family → count (7 families first, then [`NO_FAMILY`] for unknown sub-modes).
    pub family: IndexMap<String, usize>,
    /// Bucket label (e.g. `"FM3 wrong data"`) → count, all 7 buckets in `FM_ORDER`.
    pub fm_bucket: IndexMap<String, usize>,
}

impl Default for FailureCounts {
    fn default() -> Self {
        FailureCounts {
            n: 0,
            sub_mode: SUB_MODES.iter().map(|s| (s.key.to_string(), 0)).collect(),
            family: FAMILIES.iter().map(|f| (f.to_string(), 0)).collect(),
            fm_bucket: FmBucket::ORDER
                .iter()
                .map(|b| (b.label().to_string(), 0))
                .collect(),
        }
    }
}

impl FailureCounts {
    /// Adds one row with this sub-mode (`None` = missing). Unknown and missing sub-modes go
    /// to family [`NO_FAMILY`] and bucket `not a model failure`.
    pub fn add(&mut self, sub_mode: Option<&str>) {
        self.n += 1;
        let key = sub_mode.unwrap_or(MISSING);
        *self.sub_mode.entry(key.to_string()).or_insert(0) += 1;
        let family = sub_mode.and_then(family_of).unwrap_or(NO_FAMILY);
        *self.family.entry(family.to_string()).or_insert(0) += 1;
        let bucket = sub_mode.map_or(FmBucket::NotAModelFailure, bucket_of);
        *self
            .fm_bucket
            .entry(bucket.label().to_string())
            .or_insert(0) += 1;
    }
}

/// Counts sub-modes, families and buckets. Each of the three objects sums to `n`.
///
/// Example: `[wrong_join, tool_loop, None]` → FM4 1, budget 1, not a model failure 1.
pub fn count_failures<'a, I: IntoIterator<Item = Option<&'a str>>>(sub_modes: I) -> FailureCounts {
    let mut counts = FailureCounts::default();
    sub_modes.into_iter().for_each(|s| counts.add(s));
    counts
}

/// [`count_failures`] per model, models in first-seen order.
pub fn count_failures_by_model<'a, I>(rows: I) -> IndexMap<String, FailureCounts>
where
    I: IntoIterator<Item = (&'a str, Option<&'a str>)>,
{
    let mut out: IndexMap<String, FailureCounts> = IndexMap::new();
    for (model, sub_mode) in rows {
        out.entry(model.to_string()).or_default().add(sub_mode);
    }
    out
}

/// Number of present values `≥ threshold` (missing values never count).
///
/// The report's "judge disagreement" is `correct_despite_fail ≥ 0.5`; the plot draws a line
/// at 0.65. Example: `[0.5, 0.64, 0.65, None]` at 0.65 → 1.
pub fn count_at_least<I: IntoIterator<Item = Option<f64>>>(values: I, threshold: f64) -> usize {
    values
        .into_iter()
        .flatten()
        .filter(|&v| v >= threshold)
        .count()
}

/// numpy's histogram with `bins` equal bins over `[lo, hi]` ([`histogram_bin`]: bin `i`
/// holds the values from edge `i` to below edge `i + 1`, the last bin also holds `v = hi`);
/// values outside `[lo, hi]`, NaN and missing values are left out. The plot uses 20 bins
/// over `[0, 1]`.
pub fn histogram<I: IntoIterator<Item = Option<f64>>>(
    values: I,
    bins: usize,
    lo: f64,
    hi: f64,
) -> Vec<usize> {
    let mut counts = vec![0; bins];
    if bins == 0 || hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return counts;
    }
    for i in values
        .into_iter()
        .flatten()
        .filter_map(|v| histogram_bin(v, bins, lo, hi))
    {
        counts[i] += 1;
    }
    counts
}

/// The bin of `v` in [`histogram`] with the same `bins`, `lo`, `hi`, exactly as numpy's
/// `np.histogram(a, bins, range=(lo, hi))` (what matplotlib's `hist` draws the harness's
/// `fm_cdf.png` with) puts it: `floor((v − lo) / (hi − lo) · bins)`, then moved one bin down
/// when `v` is below that bin's edge or up when it is at or above the next one, the edges
/// being `np.linspace(lo, hi, bins + 1)` (`lo + i · ((hi − lo) / bins)`, the last one `hi`).
/// So `0.85` falls in bin 16 of 20 on `[0, 1]` (its edge `17 · 0.05` is 0.8500000000000001)
/// and `0.15` in bin 2. `None` for values it leaves out (outside `[lo, hi]`, NaN).
pub fn histogram_bin(v: f64, bins: usize, lo: f64, hi: f64) -> Option<usize> {
    if bins == 0 || hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    if !(lo..=hi).contains(&v) {
        return None;
    }
    let step = (hi - lo) / bins as f64;
    let edge = |i: usize| if i == bins { hi } else { i as f64 * step + lo };
    let mut i = (((v - lo) / (hi - lo)) * bins as f64) as usize;
    if i == bins {
        i -= 1;
    }
    if v < edge(i) {
        i = i.saturating_sub(1);
    } else if i != bins - 1 && v >= edge(i + 1) {
        i += 1;
    }
    Some(i)
}

/// Semantic-rule blame, as the report ranks it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RuleBlame {
    /// `(rule, count)` for `prevented_by_rule` ∉ {`none`, missing}, by count descending,
    /// ties in first-seen order (Python `Counter.most_common`).
    pub ranked: Vec<(String, usize)>,
    /// Rows mapped to `"none"`.
    pub none: usize,
    /// Rows with no `prevented_by_rule`.
    pub missing: usize,
}

/// Ranks blamed semantic rules. Example: `[a, b, b, none]` → `[(b, 2), (a, 1)]`, none 1.
pub fn rule_blame<'a, I: IntoIterator<Item = Option<&'a str>>>(rules: I) -> RuleBlame {
    let mut counts: IndexMap<String, usize> = IndexMap::new();
    let (mut none, mut missing) = (0, 0);
    for rule in rules {
        match rule {
            None => missing += 1,
            Some("none") => none += 1,
            Some(r) => *counts.entry(r.to_string()).or_insert(0) += 1,
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.1)); // stable: ties keep first-seen order
    RuleBlame {
        ranked,
        none,
        missing,
    }
}

/// Decidable verdict counts: rule → verdict string (`ok`, `violation`, `n/a`, or any other
/// string verbatim) → count. Rules and verdicts in first-seen order.
pub fn verdict_counts<'a, I>(pairs: I) -> IndexMap<String, IndexMap<String, usize>>
where
    I: IntoIterator<Item = (&'a str, &'a str)>,
{
    let mut out: IndexMap<String, IndexMap<String, usize>> = IndexMap::new();
    for (rule, verdict) in pairs {
        *out.entry(rule.to_string())
            .or_default()
            .entry(verdict.to_string())
            .or_insert(0) += 1;
    }
    out
}

#[cfg(test)]
#[path = "failures_tests.rs"]
mod tests;
