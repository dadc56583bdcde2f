//! One candidate cell (a model's run on a question) and its judge panel, as the harness
//! stores them under `results.jsonl` → `candidates[<model>]` (harness-formats.md §3–§4).
//!
//! Conventions: every field the harness may omit is an `Option`; missing stays missing and is
//! never read as zero. Unknown fields are kept in `extra`.

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Extra, Name, Usage};

/// A cell, judge-panel or vote outcome, kept exactly as the harness wrote it.
///
/// `Loss` is the legacy spelling of `Fail`: 06_eval's tally and the gate script read it as a
/// failure, but the board script (08_results_stats) excludes it (see [`LossRule`]).
/// Any other string is kept in `Other` so nothing read is lost.
///
/// ```
/// use runlens_core::bundle::{LossRule, Outcome};
/// let loss = Outcome::from_str_lossless("loss");
/// assert_eq!(loss.score(LossRule::Excluded), None);
/// assert_eq!(loss.score(LossRule::AsFail), Some(0.0));
/// assert_eq!(Outcome::from_str_lossless("tie").score(LossRule::Excluded), Some(0.5));
/// assert_eq!(Outcome::from_str_lossless("error").score(LossRule::AsFail), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `"pass"`.
    Pass,
    /// `"fail"`.
    Fail,
    /// `"tie"`.
    Tie,
    /// `"error"` (infra or judge failure; excluded from pass rates).
    Error,
    /// `"loss"`, the legacy spelling of fail.
    Loss,
    /// Any other string, kept verbatim.
    Other(String),
}

impl Outcome {
    /// Parses a harness outcome string; never fails (unknown strings become `Other`).
    pub fn from_str_lossless(s: &str) -> Outcome {
        match s {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            "tie" => Outcome::Tie,
            "error" => Outcome::Error,
            "loss" => Outcome::Loss,
            other => Outcome::Other(other.to_owned()),
        }
    }

    /// The string as the harness wrote it.
    pub fn as_str(&self) -> &str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Tie => "tie",
            Outcome::Error => "error",
            Outcome::Loss => "loss",
            Outcome::Other(s) => s,
        }
    }

    /// Pass-rate score (harness-formats §4.1, §11.2): pass 1, tie 0.5, fail 0; legacy `loss`
    /// as `loss` says; `None` (excluded) otherwise.
    pub fn score(&self, loss: LossRule) -> Option<f64> {
        match self {
            Outcome::Pass => Some(1.0),
            Outcome::Tie => Some(0.5),
            Outcome::Fail => Some(0.0),
            Outcome::Loss => match loss {
                LossRule::Excluded => None,
                LossRule::AsFail => Some(0.0),
            },
            Outcome::Error | Outcome::Other(_) => None,
        }
    }

    /// True for `fail` and its legacy spelling `loss`.
    pub fn is_fail(&self) -> bool {
        matches!(self, Outcome::Fail | Outcome::Loss)
    }
}

/// How the leaderboard scores a legacy `loss` cell.
///
/// The board script 08_results_stats, the source of every published board figure, scores only
/// pass/tie/fail and excludes every other outcome, `loss` included, like an infra error:
/// [`LossRule::Excluded`], the default. 06_eval's running tally reads `loss` as a failure:
/// [`LossRule::AsFail`] (`runlens metrics --loss-as-fail`, the app's "loss as fail" switch).
/// The gate keeps its own rule (RECOVERABLE = fail, loss, tie) whatever this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossRule {
    /// `loss` is excluded from the pass rate (the harness's board).
    #[default]
    Excluded,
    /// `loss` scores 0, like `fail` (06_eval's tally).
    AsFail,
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Outcome::from_str_lossless(&text))
    }
}

