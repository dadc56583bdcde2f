//! The lists a reader walks with `j` / `k` in the trajectory view (the address's `from=`):
//! which cells they hold, in which order, and where the open cell is in one.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::audit::audit_queue_of;
use crate::bundle::{BundleBody, Corpus, FailureLabel, Outcome};
use crate::metrics::failures_view::{BaseFilter, Filter, Labelled, all_rows};

/// One cell: `(model key, trace id)`.
pub type CellId = (String, String);

/// The failures view's filters, as its address carries them: what its list keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailuresScope {
    /// The clicked element, `f=` (see [`Filter`]).
    pub filter: Option<String>,
    /// Model keys (`models=`; empty = all).
    pub models: Vec<String>,
    /// Sub-mode confidence range (`cmin`, `cmax`).
    pub conf: (f64, f64),
}

impl Default for FailuresScope {
    fn default() -> Self {
        FailuresScope {
            filter: None,
            models: Vec::new(),
            conf: (0.0, 1.0),
        }
    }
}

impl FailuresScope {
    /// Whether it keeps every failure.
    pub fn is_everything(&self) -> bool {
        self.filter.is_none() && self.models.is_empty() && self.conf.0 <= 0.0 && self.conf.1 >= 1.0
    }

    /// What it keeps, in words, e.g. `wrong_filter · models: gpt-4.1`; empty for everything.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.filter.as_deref() {
            parts.push(Filter::parse(f).map_or_else(|| f.to_owned(), |f| f.describe()));
        }
        if !self.models.is_empty() {
            parts.push(format!("models: {}", self.models.join(", ")));
        }
        if self.conf.0 > 0.0 || self.conf.1 < 1.0 {
            parts.push(format!(
                "sub-mode confidence {}–{}",
                self.conf.0, self.conf.1
            ));
        }
        parts.join(" · ")
    }
}

/// Which list of a corpus: everything that decides its cells but the corpus.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WalkFrom {
    /// `from=` value: `failures`, `audit`, `gate`, `question`; anything else (or none) is
    /// every cell in results order.
    pub from: Option<String>,
    /// The model of the `gate` list.
    pub gate_model: Option<String>,
    /// The question of the `question` list.
    pub question: Option<String>,
    /// The audit threshold (`ct`) of the `audit` list.
    pub cdf_threshold: f64,
    /// What the `failures` list keeps.
    pub failures: FailuresScope,
}

impl WalkFrom {
    /// The name of the list, for the navigation bar: `failures · wrong_filter`.
    pub fn label(&self) -> String {
        let scope = self.failures.describe();
        match list_label(self.from.as_deref()) {
            "failures" if !scope.is_empty() => format!("failures · {scope}"),
            name => name.to_owned(),
        }
    }
}

/// The name of the list `from=` names.
pub fn list_label(from: Option<&str>) -> &'static str {
    match from {
        Some("failures") => "failures",
        Some("audit") => "audit queue",
        Some("gate") => "fired gate cells",
        Some("question") => "models on this question",
        _ => "all cells",
    }
}

/// Cells of the list sent on each side of the open one ([`WalkPlace::window`]): keys pressed
/// faster than the answers come walk on from them.
pub const WINDOW: usize = 32;

/// Where the open cell is in its list, with the cells around it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WalkPlace {
    /// Cells in the list.
    pub len: usize,
    /// The open cell's index, when it is in the list.
    pub position: Option<usize>,
    /// The list's index of `window[0]`.
    pub start: usize,
    /// Up to [`WINDOW`] cells before the open one, it, and up to [`WINDOW`] after it; the
    /// list's first [`WINDOW`] cells when the open one is not in it.
    pub window: Vec<CellId>,
}

impl WalkPlace {
    /// The place of `(model, trace)` in `list`.
    pub fn of(list: &[CellId], model: Option<&str>, trace: Option<&str>) -> WalkPlace {
        let position = match (model, trace) {
            (Some(m), Some(t)) => list.iter().position(|(lm, lt)| lm == m && lt == t),
            _ => None,
        };
        let start = position.map_or(0, |i| i.saturating_sub(WINDOW));
        let end = position.map_or(WINDOW, |i| i + WINDOW + 1).min(list.len());
        WalkPlace {
            len: list.len(),
            position,
            start,
            window: list[start..end].to_vec(),
        }
    }

    /// The list's index of `cell`, when the window holds it.
    pub fn index_of(&self, cell: (&str, &str)) -> Option<usize> {
        self.window
            .iter()
            .position(|(m, t)| (m.as_str(), t.as_str()) == cell)
            .map(|i| self.start + i)
    }

    /// The cell `delta` places from `cell` (the open one, or one walked to since), when the
    /// window holds it; from a cell not in the list, `+1` is the list's first.
    pub fn neighbour(&self, cell: (&str, &str), delta: isize) -> Option<CellId> {
        let at = match self.index_of(cell) {
            Some(i) => i.checked_add_signed(delta)?,
            None if self.position.is_none() && delta == 1 && self.start == 0 => 0,
            None => return None,
        };
        self.window.get(at.checked_sub(self.start)?).cloned()
    }
}

fn id(model: &str, trace: &str) -> CellId {
    (model.to_owned(), trace.to_owned())
}

