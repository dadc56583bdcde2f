//! What the gate view shows for a corpus, computed where the bundle lives (the dashboard's
//! loader worker) and sent to the view: the groups (per model in first-seen order, then
//! pooled) with counts at once and bootstrap intervals when asked for, and one model's fired
//! rows. Every number equals `runlens metrics --json`'s `gate` section (10,000 resamples,
//! seed 42).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::bootstrap::{DEFAULT_RESAMPLES, DEFAULT_SEED};
use super::gate::{GateGroup, gate_analysis, gate_counts_analysis};
use crate::bundle::{BundleBody, Corpus, GateRow, GateRows};

pub use super::gate::ALL;

/// What the view asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateQuery {
    /// The chosen corpus (`None`: the first with gate rows).
    pub corpus: Option<String>,
    /// With the bootstrap intervals (slow on large runs); without, counts only.
    pub intervals: bool,
}

/// The answer to a [`GateQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateAnswer {
    /// Corpora with gate rows, in bundle order.
    pub names: Vec<String>,
    /// The corpus shown: the chosen one, else the first with gate rows, else `""`.
    pub shown: String,
    /// Per-model groups in first-seen order, then [`ALL`]; empty when the corpus shown has
    /// no gate rows. Without intervals their `*_ci` are `None`.
    pub groups: Vec<GateGroup>,
}

/// The fired rows (`fired ≥ 1`) of `model` in `rows`, in file order.
pub fn fired_rows(rows: GateRows<'_>, model: &str) -> Vec<GateRow> {
    rows.fired_of(model)
        .filter_map(|i| rows.get(i).map(std::borrow::Cow::into_owned))
        .collect()
}

/// The corpus named `name` if it has gate rows.
fn with_rows<'a>(body: &'a BundleBody, name: &str) -> Option<&'a Corpus> {
    body.corpora
        .iter()
        .find(|c| c.name == name && !c.gate().is_empty())
}

/// Answers gate queries on one bundle, keeping each corpus's intervals (the bootstrap) once
/// computed. Make a new one for another bundle.
#[derive(Debug, Default)]
pub struct GateAnswerer {
    full: HashMap<String, Vec<GateGroup>>,
}

impl GateAnswerer {
    /// The answer to `q`.
    pub fn answer(&mut self, body: &BundleBody, q: &GateQuery) -> GateAnswer {
        let names: Vec<String> = body
            .corpora
            .iter()
            .filter(|c| !c.gate().is_empty())
            .map(|c| c.name.clone())
            .collect();
        let shown = q
            .corpus
            .clone()
            .or_else(|| names.first().cloned())
            .unwrap_or_default();
        let groups = match with_rows(body, &shown) {
            None => Vec::new(),
            Some(c) if q.intervals => self
                .full
                .entry(shown.clone())
                .or_insert_with(|| gate_analysis(c.gate(), DEFAULT_RESAMPLES, DEFAULT_SEED))
                .clone(),
            Some(c) => match self.full.get(&shown) {
                Some(full) => full.clone(),
                None => gate_counts_analysis(c.gate()),
            },
        };
        GateAnswer {
            names,
            shown,
            groups,
        }
    }
}

/// The fired rows of `model` in corpus `corpus` (empty when it has none).
pub fn fired(body: &BundleBody, corpus: &str, model: &str) -> Vec<GateRow> {
    with_rows(body, corpus)
        .map(|c| fired_rows(c.gate(), model))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
