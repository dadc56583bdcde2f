//! A question with its ground truth (`annotated.jsonl`, harness-formats.md §2.2) and a
//! `results.jsonl` row (§3.3).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::{Cell, Extra, Name};

/// One `annotated.jsonl` row: the question and its majority-vote ground truth.
///
/// Excluded rows keep `excluded: true`, empty `agreers`/`gt_sql`/`gt_results` and
/// `gt_from: None`. Unknown fields (an adopter's extra question fields) are kept in `extra`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Question {
    /// Join key used everywhere.
    pub trace_id: String,
    /// The natural-language question.
    #[serde(default)]
    pub nl_question: String,
    /// Each annotator's full run, keyed by annotator model key, in file order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotators: Option<IndexMap<String, Cell>>,
    /// True when no two annotators agreed.
    #[serde(default)]
    pub excluded: bool,
    /// The annotators in the winning cluster.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agreers: Vec<String>,
    /// The annotator whose run became the gold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gt_from: Option<String>,
    /// Every SQL statement of the winning run, in order (exploratory and failed ones too).
    /// A `gt_sql` written as one string is stored as a one-element list with
    /// `gt_sql_was_string: true`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gt_sql: Vec<String>,
    /// True when the input wrote `gt_sql` as a single string rather than a list.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gt_sql_was_string: bool,
    /// Result text of each `gt_sql` statement.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gt_results: Vec<String>,
    /// The winning annotator's final answer.
    #[serde(default)]
    pub gt_answer: String,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl Question {
    /// "Usable" as 06_eval defines it: not excluded and `gt_results` non-empty.
    pub fn is_usable(&self) -> bool {
        !self.excluded && !self.gt_results.is_empty()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One `results.jsonl` row: every candidate's cell for one question.
///
/// `candidates` keeps the file's key order. A cell the harness wrote as JSON `null` is a
/// `None` map value; a model with no key at all is absent from the map.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResultRow {
    /// Join key.
    pub trace_id: String,
    /// The question text as 06_eval copied it (may be absent in old rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nl_question: Option<String>,
    /// The gold annotator, as copied by 06_eval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gt_from: Option<String>,
    /// Model key → cell (`None` = the harness wrote `null`).
    #[serde(default)]
    pub candidates: IndexMap<Name, Option<Cell>>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}