/// The cells of corpus `corpus`'s list `from`, in order, each once, with the labels in force
/// of `b`:
///
/// - `failures`: what the failures view lists under `from.failures`, in file order, less
///   labels whose cell is a pass; a corpus without labels lists every failed cell in results
///   order;
/// - `audit`: the audit queue at `from.cdf_threshold`;
/// - `gate`: the gate rows of `from.gate_model` that fired, in file order;
/// - `question`: every model's cell on `from.question`, in candidate order;
/// - otherwise every cell in results order.
///
/// An unknown corpus lists nothing.
pub fn walk_list(b: Labelled<'_>, corpus: &str, from: &WalkFrom) -> Vec<CellId> {
    let Some(i) = b.body.corpora.iter().position(|c| c.name == corpus) else {
        return Vec::new();
    };
    let corpus = &b.body.corpora[i];
    let labels = b.labels(i);
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut out = Vec::new();
    match from.from.as_deref() {
        Some("failures") if labels.is_empty() => {
            for c in corpus.cells() {
                if c.cell.outcome().is_some_and(|o| o.is_fail()) {
                    out.push(id(c.model, c.trace_id));
                }
            }
        }
        Some("failures") => {
            for l in failures_listed(b, i, &from.failures) {
                if seen.insert((&l.model, &l.trace_id)) {
                    out.push(id(&l.model, &l.trace_id));
                }
            }
        }
        Some("audit") => {
            out = audit_queue_of(corpus, labels, from.cdf_threshold)
                .into_iter()
                .map(|i| (i.model, i.trace_id))
                .collect();
        }
        Some("gate") => {
            let model = from.gate_model.as_deref().unwrap_or_default();
            let rows = corpus.gate();
            for i in rows.fired_of(model) {
                if let Some(t) = rows.trace_id(i)
                    && seen.insert((model, t))
                {
                    out.push(id(model, t));
                }
            }
        }
        Some("question") => {
            let trace = from.question.as_deref().unwrap_or_default();
            if let Some(row) = corpus.results.iter().position(|r| r.trace_id == trace) {
                for (model, cell) in corpus.row_cells(row).iter() {
                    if cell.is_some() {
                        out.push(id(model, trace));
                    }
                }
            }
        }
        _ => {
            for c in corpus.cells() {
                out.push(id(c.model, c.trace_id));
            }
        }
    }
    out
}

/// The labels in force of corpus `i` the failures view lists under `scope`, in file order,
/// less those whose cell is a pass.
fn failures_listed<'a>(b: Labelled<'a>, i: usize, scope: &FailuresScope) -> Vec<&'a FailureLabel> {
    let corpus: &'a Corpus = &b.body.corpora[i];
    // One hash look-up per label (`Corpus::cell` scans the results: quadratic on a
    // 200,000-cell corpus).
    let rows = corpus.result_index();
    let pass = |l: &FailureLabel| {
        rows.get(l.trace_id.as_str())
            .and_then(|&r| corpus.row_cells(r).get(l.model.as_str()))
            .is_some_and(|c| c.outcome() == Some(&Outcome::Pass))
    };
    if scope.is_everything() {
        return b.labels(i).iter().filter(|l| !pass(l)).collect();
    }
    let base = BaseFilter {
        corpus: Some(corpus.name.clone()),
        models: scope.models.clone(),
        conf: scope.conf,
    };
    let filter = scope.filter.as_deref().and_then(Filter::parse);
    all_rows(b)
        .into_iter()
        .filter(|r| base.keeps(b, r) && filter.as_ref().is_none_or(|f| f.matches(b, r)))
        .filter_map(|r| b.label(&r))
        .filter(|l| !pass(l))
        .collect()
}

/// The corpus an open cell is read from: the named one when the body has it, else the first
/// corpus holding the cell, else the first corpus.
pub fn resolve_corpus(
    body: &BundleBody,
    named: Option<&str>,
    model: Option<&str>,
    trace: Option<&str>,
) -> Option<String> {
    let corpora = &body.corpora;
    if let Some(c) = named.and_then(|n| body.corpus(n)) {
        return Some(c.name.clone());
    }
    let holding = match (model, trace) {
        (Some(m), Some(t)) => corpora.iter().find(|c| c.cell(t, m).is_some()),
        _ => None,
    };
    holding.or(corpora.first()).map(|c| c.name.clone())
}

/// A corpus name and a list of it.
type ListKey = (String, WalkFrom);

/// Lists kept by [`super::view::TrajectoryAnswerer`]: the last few, by corpus and list.
#[derive(Debug, Default)]
pub struct KeptLists {
    kept: Vec<(ListKey, Arc<Vec<CellId>>)>,
}

/// Lists kept at most.
const KEPT_LISTS: usize = 8;

impl KeptLists {
    /// The list `from` of `corpus`, built once while kept.
    pub fn get(&mut self, b: Labelled<'_>, corpus: &str, from: &WalkFrom) -> Arc<Vec<CellId>> {
        let key = (corpus.to_owned(), from.clone());
        if let Some((_, hit)) = self.kept.iter().find(|(k, _)| *k == key) {
            return hit.clone();
        }
        let built = Arc::new(walk_list(b, corpus, from));
        if self.kept.len() >= KEPT_LISTS {
            self.kept.remove(0);
        }
        self.kept.push((key, built.clone()));
        built
    }

    /// Forgets every list (the labels in force changed).
    pub fn clear(&mut self) {
        self.kept.clear();
    }
}
