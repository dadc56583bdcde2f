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

use runlens_core::bundle::{Bundle, BundleBody, Cell, Corpus, Usage};
use serde::{Deserialize, Serialize};

/// Target size of one chunk of JSON (parsed in one main-thread task: ~25 ms at the page's
/// ~40 MB/s; 2 MiB chunks made ~50-90 ms tasks).
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
    let b = &bundle.body;
    let body = BundleBody {
        synthetic: b.synthetic,
        notice: b.notice.clone(),
        universe: b.universe.clone(),
        universe_source: b.universe_source,
        namespaces: b.namespaces.clone(),
        schema_prompt: b.schema_prompt.clone(),
        rules: b.rules.clone(),
        models: b.models.clone(),
        corpora: b
            .corpora
            .iter()
            .map(|c| Corpus {
                name: c.name.clone(),
                models: c.models.clone(),
                board_manifest: c.board_manifest.clone(),
                ..Corpus::default()
            })
            .collect(),
        warnings: b.warnings.clone(),
    };
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
pub fn for_each_chunk(
    bundle: &Bundle,
    strip: bool,
    chunk_bytes: usize,
    mut emit: impl FnMut(ChunkKey, usize, Vec<u8>),
) {
    for (i, c) in bundle.body.corpora.iter().enumerate() {
        let mut e = |part, rows, bytes| emit(ChunkKey { corpus: i, part }, rows, bytes);
        rows(&c.questions, Part::Questions, chunk_bytes, &mut e, |q| {
            let mut q = q.clone();
            if strip {
                for cell in q.annotators.iter_mut().flat_map(|a| a.values_mut()) {
                    strip_cell(cell);
                }
            }
            q
        });
        rows(&c.results, Part::Results, chunk_bytes, &mut e, |r| {
            let mut r = r.clone();
            if strip {
                for cell in r.candidates.values_mut().flatten() {
                    strip_cell(cell);
                }
            }
            r
        });
        rows(
            &c.rankings,
            Part::Rankings,
            chunk_bytes,
            &mut e,
            Clone::clone,
        );
        rows(
            &c.failure_labels,
            Part::FailureLabels,
            chunk_bytes,
            &mut e,
            Clone::clone,
        );
        rows(&c.fm_labels, Part::FmLabels, chunk_bytes, &mut e, |l| {
            let mut l = l.clone();
            if strip {
                blank(&mut l.reason);
            }
            l
        });
        rows(&c.gate_rows, Part::GateRows, chunk_bytes, &mut e, |g| {
            let mut g = g.clone();
            if strip {
                for usage in [&mut g.gated_usage, &mut g.baseline_usage] {
                    empty_per_turn(usage.as_mut());
                }
            }
            g
        });
    }
}

fn rows<T, U: Serialize>(
    items: &[T],
    part: Part,
    chunk_bytes: usize,
    emit: &mut impl FnMut(Part, usize, Vec<u8>),
    view: impl Fn(&T) -> U,
) {
    let mut buf = Vec::new();
    let mut n = 0;
    for item in items {
        buf.push(if buf.is_empty() { b'[' } else { b',' });
        // Serialising plain data (string keys only) into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut buf, &view(item));
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

pub use super::assemble::{Assembler, round_trip};
