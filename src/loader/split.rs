//! Splitting a bundle into a skeleton and JSON chunks (worker side) and putting it back
//! together (main thread, [`super::assemble`]), so that no single main-thread step parses more than about
//! [`CHUNK_BYTES`] of JSON.
//!
//! Bundles above [`STRIP_ABOVE_BYTES`] of JSON travel as a *view bundle*: long trajectory
//! text no view computes with (SQL results, final answers, judge and vote reasoning, FM
//! reasons) is replaced by empty strings, so counts and presence stay exact; per-turn token
//! lists (`usage.per_turn` of cells and gate rows; only the trajectory viewer's chart reads
//! them, from the full cell) become empty lists. SQL text is kept: the rule checks read it.
//! The full bundle stays in the worker (see `crate::data::cell_detail`).

use runlens_core::bundle::{Bundle, Cell, Question, ResultRow, Usage};
use serde::{Deserialize, Serialize};

/// Target size of one chunk of JSON, parsed in one main-thread task (2 MiB chunks made long
/// tasks: docs/performance.md).
pub const CHUNK_BYTES: usize = 1 << 20;

/// Bundles with more JSON than this travel stripped of trajectory text.
pub const STRIP_ABOVE_BYTES: usize = 8 << 20;

/// Which row list of a corpus a chunk extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// `Corpus::questions`.
    Questions,
    /// `Corpus::results`.
    Results,
    /// `Corpus::rankings`.
    Rankings,
    /// `Corpus::failure_labels`.
    FailureLabels,
    /// `Corpus::fm_labels`.
    FmLabels,
    /// `Corpus::gate_rows`.
    GateRows,
}

/// Where a chunk belongs: corpus index in the skeleton and row list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkKey {
    /// Index into `body.corpora`.
    pub corpus: usize,
    /// Row list.
    pub part: Part,
}

/// The bundle without any corpus rows (names, models and manifests kept), as JSON.
pub fn skeleton_json(bundle: &Bundle) -> Vec<u8> {
    let body = bundle.body.skeleton();
    let skeleton = Bundle {
        format: bundle.format.clone(),
        provenance: bundle.provenance.clone(),
        content_hash: bundle.content_hash.clone(),
        body,
    };
    serde_json::to_vec(&skeleton).unwrap_or_default()
}

/// Rows of every list of every corpus.
pub fn row_count(bundle: &Bundle) -> usize {
    bundle
        .body
        .corpora
        .iter()
        .map(|c| {
            c.questions.len()
                + c.results.len()
                + c.rankings.len()
                + c.failure_labels.len()
                + c.fm_labels.len()
                + c.gate_rows.len()
        })
        .sum()
}

/// Calls `emit(key, rows, json)` with every chunk of `bundle`'s rows, in corpus order, each
/// a JSON array of at most about `chunk_bytes` (a single larger row makes a chunk of its own).
///
/// With `strip`, each row's long text is moved out while the row is written and moved back
/// after it (no copy of the row), so `bundle` is unchanged when this returns.
pub fn for_each_chunk(
    bundle: &mut Bundle,
    strip: bool,
    chunk_bytes: usize,
    mut emit: impl FnMut(ChunkKey, usize, Vec<u8>),
) {
    for (i, c) in bundle.body.corpora.iter_mut().enumerate() {
        let mut e = |part, rows, bytes| emit(ChunkKey { corpus: i, part }, rows, bytes);
        rows(
            &mut c.questions,
            Part::Questions,
            chunk_bytes,
            &mut e,
            |q, buf| write_cells_stripped(q, strip, question_cells, buf),
        );
        rows(
            &mut c.results,
            Part::Results,
            chunk_bytes,
            &mut e,
            |r, buf| write_cells_stripped(r, strip, result_cells, buf),
        );
        rows(&mut c.rankings, Part::Rankings, chunk_bytes, &mut e, write);
        rows(
            &mut c.failure_labels,
            Part::FailureLabels,
            chunk_bytes,
            &mut e,
            write,
        );
        rows(
            &mut c.fm_labels,
            Part::FmLabels,
            chunk_bytes,
            &mut e,
            |l, buf| {
                if !strip {
                    return write(l, buf);
                }
                let reason = take_text(&mut l.reason);
                write(l, buf);
                put_text(&mut l.reason, reason);
            },
        );
        rows(
            &mut c.gate_rows,
            Part::GateRows,
            chunk_bytes,
            &mut e,
            |g, buf| {
                if !strip {
                    return write(g, buf);
                }
                let gated = take_per_turn(g.gated_usage.as_mut());
                let baseline = take_per_turn(g.baseline_usage.as_mut());
                write(g, buf);
                put_per_turn(g.gated_usage.as_mut(), gated);
                put_per_turn(g.baseline_usage.as_mut(), baseline);
            },
        );
    }
}