/// One candidate's run on one question (also used for the annotators' runs in
/// `annotated.jsonl`, which have the same shape minus `result_score`).
///
/// `sqls[i]` and `sql_results[i]` are parallel, in call order. A result the harness wrote as a
/// non-string JSON value is stored as its compact JSON text (the importer warns).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Cell {
    /// Every SQL statement issued, in order (absent in the input → empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sqls: Vec<String>,
    /// The result text of each statement (JSONEachRow, `Error: ...` or `(empty result)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sql_results: Vec<String>,
    /// The final answer text; `None` when absent or null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_answer: Option<String>,
    /// Model calls made (a turn is one model call, not one SQL call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// Wall-clock seconds, unrounded as read; `None` on the infra-error path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
    /// The judge panel output; `None` for annotator runs and cells never scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_score: Option<ResultScore>,
    /// Provider model id actually served, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_model: Option<Name>,
    /// Runner error (`"max turns (60)"`, `"max output tokens"`, an exception string, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Token usage; `None` when `null` or absent (unknown, never zero).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Unknown fields of the cell, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
    /// Where the cell's text record is when a reader left it in its chunk
    /// ([`crate::bundle::v2::read_bundle_light`]): the cell then holds its columns only
    /// (no SQL, results, answer, votes or per-call usage) until
    /// [`crate::bundle::v2::fill_cell`] puts the record back. Never written.
    #[serde(skip)]
    pub text_at: Option<TextAt>,
}

/// A v2 cell's text record: its place in the cells table's text chunks, and the one fact of
/// it the metrics read (the number of SQL statements, a column). 32-bit fields (a reader
/// refuses a value past them): every light cell holds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextAt {
    /// The cell's row in the cells table (for errors).
    pub row: u32,
    /// The text chunk (`cells.text/<chunk>.gz`).
    pub chunk: u32,
    /// Byte offset of the record in the inflated chunk.
    pub offset: u32,
    /// Its length in bytes (0: an empty record).
    pub len: u32,
    /// `len(sqls)`.
    pub n_sqls: u32,
}

impl Cell {
    /// The cell's outcome (`result_score.outcome`), if it was scored.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.result_score.as_ref().and_then(|r| r.outcome.as_ref())
    }

    /// `len(sqls)`, also for a cell whose text record is still in its chunk.
    pub fn n_sqls(&self) -> usize {
        self.text_at.map_or(self.sqls.len(), |t| t.n_sqls as usize)
    }
}

/// The judge panel output stored as a cell's `result_score` (§4.2).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResultScore {
    /// Aggregated outcome (`pass|fail|tie|error`, legacy `loss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Reason text (present on short-circuit and error outcomes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Judge model keys, one per seat, in seat order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<Vec<String>>,
    /// Live-vote counts by outcome (`{"pass": 2, "fail": 1}`), in the order read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Box<IndexMap<String, u32>>>,
    /// Every judge vote, in panel order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub votes: Option<Vec<Vote>>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One judge's vote. Older rows carry only `verdict`; both are kept as read.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Vote {
    /// `pass|fail|tie|error` (absent in old rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// `equivalent|not_equivalent|cannot_determine|error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// The judge's one-sentence reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Judge model key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<String>,
    /// Deterministic comparison shown to the judge (`EQUIVALENT` / `NOT EQUIVALENT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_equiv: Option<String>,
    /// Unknown fields, kept verbatim.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl Vote {
    /// The vote's outcome as the harness's 10/13 scripts read it: `outcome`, or else the
    /// `verdict` mapped (`equivalent`→pass, `not_equivalent`→fail, `cannot_determine`→tie,
    /// `error`→error, other verdicts kept as `Other`).
    pub fn effective_outcome(&self) -> Option<Outcome> {
        if let Some(o) = &self.outcome {
            return Some(o.clone());
        }
        self.verdict.as_deref().map(|v| match v {
            "equivalent" => Outcome::Pass,
            "not_equivalent" => Outcome::Fail,
            "cannot_determine" => Outcome::Tie,
            other => Outcome::from_str_lossless(other),
        })
    }
}
