//! A corpus's gate rows, wherever it keeps them: in its own `gate_rows` (a bundle read
//! whole), or in a [`GateSource`] that makes each row from columns when it is asked for (a
//! v2 bundle read light, [`super::v2::read_bundle_light`]: a 368-byte `GateRow` per row was a
//! sixth of what a browser's worker held for `large`). Readers go through
//! [`super::Corpus::gate`] and do not know which; the gate metrics read [`GateFacts`] alone.

use std::borrow::Cow;
use std::fmt;

use super::light::Light;
use super::{GateRow, Outcome};

/// What the gate metrics (harness-formats §6.5) read of one arm of a gate row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ArmFacts {
    /// The outcome is `pass`.
    pub pass: bool,
    /// The outcome is `fail`, `loss` or `tie` (the summary's rule for a recoverable cell).
    pub recoverable: bool,
    /// Turns, if known.
    pub turns: Option<u32>,
    /// Output (completion) tokens, if known.
    pub output_tokens: Option<u64>,
}

impl ArmFacts {
    fn of(outcome: Option<&Outcome>, turns: Option<u32>, output_tokens: Option<u64>) -> ArmFacts {
        ArmFacts {
            pass: matches!(outcome, Some(Outcome::Pass)),
            recoverable: matches!(outcome, Some(Outcome::Fail | Outcome::Loss | Outcome::Tie)),
            turns,
            output_tokens,
        }
    }
}

/// What the gate metrics read of a gate row: a few bytes instead of the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GateFacts {
    /// `fired ≥ 1`.
    pub fired: bool,
    /// The exact chain: the baseline missed a gold table, the note named it, and the gated
    /// run queried it (`missed_gold` not empty and `missed_now_queried ∩
    /// note_covered_missed ≠ ∅`).
    pub chain: bool,
    /// Re-grade drift: `recorded_baseline` non-null and ≠ `baseline_outcome`.
    pub drift: bool,
    /// The baseline arm.
    pub baseline: ArmFacts,
    /// The gated arm.
    pub gated: ArmFacts,
}

impl GateFacts {
    /// The facts of `row`.
    pub fn of(row: &GateRow) -> GateFacts {
        let chain = match (&row.missed_now_queried, &row.note_covered_missed) {
            (Some(now), Some(note)) => {
                row.missed_gold.as_ref().is_some_and(|m| !m.is_empty())
                    && now.iter().any(|t| note.contains(t))
            }
            _ => false,
        };
        let output = |u: &Option<super::Usage>| u.as_ref().and_then(|u| u.completion_tokens());
        GateFacts {
            fired: row.fired.is_some_and(|f| f >= 1),
            chain,
            drift: row
                .recorded_baseline
                .as_ref()
                .is_some_and(|rb| Some(rb) != row.baseline_outcome.as_ref()),
            baseline: ArmFacts::of(
                row.baseline_outcome.as_ref(),
                row.baseline_turns,
                output(&row.baseline_usage),
            ),
            gated: ArmFacts::of(
                row.gated_outcome.as_ref(),
                row.gated_turns,
                output(&row.gated_usage),
            ),
        }
    }
}

/// Gate rows kept outside the corpus: each made when asked for, the same every time.
pub trait GateSource: fmt::Debug + Send + Sync {
    /// Number of rows.
    fn rows(&self) -> usize;
    /// Row `i`, made.
    fn row(&self, i: usize) -> Option<GateRow>;
    /// Row `i`'s question key (no row made).
    fn trace_id(&self, i: usize) -> Option<&str>;
    /// Row `i`'s model key (no row made).
    fn model(&self, i: usize) -> Option<&str>;
    /// Row `i`'s facts (no row made); the same as [`GateFacts::of`] the row.
    fn facts(&self, i: usize) -> Option<GateFacts>;
}

/// A corpus's [`GateSource`], if its gate rows are kept outside it (then its `gate_rows` is
/// empty). Equal when both make the same rows.
pub type LightGate = Light<dyn GateSource>;

impl PartialEq for LightGate {
    fn eq(&self, other: &LightGate) -> bool {
        match (self.source(), other.source()) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.rows() == b.rows() && (0..a.rows()).all(|i| a.row(i) == b.row(i))
            }
            _ => false,
        }
    }
}

/// A corpus's gate rows, held or made. Copy it freely: it is two references.
#[derive(Clone, Copy)]
pub struct GateRows<'a> {
    held: &'a [GateRow],
    source: Option<&'a dyn GateSource>,
}

impl<'a> GateRows<'a> {
    /// The rows `held`, or those of `source` when there is one.
    pub(crate) fn new(held: &'a [GateRow], source: Option<&'a dyn GateSource>) -> Self {
        GateRows { held, source }
    }

    /// Rows held in a slice.
    pub fn held(rows: &'a [GateRow]) -> Self {
        GateRows::new(rows, None)
    }

    /// Number of rows.
    pub fn len(self) -> usize {
        match self.source {
            Some(s) => s.rows(),
            None => self.held.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Row `i`, borrowed or made.
    pub fn get(self, i: usize) -> Option<Cow<'a, GateRow>> {
        match self.source {
            Some(s) => s.row(i).map(Cow::Owned),
            None => self.held.get(i).map(Cow::Borrowed),
        }
    }

    /// Row `i`'s question key.
    pub fn trace_id(self, i: usize) -> Option<&'a str> {
        match self.source {
            Some(s) => s.trace_id(i),
            None => self.held.get(i).map(|r| r.trace_id.as_str()),
        }
    }

    /// Row `i`'s model key.
    pub fn model(self, i: usize) -> Option<&'a str> {
        match self.source {
            Some(s) => s.model(i),
            None => self.held.get(i).map(|r| r.model.as_str()),
        }
    }

    /// Row `i`'s facts, without making a row of a light corpus.
    pub fn facts(self, i: usize) -> Option<GateFacts> {
        match self.source {
            Some(s) => s.facts(i),
            None => self.held.get(i).map(GateFacts::of),
        }
    }

    /// Every row, in order.
    pub fn iter(self) -> impl Iterator<Item = Cow<'a, GateRow>> {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// The rows of `model` whose hint fired (`fired ≥ 1`), in file order.
    pub fn fired_of(self, model: &str) -> impl Iterator<Item = usize> {
        (0..self.len()).filter(move |&i| {
            self.model(i) == Some(model) && self.facts(i).is_some_and(|f| f.fired)
        })
    }

    /// The first row of `model` on `trace_id`.
    pub fn position(self, trace_id: &str, model: &str) -> Option<usize> {
        (0..self.len())
            .find(|&i| self.trace_id(i) == Some(trace_id) && self.model(i) == Some(model))
    }
}
