//! The list of cells `j` / `k` walk (URL `from=`), and which corpus an open cell lives in.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use runlens_core::audit::audit_queue;
use runlens_core::bundle::{Bundle, Corpus, FailureLabel, Outcome};
use runlens_core::metrics::failures_view::{BaseFilter, Filter, Labelled, all_rows};

use crate::per_bundle::{Loaded, PerBundle, loaded};
use crate::state::ViewState;

/// Walk lists kept per bundle (the last few keys).
const KEPT_LISTS: usize = 8;

/// The walk lists built for one bundle, oldest first.
type Kept = Vec<(ListKey, Arc<Vec<CellId>>)>;

thread_local! {
    static LISTS: RefCell<PerBundle<Loaded, Kept>> = RefCell::default();
}

/// One cell: `(model key, trace id)`.
pub type CellId = (String, String);

/// What decides the walk list; a change of anything else (the open cell itself, mostly)
/// keeps the list, so `j` on a 200,000-cell corpus does not rebuild it.
#[derive(Debug, Clone, PartialEq)]
pub struct ListKey {
    /// Corpus name.
    pub corpus: String,
    /// `from=` value (`None`: every cell in results order).
    pub from: Option<String>,
    /// Model of the gate list (`gmodel`, else the open model).
    pub gate_model: Option<String>,
    /// Question of the `question` list.
    pub question: Option<String>,
    /// The audit threshold (`ct`).
    pub cdf_threshold: f64,
    /// The failures view's filters the `failures` list keeps (the list the reader came
    /// from: what the failures view lists).
    pub failures: FailuresScope,
}

/// The failures view's filters, as its address carries them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FailuresScope {
    /// The clicked element, `f=` (see [`Filter`]).
    pub filter: Option<String>,
    /// Model keys (`models=`; empty = all).
    pub models: Vec<String>,
    /// Sub-mode confidence range (`cmin`, `cmax`).
    pub conf: (f64, f64),
}

impl FailuresScope {
    /// The scope of the view state `s`.
    pub fn of(s: &ViewState) -> FailuresScope {
        FailuresScope {
            filter: s.filter.clone(),
            models: s.models.clone(),
            conf: (s.conf_min, s.conf_max),
        }
    }

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

impl ListKey {
    /// The key of the list a trajectory of `corpus` walks under the view state `s` (its
    /// `from`, and what that list depends on).
    pub fn of(corpus: String, s: &ViewState) -> ListKey {
        let from = s.from.as_deref();
        ListKey {
            corpus,
            gate_model: (from == Some("gate"))
                .then(|| s.gate_model.clone().or_else(|| s.cell_model.clone()))
                .flatten(),
            question: (from == Some("question"))
                .then(|| s.trace.clone())
                .flatten(),
            failures: if from == Some("failures") {
                FailuresScope::of(s)
            } else {
                FailuresScope::default()
            },
            from: s.from.clone(),
            cdf_threshold: s.cdf_threshold,
        }
    }

    /// The name of the list, for the navigation bar: `failures · wrong_filter`.
    pub fn label(&self) -> String {
        let scope = self.failures.describe();
        match list_label(self.from.as_deref()) {
            "failures" if !scope.is_empty() => format!("failures · {scope}"),
            name => name.to_owned(),
        }
    }
}

/// The walk list `key` names in `bundle`, if already built (see [`walk_list_of`]).
pub fn cached_walk_list(bundle: &Arc<Bundle>, key: &ListKey) -> Option<Arc<Vec<CellId>>> {
    LISTS.with_borrow_mut(|l| {
        l.of(loaded(bundle))
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    })
}

/// The walk list `key` names in `bundle` ([`walk_list`]), built once per bundle and key: on
/// the `large` preset the failures list takes ~20 ms, which each open of a trajectory from
/// the failures view paid (the failures view builds it in an idle moment beforehand).
pub fn walk_list_of(bundle: &Arc<Bundle>, key: &ListKey) -> Arc<Vec<CellId>> {
    if let Some(hit) = cached_walk_list(bundle, key) {
        return hit;
    }
    let built = Arc::new(walk_list(bundle, key));
    LISTS.with_borrow_mut(|l| {
        let kept = l.of(loaded(bundle));
        if kept.len() >= KEPT_LISTS {
            kept.remove(0);
        }
        kept.push((key.clone(), built.clone()));
    });
    built
}

fn id(model: &str, trace: &str) -> CellId {
    (model.to_owned(), trace.to_owned())
}

/// The name of the list, for the navigation bar.
pub fn list_label(from: Option<&str>) -> &'static str {
    match from {
        Some("failures") => "failures",
        Some("audit") => "audit queue",
        Some("gate") => "fired gate cells",
        Some("question") => "models on this question",
        _ => "all cells",
    }
}

