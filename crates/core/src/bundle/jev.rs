//! Jev-side and labelling rows: table ranking (`out/schema_retrieval.jsonl`), Jev failure
//! labels (`out/failure_labels.jsonl`), FM1–FM5 labels (`fm_labels.jsonl`) and gate rows
//! (`out/schema_retrieval_agent.jsonl`). See harness-formats.md §5.4, §7.6, §7.8, §6.4.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::scores::ScoresOf;
use super::{Extra, Name, Outcome, Scores, Usage};

/// One table-ranking row (§5.4). `ranked` is the whole universe in rank order and is
/// authoritative (stored `scores` are rounded to 4 dp). The stored per-row metrics
/// (`ndcg@10`, `recall@1`…`recall@10`) are kept in `extra` under their own names.
/// Read the scores with [`RankingRow::scores`]; equal rows have equal scores, table by
/// table, however they are kept.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RankingRow {
    /// Join key.
    pub trace_id: String,
    /// Gold tables, sorted.
    #[serde(default)]
    pub gold: Vec<Name>,
    /// Every universe table, best first.
    #[serde(default)]
    pub ranked: Vec<Name>,
    /// Table → P(needed), in rank order, as stored (4 dp); read through
    /// [`RankingRow::scores`].
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
    /// Makes `scores` keep no names when its tables are `ranked`'s in order (as a rule), else
    /// share each name with `ranked`, so a row holds each of its 710 names once ([`Scores::share_names`]).
    pub fn share_score_names(&mut self) {
        self.scores.share_names(&self.ranked);
    }

    /// The stored scores with their tables.
    pub fn scores(&self) -> ScoresOf<'_> {
        self.scores.with(&self.ranked)
    }
}

impl PartialEq for RankingRow {
    fn eq(&self, other: &Self) -> bool {
        self.trace_id == other.trace_id
            && self.gold == other.gold
            && self.ranked == other.ranked
            && self.scores() == other.scores()
            && self.latency_s == other.latency_s
            && self.extra == other.extra
    }
}

/// A ranking row as written: [`RankingRow`]'s fields, the scores with their tables.
#[derive(Serialize)]
struct RankingRowOut<'a> {
    trace_id: &'a str,
    gold: &'a [Name],
    ranked: &'a [Name],
    scores: ScoresOf<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latency_s: Option<f64>,
    #[serde(skip_serializing_if = "Extra::is_empty")]
    extra: &'a Extra,
}

impl Serialize for RankingRow {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RankingRowOut {
            trace_id: &self.trace_id,
            gold: &self.gold,
            ranked: &self.ranked,
            scores: self.scores(),
            latency_s: self.latency_s,
            extra: &self.extra,
        }
        .serialize(serializer)
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

    fn ranked_row(scores: &[(&str, f64)]) -> RankingRow {
        RankingRow {
            trace_id: "q1".into(),
            ranked: ["a.x", "a.y", "a.z"].map(Name::from).to_vec(),
            scores: scores.iter().map(|&(t, p)| (Name::from(t), p)).collect(),
            ..RankingRow::default()
        }
    }

    #[test]
    fn score_keys_share_the_ranked_names_in_or_out_of_order() {
        // In rank order but for the last two, and one table not ranked at all.
        let mut row = ranked_row(&[("a.x", 0.9), ("a.z", 0.2), ("a.y", 0.5), ("b.q", 0.1)]);
        let before = row.clone();
        row.share_score_names();
        let keys: Vec<&Name> = row.scores().keys().collect();
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
            row.scores()
                .iter()
                .map(|(t, p)| (&**t, p))
                .collect::<Vec<_>>(),
            [("a.x", 0.9), ("a.z", 0.2), ("a.y", 0.5), ("b.q", 0.1)]
        );
        assert_eq!(row.scores().get("a.y"), Some(0.5));
        assert_eq!(row, before);
    }

    #[test]
    fn scores_of_the_ranked_tables_in_order_keep_no_names_and_read_and_write_the_same() {
        let pairs = [("a.x", 0.9097), ("a.y", 0.5), ("a.z", 0.0299)];
        let mut row = ranked_row(&pairs);
        let json = serde_json::to_string(&row).unwrap();
        row.share_score_names();
        assert_eq!(
            format!("{:?}", row.scores),
            "<3 scores of the ranked tables>"
        );
        assert_eq!(
            row.scores()
                .iter()
                .map(|(t, p)| (&**t, p))
                .collect::<Vec<_>>(),
            pairs
        );
        assert_eq!(row.scores().get("a.z"), Some(0.0299));
        assert_eq!(row.scores().get("b.q"), None);
        // Written exactly as the row that kept its names; equal to it and to the row read back.
        assert_eq!(serde_json::to_string(&row).unwrap(), json);
        assert_eq!(
            json,
            r#"{"trace_id":"q1","gold":[],"ranked":["a.x","a.y","a.z"],"scores":{"a.x":0.9097,"a.y":0.5,"a.z":0.0299}}"#
        );
        let back: RankingRow = serde_json::from_str(&json).unwrap();
        assert_eq!(back, row);
        assert_ne!(
            ranked_row(&[("a.x", 0.9097), ("a.y", 0.5), ("a.z", 0.03)]),
            row
        );
    }
}
