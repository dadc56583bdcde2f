//! The list of cells `j` / `k` walk (URL `from=`), and which corpus an open cell lives in.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use runlens_core::audit::audit_queue;
use runlens_core::bundle::{Bundle, Corpus, Outcome};

use crate::per_bundle::{Loaded, PerBundle, loaded};

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
}

impl ListKey {
    /// The key of the `failures` list of `corpus` (what the viewer builds for a cell opened
    /// from the failures view, whose address carries `ct` = `cdf_threshold`).
    pub fn failures(corpus: &str, cdf_threshold: f64) -> ListKey {
        ListKey {
            corpus: corpus.to_owned(),
            from: Some("failures".into()),
            gate_model: None,
            question: None,
            cdf_threshold,
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
    let built = Arc::new(
        bundle
            .body
            .corpus(&key.corpus)
            .map(|c| walk_list(c, key))
            .unwrap_or_default(),
    );
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
/// - `failures`: failure labels in file order whose cell is not a pass; without labels,
///   every failed cell in results order;
/// - `audit`: `audit_queue(corpus, ct)`;
/// - `gate`: gate rows of the model that fired, in file order;
/// - `question`: every model's cell on the question, in candidate order;
/// - otherwise every cell in results order.
pub fn walk_list(corpus: &Corpus, key: &ListKey) -> Vec<CellId> {
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
                // One hash look-up per label (`Corpus::cell` scans the results: quadratic
                // on a 200,000-cell corpus).
                let mut rows: HashMap<&str, usize> = HashMap::new();
                for (i, r) in corpus.results.iter().enumerate() {
                    rows.entry(r.trace_id.as_str()).or_insert(i);
                }
                for l in &corpus.failure_labels {
                    let pass = rows
                        .get(l.trace_id.as_str())
                        .and_then(|&i| corpus.results.get(i))
                        .and_then(|r| r.candidates.get(&l.model))
                        .and_then(Option::as_ref)
                        .and_then(|c| c.outcome())
                        .is_some_and(|o| *o == Outcome::Pass);
                    if !pass && seen.insert((&l.model, &l.trace_id)) {
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