/// The cells of the list `key` names, in order, each once.
///
/// - `failures`: what the failures view lists under `key.failures` (its filters), in file
///   order, less labels whose cell is a pass; without labels, every failed cell in results
///   order;
/// - `audit`: `audit_queue(corpus, ct)`;
/// - `gate`: gate rows of the model that fired, in file order;
/// - `question`: every model's cell on the question, in candidate order;
/// - otherwise every cell in results order.
pub fn walk_list(bundle: &Bundle, key: &ListKey) -> Vec<CellId> {
    let Some(corpus) = bundle.body.corpus(&key.corpus) else {
        return Vec::new();
    };
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    let mut out = Vec::new();
    match key.from.as_deref() {
        Some("failures") => {
            if corpus.failure_labels.is_empty() {
                for c in corpus.cells() {
                    if c.cell.outcome().is_some_and(|o| o.is_fail()) {
                        out.push(id(c.model, c.trace_id));
                    }
                }
            } else {
                for l in failures_listed(bundle, corpus, &key.failures) {
                    if seen.insert((&l.model, &l.trace_id)) {
                        out.push(id(&l.model, &l.trace_id));
                    }
                }
            }
        }
        Some("audit") => {
            out = audit_queue(corpus, key.cdf_threshold)
                .into_iter()
                .map(|i| (i.model, i.trace_id))
                .collect();
        }
        Some("gate") => {
            let model = key.gate_model.as_deref().unwrap_or_default();
            for g in &corpus.gate_rows {
                if g.model == model
                    && g.fired.unwrap_or(0) > 0
                    && seen.insert((&g.model, &g.trace_id))
                {
                    out.push(id(&g.model, &g.trace_id));
                }
            }
        }
        Some("question") => {
            let trace = key.question.as_deref().unwrap_or_default();
            if let Some(row) = corpus.results.iter().find(|r| r.trace_id == trace) {
                for (model, cell) in &row.candidates {
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

/// The failure labels of `corpus` the failures view lists under `scope`, in file order, less
/// those whose cell is a pass.
fn failures_listed<'a>(
    bundle: &'a Bundle,
    corpus: &'a Corpus,
    scope: &FailuresScope,
) -> Vec<&'a FailureLabel> {
    // One hash look-up per label (`Corpus::cell` scans the results: quadratic on a
    // 200,000-cell corpus).
    let mut rows: HashMap<&str, usize> = HashMap::new();
    for (i, r) in corpus.results.iter().enumerate() {
        rows.entry(r.trace_id.as_str()).or_insert(i);
    }
    let pass = |l: &FailureLabel| {
        rows.get(l.trace_id.as_str())
            .and_then(|&i| corpus.results.get(i))
            .and_then(|r| r.candidates.get(&l.model))
            .and_then(Option::as_ref)
            .and_then(|c| c.outcome())
            .is_some_and(|o| *o == Outcome::Pass)
    };
    if scope.is_everything() {
        return corpus.failure_labels.iter().filter(|l| !pass(l)).collect();
    }
    let base = BaseFilter {
        corpus: Some(corpus.name.clone()),
        models: scope.models.clone(),
        conf: scope.conf,
    };
    let filter = scope.filter.as_deref().and_then(Filter::parse);
    let b = Labelled::of(&bundle.body);
    all_rows(b)
        .into_iter()
        .filter(|r| base.keeps(b, r) && filter.as_ref().is_none_or(|f| f.matches(b, r)))
        .filter_map(|r| corpus.failure_labels.get(r.label))
        .filter(|l| !pass(l))
        .collect()
}

/// The corpus the open cell is read from: the named one when the bundle has it, else the
/// first corpus holding the cell, else the first corpus.
pub fn resolve_corpus(
    bundle: &Bundle,
    named: Option<&str>,
    model: Option<&str>,
    trace: Option<&str>,
) -> Option<String> {
    let corpora = &bundle.body.corpora;
    if let Some(c) = named.and_then(|n| bundle.body.corpus(n)) {
        return Some(c.name.clone());
    }
    let holding = match (model, trace) {
        (Some(m), Some(t)) => corpora.iter().find(|c| c.cell(t, m).is_some()),
        _ => None,
    };
    holding.or(corpora.first()).map(|c| c.name.clone())
}
