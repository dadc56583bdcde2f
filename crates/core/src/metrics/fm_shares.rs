//! FM1–FM5 shares per model from 07's `fm_labels.jsonl` (harness-formats §9.3).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// The five FM codes, in column order.
pub const FM_CODES: [&str; 5] = ["FM1", "FM2", "FM3", "FM4", "FM5"];

/// One model's row of the FM heatmap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FmShareRow {
    /// Model key.
    pub model: String,
    /// Labels for this model (every `fm`, including `FM?` and unknown codes).
    pub total: usize,
    /// Count per code `FM1..FM5`.
    pub counts: [usize; 5],
    /// `100 · count / total` per code; a row may sum to less than 100 because `FM?` (and
    /// any other code) counts in the total only.
    pub percent: [f64; 5],
}

/// Row-normalised FM shares per model, models in first-seen order.
///
/// Example: labels `[FM2, FM2, FM?, FM5]` for one model → total 4, FM2 50 %, FM5 25 %.
pub fn fm_shares<'a, I: IntoIterator<Item = (&'a str, &'a str)>>(rows: I) -> Vec<FmShareRow> {
    let mut by: IndexMap<&str, (usize, [usize; 5])> = IndexMap::new();
    for (model, fm) in rows {
        let entry = by.entry(model).or_insert((0, [0; 5]));
        entry.0 += 1;
        if let Some(i) = FM_CODES.iter().position(|c| *c == fm) {
            entry.1[i] += 1;
        }
    }
    by.into_iter()
        .map(|(model, (total, counts))| FmShareRow {
            model: model.to_string(),
            total,
            counts,
            percent: counts.map(|c| 100.0 * c as f64 / total as f64),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn fm_question_marks_count_in_total_only() {
        let rows = fm_shares([
            ("m", "FM2"),
            ("m", "FM2"),
            ("m", "FM?"),
            ("m", "FM5"),
            ("n", "FM1"),
        ]);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].total, 4);
        assert_eq!(rows[0].counts, [0, 2, 0, 0, 1]);
        assert_eq!(
            rows[0].percent,
            [0.0, 100.0 * 2.0 / 4.0, 0.0, 0.0, 100.0 * 1.0 / 4.0]
        );
        assert!(rows[0].percent.iter().sum::<f64>() < 100.0);
        assert_eq!(rows[1].percent[0], 100.0);
    }
}
