//! The `POST /v1/systemone` response body (jev-api.md §5).
//!
//! Like the official SDK, parsing ignores unknown top-level fields, unknown answer fields
//! and unknown answer types (kept as [`Answer::Unknown`]), for forward compatibility.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Answers to one request.
///
/// ```
/// use runlens_core::jev::{Answer, SystemOneResponse};
/// let response: SystemOneResponse = serde_json::from_str(
///     r#"{"model":"jev-1.13.0","answers":{"b":{"type":"noul","noul":0.98},
///        "x":{"type":"box","box":{}}},"usage":{"input_tokens":5,"output_tokens":1},"extra":1}"#,
/// ).unwrap();
/// assert_eq!(response.answers["b"], Answer::Noul { noul: 0.98 });
/// assert_eq!(response.answers["x"], Answer::Unknown);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemOneResponse {
    /// The versioned model id that answered (`jev-1.13.0`), even when an alias was sent.
    pub model: String,
    /// Question id → answer, one per question.
    pub answers: IndexMap<String, Answer>,
    /// Token counts (absent from some compatible servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// Token counts of one request; only input tokens are billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Billable input tokens.
    pub input_tokens: u64,
    /// Output tokens (free).
    pub output_tokens: u64,
}

/// One answer, tagged by `"type"` like its question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Answer {
    /// P(yes) in [0, 1]; a noul has no `confidence`.
    Noul {
        /// Probability of yes.
        noul: f64,
    },
    /// The argmax label with the probability of every label.
    Choice {
        /// The most probable label.
        choice: String,
        /// `(p_max − 1/n) / (1 − 1/n)` on the official API; 0 for a uniform distribution.
        #[serde(default)]
        confidence: f64,
        /// Label → probability, keyed exactly by the option labels.
        #[serde(default)]
        probabilities: IndexMap<String, f64>,
    },
    /// The expected level Σ i·pᵢ (may fall between levels).
    Score {
        /// Expected level.
        score: f64,
        /// Confidence in [0, 1].
        #[serde(default)]
        confidence: f64,
        /// `"0"`.. → level description, echoing the criteria.
        #[serde(default)]
        legend: IndexMap<String, Value>,
        /// `"0"`.. → probability of that level.
        #[serde(default)]
        probabilities: IndexMap<String, f64>,
    },
    /// Any other answer type (`box`, or one added later).
    #[serde(other)]
    Unknown,
}
