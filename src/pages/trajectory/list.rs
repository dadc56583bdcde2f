//! The list of cells `j` / `k` walk (URL `from=`), and which corpus an open cell lives in.

use std::collections::{HashMap, HashSet};

use runlens_core::audit::audit_queue;
use runlens_core::bundle::{Bundle, Corpus};

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
                        .is_some_and(|o| o.score() == Some(1.0));
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
