//! A corpus: one harness corpus directory (e.g. `text2sqlbench-synthetic-dev`) with the Jev
//! rows attached to it, plus cheap iteration helpers for the metrics and the UI.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::gate_rows::{GateRows, LightGate};
use super::row_cells::{CellParts, LightCells, RowCells};
use super::{Cell, FailureLabel, FmLabel, GateRow, Question, RankingRow, ResultRow};

/// One corpus of a bundle.
///
/// Row order is file order, except that a later row with the same key replaces an earlier
/// one in place (as the harness's own loaders do). `questions` come from `annotated.jsonl`,
/// `results` from `results.jsonl`; either may be empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Corpus {
    /// Corpus name (the folder name, or `--corpus NAME=DIR`).
    pub name: String,
    /// `annotated.jsonl` rows.
    #[serde(default)]
    pub questions: Vec<Question>,
    /// `results.jsonl` rows.
    #[serde(default)]
    pub results: Vec<ResultRow>,
    /// Candidate model keys in order of first appearance in `results`.
    #[serde(default)]
    pub models: Vec<String>,
    /// `out/schema_retrieval.jsonl` rows for this corpus's questions.
    #[serde(default)]
    pub rankings: Vec<RankingRow>,
    /// `out/failure_labels.jsonl` rows for this corpus's cells.
    #[serde(default)]
    pub failure_labels: Vec<FailureLabel>,
    /// `fm_labels.jsonl` rows.
    #[serde(default)]
    pub fm_labels: Vec<FmLabel>,
    /// `out/schema_retrieval_agent.jsonl` rows (both arms; error rows included).
    #[serde(default)]
    pub gate_rows: Vec<GateRow>,
    /// `board_manifest.json`, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_manifest: Option<serde_json::Value>,
    /// Where the cells are when the rows do not hold them (a v2 bundle read without the
    /// cells' text: every row's `candidates` is then empty). Read cells through
    /// [`Corpus::row_cells`], which looks in the right place. Never written.
    #[serde(skip)]
    pub light_cells: LightCells,
    /// Where the gate rows are when `gate_rows` does not hold them (a v2 bundle read light:
    /// `gate_rows` is then empty). Read gate rows through [`Corpus::gate`]. Never written.
    #[serde(skip)]
    pub light_gate: LightGate,
}

/// One non-null cell with its keys (borrowed from its row, or made by the corpus's
/// [`LightCells`]).
#[derive(Debug, Clone)]
pub struct CellRef<'a> {
    /// Question key.
    pub trace_id: &'a str,
    /// Candidate model key.
    pub model: &'a str,
    /// The cell.
    pub cell: Cow<'a, Cell>,
}

impl Corpus {
    /// Every non-null cell, row by row, candidates in file order.
    ///
    /// ```
    /// # use runlens_core::bundle::Corpus;
    /// let corpus = Corpus::default();
    /// assert_eq!(corpus.cells().count(), 0);
    /// ```
    pub fn cells(&self) -> impl Iterator<Item = CellRef<'_>> {
        self.results.iter().enumerate().flat_map(|(i, row)| {
            self.row_cells(i).iter().filter_map(move |(model, cell)| {
                cell.map(|cell| CellRef {
                    trace_id: &row.trace_id,
                    model,
                    cell,
                })
            })
        })
    }

    /// What the metrics read of every non-null cell ([`CellParts`]), row by row, without
    /// making the cells of a light corpus.
    pub fn cell_parts(&self) -> impl Iterator<Item = CellParts<'_>> {
        (0..self.results.len()).flat_map(|i| {
            let row = self.row_cells(i);
            (0..row.len()).filter_map(move |k| row.parts(k))
        })
    }

    /// The gate rows, held or made ([`LightGate`]).
    pub fn gate(&self) -> GateRows<'_> {
        GateRows::new(&self.gate_rows, self.light_gate.source())
    }

    /// The candidates of `results[row]` (none past the last row).
    pub fn row_cells(&self, row: usize) -> RowCells<'_> {
        static EMPTY: std::sync::LazyLock<indexmap::IndexMap<super::Name, Option<Cell>>> =
            std::sync::LazyLock::new(indexmap::IndexMap::new);
        let owned = self.results.get(row).map_or(&*EMPTY, |r| &r.candidates);
        match self.light_cells.source() {
            Some(source) if row < source.rows() => RowCells::made(owned, source, row),
            _ => RowCells::owned(owned),
        }
    }

    /// The cell of `model` on `trace_id` (linear in rows; build [`Corpus::result_index`] for
    /// many look-ups).
    pub fn cell(&self, trace_id: &str, model: &str) -> Option<Cow<'_, Cell>> {
        let row = self.results.iter().position(|r| r.trace_id == trace_id)?;
        self.row_cells(row).get(model)
    }

    /// The question with this key, if annotated.
    pub fn question(&self, trace_id: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.trace_id == trace_id)
    }

    /// `trace_id` → index into `questions`.
    pub fn question_index(&self) -> HashMap<&str, usize> {
        self.questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q.trace_id.as_str(), i))
            .collect()
    }

    /// `trace_id` → index into `results`.
    pub fn result_index(&self) -> HashMap<&str, usize> {
        self.results
            .iter()
            .enumerate()
            .map(|(i, r)| (r.trace_id.as_str(), i))
            .collect()
    }

    /// Number of non-null cells.
    pub fn cell_count(&self) -> usize {
        let own: usize = self
            .results
            .iter()
            .map(|r| r.candidates.values().filter(|c| c.is_some()).count())
            .sum();
        own + self.light_cells.source().map_or(0, |s| s.non_null())
    }
}
