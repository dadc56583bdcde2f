//! What the trajectory view shows, computed where the bundle lives (the dashboard's loader
//! worker): the open cell in full with everything beside it (its question, ranking, labels
//! in force and as recorded, FM label, gate row), its place in the list `j` / `k` walk, and
//! the chooser's question search. The page holds only the answer.

use serde::{Deserialize, Serialize};

use super::walk::{CellId, KeptLists, WalkFrom, WalkPlace, resolve_corpus};
use crate::bundle::{
    BundleBody, Cell, FailureLabel, FmLabel, GateRow, Outcome, Question, RankingRow,
};
use crate::metrics::failures_view::Labelled;
use crate::overrides::{Relabel, RelabelledLabels};

/// What the view asks for: the address's cell and list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrajectoryQuery {
    /// The named corpus (`corpus=`); see [`resolve_corpus`].
    pub corpus: Option<String>,
    /// Model key (`tmodel=`).
    pub model: Option<String>,
    /// Trace id (`trace=`).
    pub trace: Option<String>,
    /// The list `j` / `k` walk.
    pub walk: WalkFrom,
    /// Re-labels in force, in the order applied.
    pub relabels: Vec<Relabel>,
}

/// One open cell with everything the view shows beside it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct OpenedCell {
    /// The cell in full (SQL results, final answer, votes' reasoning).
    pub cell: Cell,
    /// Its `annotated.jsonl` question.
    pub question: Option<Question>,
    /// The question's text: the annotated one, else the results row's (empty when neither).
    pub question_text: String,
    /// The question's table ranking.
    pub ranking: Option<RankingRow>,
    /// The cell's failure label in force (re-labels applied; the first of the cell's).
    pub label: Option<FailureLabel>,
    /// The cell's failure label as the bundle records it.
    pub recorded_label: Option<FailureLabel>,
    /// The cell's FM1–FM5 label.
    pub fm: Option<FmLabel>,
    /// The cell's gate row.
    pub gate: Option<GateRow>,
}

impl OpenedCell {
    /// The cell `model` × `trace` of corpus `corpus` of `b` (`None` when there is none).
    pub fn of(b: Labelled<'_>, corpus: &str, model: &str, trace: &str) -> Option<OpenedCell> {
        let i = b.body.corpora.iter().position(|c| c.name == corpus)?;
        let c = &b.body.corpora[i];
        let at = c.results.iter().position(|r| r.trace_id == trace)?;
        let row = &c.results[at];
        let cell = c.row_cells(at).get(model)?.into_owned();
        let question = c.question(trace).cloned();
        let question_text = question
            .as_ref()
            .map(|q| q.nl_question.clone())
            .filter(|t| !t.is_empty())
            .or_else(|| row.nl_question.clone())
            .unwrap_or_default();
        let of_cell = |l: &&FailureLabel| l.trace_id == trace && l.model == model;
        Some(OpenedCell {
            cell,
            question,
            question_text,
            ranking: c.rankings.iter().find(|r| r.trace_id == trace).cloned(),
            label: b.labels(i).iter().find(of_cell).cloned(),
            recorded_label: c.failure_labels.iter().find(of_cell).cloned(),
            fm: c
                .fm_labels
                .iter()
                .find(|l| l.trace_id == trace && l.model == model)
                .cloned(),
            gate: {
                let rows = c.gate();
                rows.position(trace, model)
                    .and_then(|i| rows.get(i))
                    .map(std::borrow::Cow::into_owned)
            },
        })
    }
}

/// The answer to a [`TrajectoryQuery`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrajectoryAnswer {
    /// The corpus the cell is read from ([`resolve_corpus`]; `None`: the bundle has none).
    pub corpus: Option<String>,
    /// The open cell's place in its list.
    pub place: WalkPlace,
    /// Whether the open cell is in the audit queue (at the list's `cdf_threshold`).
    pub in_audit_queue: bool,
    /// The open cell; `None` when the query names none or the corpus has no such cell.
    pub opened: Option<OpenedCell>,
}

/// The chooser's question: questions of `model` in `corpus` matching `search`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChoicesQuery {
    /// Corpus name.
    pub corpus: String,
    /// Model key.
    pub model: String,
    /// Text or trace id, any case (empty: every question).
    pub search: String,
    /// Questions listed at most.
    pub max: usize,
}

/// One question the chooser lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// Trace id.
    pub trace: String,
    /// Question text (empty when unknown).
    pub text: String,
    /// The model's outcome on it (`None`: unscored).
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// The questions `q` asks for, with the model's outcome, in results order: those where
/// `q.model` has a cell and whose
/// trace id or text contains `q.search` (case-insensitive), at most `q.max`.
pub fn choices(body: &BundleBody, q: &ChoicesQuery) -> Vec<Choice> {
    let Some(corpus) = body.corpus(&q.corpus) else {
        return Vec::new();
    };
    let questions = corpus.question_index();
    let search = q.search.to_lowercase();
    corpus
        .results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((r, corpus.row_cells(i).get(q.model.as_str())?)))
        .map(|(r, cell)| {
            let text = questions
                .get(r.trace_id.as_str())
                .map(|&i| corpus.questions[i].nl_question.clone())
                .or_else(|| r.nl_question.clone())
                .unwrap_or_default();
            Choice {
                trace: r.trace_id.clone(),
                text,
                outcome: cell.outcome().cloned(),
            }
        })
        .filter(|c| {
            search.is_empty()
                || c.trace.to_lowercase().contains(&search)
                || c.text.to_lowercase().contains(&search)
        })
        .take(q.max)
        .collect()
}

/// Answers trajectory queries on one bundle, keeping the labels per set of re-labels and the
/// last walk lists (a 200,000-cell list is built once, not at every `j`). Make a new one for
/// another bundle.
#[derive(Debug, Default)]
pub struct TrajectoryAnswerer {
    relabelled: RelabelledLabels,
    lists: KeptLists,
}

impl TrajectoryAnswerer {
    /// The answer to `q`.
    pub fn answer(&mut self, body: &BundleBody, q: &TrajectoryQuery) -> TrajectoryAnswer {
        if self.relabelled.put(body, &q.relabels) {
            self.lists.clear();
        }
        let b = Labelled::with(body, self.relabelled.labels());
        let (model, trace) = (q.model.as_deref(), q.trace.as_deref());
        let Some(corpus) = resolve_corpus(body, q.corpus.as_deref(), model, trace) else {
            return TrajectoryAnswer::default();
        };
        let list = self.lists.get(b, &corpus, &q.walk);
        let place = WalkPlace::of(&list, model, trace);
        let open: Option<CellId> = model.zip(trace).map(|(m, t)| (m.to_owned(), t.to_owned()));
        // The audit queue at the list's threshold (kept like any list: the same one when the
        // reader walks it).
        let audit = WalkFrom {
            from: Some("audit".to_owned()),
            cdf_threshold: q.walk.cdf_threshold,
            ..WalkFrom::default()
        };
        let in_audit_queue = open
            .as_ref()
            .is_some_and(|id| self.lists.get(b, &corpus, &audit).contains(id));
        let opened = open.and_then(|(m, t)| OpenedCell::of(b, &corpus, &m, &t));
        TrajectoryAnswer {
            corpus: Some(corpus),
            place,
            in_audit_queue,
            opened,
        }
    }
}
