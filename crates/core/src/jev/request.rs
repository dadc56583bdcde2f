//! The `POST /v1/systemone` request body (jev-api.md §4).
//!
//! "Content" fields (instructions, option descriptions, score levels, noul criteria) may be
//! a JSON string, object or array, so they are kept as [`serde_json::Value`].

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A decision request: one state and named questions about it.
///
/// `model` is optional here because the proxy fills in its configured default; the API
/// itself requires it. Question ids are never sent to the model; answers come back under
/// the same ids, in the same order.
///
/// ```
/// use runlens_core::jev::{Question, SystemOneRequest};
/// let request: SystemOneRequest = serde_json::from_str(
///     r#"{"model":"jev-1.13.0","state":{"message":"hi"},
///         "questions":{"mood":{"type":"score","criteria":["calm","angry"]}}}"#,
/// ).unwrap();
/// assert_eq!(request.model.as_deref(), Some("jev-1.13.0"));
/// assert!(matches!(&request.questions["mood"], Question::Score { criteria, .. } if criteria.len() == 2));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemOneRequest {
    /// Model name or alias (`jev-1.13.0`, `jev-latest`); `None` means "the server's default".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The content all questions refer to: a string, object or array.
    pub state: Value,
    /// Question id → question, in request order.
    pub questions: IndexMap<String, Question>,
}

/// One text question, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Question {
    /// Yes/no, answered with P(yes). `instructions` may be omitted when `criteria`
    /// describes at least one outcome.
    Noul {
        /// The yes/no question or statement.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions: Option<Value>,
        /// What counts as yes and/or no.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        criteria: Option<NoulCriteria>,
    },
    /// One label out of 1..=255 options, answered with a probability per label.
    Choice {
        /// What to decide.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions: Option<Value>,
        /// Label → description (`null` = interpret the label by its name alone).
        criteria: IndexMap<String, Value>,
    },
    /// An ordered rubric of 2..=10 levels, lowest first, answered with the expected level.
    Score {
        /// What to rate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions: Option<Value>,
        /// Level descriptions; position = level, from 0.
        criteria: Vec<Value>,
    },
}

impl Question {
    /// The wire tag: `"noul"`, `"choice"` or `"score"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Question::Noul { .. } => "noul",
            Question::Choice { .. } => "choice",
            Question::Score { .. } => "score",
        }
    }
}

/// Optional descriptions of the two outcomes of a noul question.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct NoulCriteria {
    /// What counts as yes.
    #[serde(rename = "true", default, skip_serializing_if = "Option::is_none")]
    pub when_true: Option<Value>,
    /// What counts as no.
    #[serde(rename = "false", default, skip_serializing_if = "Option::is_none")]
    pub when_false: Option<Value>,
}
