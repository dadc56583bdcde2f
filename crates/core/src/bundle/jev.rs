//! Jev-side and labelling rows: table ranking (`out/schema_retrieval.jsonl`), Jev failure
//! labels (`out/failure_labels.jsonl`), FM1–FM5 labels (`fm_labels.jsonl`) and gate rows
//! (`out/schema_retrieval_agent.jsonl`). See harness-formats.md §5.4, §7.6, §7.8, §6.4.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{Extra, Name, Outcome, Scores, Usage};

/// One table-ranking row (§5.4). `ranked` is the whole universe in rank order and is
/// authoritative (stored `scores` are rounded to 4 dp). The stored per-row metrics
/// (`ndcg@10`, `recall@1`…`recall@10`) are kept in `extra` under their own names.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RankingRow {
    /// Join key.
    pub trace_id: String,
    /// Gold tables, sorted.
    #[serde(default)]
    pub gold: Vec<Name>,
    /// Every universe table, best first.
    #[serde(default)]
    pub ranked: Vec<Name>,
    /// Table → P(needed), in rank order, as stored (4 dp).
    #[serde(default)]
    pub scores: Scores,
    /// Seconds for client construction plus the call (2 dp as stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_s: Option<f64>,
    /// Stored metrics and unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl RankingRow {
    /// Makes each `scores` key share its name with `ranked` (they list the same tables, as a
    /// rule in the same order), so a row holds each of its 710 names once. Keys not found in
    /// `ranked` keep their own copy.
    pub fn share_score_names(&mut self) {
        self.scores.share_names(&self.ranked);
    }
}

/// Code-computed facts sent with a labelling request (§7.4, §7.7).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Checks {
    /// Decidable rule key → `ok|violation|n/a`, in config order.
    #[serde(default)]
    pub decidable: IndexMap<String, String>,
    /// Number of non-blank statements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_queries: Option<u64>,
    /// Two statements equal after trim, lower-case and whitespace collapse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_repeated_query: Option<bool>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One Jev failure label (every field of `failure_labels.jsonl`, §7.6).
/// Probabilities are raw floats as read, never thresholded.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FailureLabel {
    /// Join key.
    pub trace_id: String,
    /// Candidate model key.
    pub model: String,
    /// The cell outcome at labelling time (`fail`, or `tie` with `--include-tie`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// One of the 16 sub-modes (kept as read, even if unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_mode: Option<String>,
    /// Choice confidence of `sub_mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sub_mode_confidence: Option<f64>,
    /// Family derived from the sub-mode (null when unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Summed probability of the chosen family (null without probabilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family_confidence: Option<f64>,
    /// A semantic-rule key or `"none"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prevented_by_rule: Option<String>,
    /// Choice confidence of `prevented_by_rule`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prevented_by_rule_confidence: Option<f64>,
    /// Noul P(yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_hint_would_help: Option<f64>,
    /// Noul P(yes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct_despite_fail: Option<f64>,
    /// The facts dict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
    /// Copy of `checks.decidable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decidable_verdicts: Option<IndexMap<String, String>>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl FailureLabel {
    /// The decidable rules' verdicts: `decidable_verdicts`, else `checks.decidable` (the
    /// harness writes both; older files only the second).
    pub fn decidable(&self) -> Option<&IndexMap<String, String>> {
        self.decidable_verdicts
            .as_ref()
            .or(self.checks.as_ref().map(|c| &c.decidable))
    }
}

/// One 07_failure_modes label (`fm_labels.jsonl`, §7.8): `FM1`…`FM5` or `FM?`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FmLabel {
    /// Join key.
    pub trace_id: String,
    /// Candidate model key.
    pub model: String,
    /// `FM1`…`FM5`, or `FM?` when the judge reply did not parse.
    pub fm: String,
    /// One-sentence reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One in-loop gate / prepend A/B row (§6.4), both arms. Error rows carry only
/// `trace_id`, `model`, `fired: 0`, both outcomes `error` and `cell_error`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GateRow {
    /// Join key.
    pub trace_id: String,
    /// Candidate model key.
    pub model: String,
    /// The ranking shown (prepend) or used (divergence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topk: Option<Vec<Name>>,
    /// Hints issued (0 or 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fired: Option<u32>,
    /// Gold tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<Vec<Name>>,
    /// Gold minus the tables the baseline read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_gold: Option<Vec<Name>>,
    /// `missed_gold` ∩ tables the gated arm read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missed_now_queried: Option<Vec<Name>>,
    /// `missed_gold` ∩ the top-k.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_covered_missed: Option<Vec<Name>>,
    /// Re-graded baseline arm outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_outcome: Option<Outcome>,
    /// Gated arm outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gated_outcome: Option<Outcome>,
    /// Outcome recorded in `results.jsonl` (null under `--fresh-baseline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_baseline: Option<Outcome>,
    /// Gated arm turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gated_turns: Option<u32>,
    /// Gated arm latency (s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gated_latency: Option<f64>,
    /// Gated arm usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gated_usage: Option<Usage>,
    /// Baseline arm turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_turns: Option<u32>,
    /// Baseline arm latency (s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_latency: Option<f64>,
    /// Baseline arm usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline_usage: Option<Usage>,
    /// Error text of an error row (`"rank: <Exc>: <msg>"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_error: Option<String>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl GateRow {
    /// True for an error row (either arm `error`).
    pub fn is_error(&self) -> bool {
        matches!(self.baseline_outcome, Some(Outcome::Error))
            || matches!(self.gated_outcome, Some(Outcome::Error))
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn score_keys_share_the_ranked_names_in_or_out_of_order() {
        let name = |s: &str| Name::from(s);
        let mut row = RankingRow {
            ranked: vec![name("a.x"), name("a.y"), name("a.z")],
            // In rank order but for the last two, and one table not ranked at all.
            scores: [("a.x", 0.9), ("a.z", 0.2), ("a.y", 0.5), ("b.q", 0.1)]
                .map(|(t, p)| (name(t), p))
                .into_iter()
                .collect(),
            ..RankingRow::default()
        };
        row.share_score_names();
        let keys: Vec<&Name> = row.scores.keys().collect();
        assert!(std::sync::Arc::ptr_eq(keys[0], &row.ranked[0]));
        assert!(std::sync::Arc::ptr_eq(keys[1], &row.ranked[2]));
        assert!(std::sync::Arc::ptr_eq(keys[2], &row.ranked[1]));
        assert!(
            !row.ranked
                .iter()
                .any(|r| std::sync::Arc::ptr_eq(keys[3], r))
        );
        // Same keys, values and order as before; lookups by &str still work.
        assert_eq!(
            row.scores
                .iter()
                .map(|(t, p)| (&**t, *p))
                .collect::<Vec<_>>(),
            [("a.x", 0.9), ("a.z", 0.2), ("a.y", 0.5), ("b.q", 0.1)]
        );
        assert_eq!(row.scores.get("a.y"), Some(&0.5));
    }
}