fn rows<T>(
    items: &mut [T],
    part: Part,
    chunk_bytes: usize,
    emit: &mut impl FnMut(Part, usize, Vec<u8>),
    mut write_item: impl FnMut(&mut T, &mut Vec<u8>),
) {
    let mut buf = Vec::new();
    let mut n = 0;
    for item in items {
        buf.push(if buf.is_empty() { b'[' } else { b',' });
        write_item(item, &mut buf);
        n += 1;
        if buf.len() >= chunk_bytes {
            buf.push(b']');
            emit(part, n, std::mem::take(&mut buf));
            n = 0;
        }
    }
    if !buf.is_empty() {
        buf.push(b']');
        emit(part, n, buf);
    }
}

/// The cells of a question's annotators, in file order.
fn question_cells(q: &mut Question) -> Vec<&mut Cell> {
    q.annotators
        .iter_mut()
        .flat_map(|a| a.values_mut())
        .collect()
}

/// The present candidate cells of a result row, in file order.
fn result_cells(r: &mut ResultRow) -> Vec<&mut Cell> {
    r.candidates.values_mut().flatten().collect()
}

/// Appends `item`'s JSON to `buf`.
fn write<T: Serialize>(item: &mut T, buf: &mut Vec<u8>) {
    // Serialising plain data (string keys only) into a Vec cannot fail.
    let _ = serde_json::to_writer(buf, item);
}

/// Appends `item`'s JSON to `buf`, with the long text of its cells (listed by `cells`, in
/// the same order each call) moved out while it is written when `strip` is set.
fn write_cells_stripped<T: Serialize>(
    item: &mut T,
    strip: bool,
    cells: impl Fn(&mut T) -> Vec<&mut Cell>,
    buf: &mut Vec<u8>,
) {
    if !strip {
        return write(item, buf);
    }
    let texts: Vec<CellText> = cells(item).into_iter().map(CellText::take).collect();
    write(item, buf);
    for (cell, text) in cells(item).into_iter().zip(texts) {
        text.put_back(cell);
    }
}

/// The long text of one cell, moved out by [`CellText::take`] (which leaves the cell as
/// [`strip_cell`] would) and moved back by [`CellText::put_back`].
struct CellText {
    sql_results: Vec<String>,
    final_answer: Option<String>,
    per_turn: Option<Vec<[u64; 5]>>,
    reasoning: Option<String>,
    votes: Vec<Option<String>>,
}

impl CellText {
    fn take(cell: &mut Cell) -> Self {
        let score = cell.result_score.as_mut();
        let (reasoning, votes) = match score {
            Some(s) => (
                take_text(&mut s.reasoning),
                s.votes
                    .iter_mut()
                    .flatten()
                    .map(|v| take_text(&mut v.reasoning))
                    .collect(),
            ),
            None => (None, Vec::new()),
        };
        CellText {
            sql_results: cell.sql_results.iter_mut().map(std::mem::take).collect(),
            final_answer: take_text(&mut cell.final_answer),
            per_turn: take_per_turn(cell.usage.as_mut()),
            reasoning,
            votes,
        }
    }

    fn put_back(self, cell: &mut Cell) {
        for (slot, text) in cell.sql_results.iter_mut().zip(self.sql_results) {
            *slot = text;
        }
        put_text(&mut cell.final_answer, self.final_answer);
        put_per_turn(cell.usage.as_mut(), self.per_turn);
        if let Some(s) = cell.result_score.as_mut() {
            put_text(&mut s.reasoning, self.reasoning);
            for (v, text) in s.votes.iter_mut().flatten().zip(self.votes) {
                put_text(&mut v.reasoning, text);
            }
        }
    }
}

/// Moves a present text out, leaving it present and empty.
fn take_text(text: &mut Option<String>) -> Option<String> {
    text.as_mut().map(std::mem::take)
}

fn put_text(text: &mut Option<String>, saved: Option<String>) {
    if let (Some(slot), Some(saved)) = (text.as_mut(), saved) {
        *slot = saved;
    }
}

/// Moves a usage's per-turn list out, leaving it present and empty.
fn take_per_turn(usage: Option<&mut Usage>) -> Option<Vec<[u64; 5]>> {
    usage.and_then(|u| u.per_turn.as_mut()).map(std::mem::take)
}

fn put_per_turn(usage: Option<&mut Usage>, saved: Option<Vec<[u64; 5]>>) {
    if let (Some(slot), Some(saved)) = (usage.and_then(|u| u.per_turn.as_mut()), saved) {
        *slot = saved;
    }
}

/// Replaces a cell's long text by empty strings, keeping counts and presence.
pub fn strip_cell(cell: &mut Cell) {
    for r in &mut cell.sql_results {
        r.clear();
    }
    blank(&mut cell.final_answer);
    empty_per_turn(cell.usage.as_mut());
    if let Some(score) = &mut cell.result_score {
        blank(&mut score.reasoning);
        for vote in score.votes.iter_mut().flatten() {
            blank(&mut vote.reasoning);
        }
    }
}

/// Empties a usage's per-turn list (kept present: `Some(vec![])`).
pub fn empty_per_turn(usage: Option<&mut Usage>) {
    if let Some(turns) = usage.and_then(|u| u.per_turn.as_mut()) {
        turns.clear();
    }
}

fn blank(text: &mut Option<String>) {
    if let Some(t) = text {
        t.clear();
    }
}
