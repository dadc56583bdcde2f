//! Cells without their text: a reader that keeps only the cells' columns
//! ([`super::read_bundle_light`]) fetches one text chunk when a trajectory is opened and
//! puts the cell's record back ([`fill_cell`]). The columns hold everything the metrics read
//! (outcome, error, turns, `n_sqls`, usage); the record holds the SQL, results, answer,
//! votes and per-call usage.

use serde_json::{Map, Value};

use super::V2Error;
use super::schema::CELLS;
use super::split::{ColumnData, SharedNames, merge_record};
use std::borrow::Cow;

use crate::bundle::{Cell, CellParts, Outcome, ResultScore, Usage, UsageCounts};

/// The entry of text chunk `chunk` of the cells of the corpus in `dir` (`corpora/<i>`).
pub fn cell_text_path(dir: &str, chunk: u32) -> String {
    format!("{dir}/{}.text/{chunk}.gz", CELLS.name)
}

/// Whether `path` is a cells text chunk (`corpora/<i>/cells.text/<n>.gz`).
pub fn is_cell_text_path(path: &str) -> bool {
    let mut parts = path.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("corpora"), Some(_), Some(dir), Some(file), None)
            if dir == format!("{}.text", CELLS.name) && file.ends_with(".gz")
    )
}

/// Where the cells table's columns are (found by name once per table).
pub(super) struct CellColumns {
    at: Vec<Option<usize>>,
    /// The served models, one copy of each.
    served: SharedNames,
}

/// The columns a cell without its text is built from, in [`CellColumns`]' order.
const NAMES: [&str; 14] = [
    "outcome",
    "turns",
    "latency",
    "error",
    "served_model",
    "n_sqls",
    "usage_prompt_tokens",
    "usage_completion_tokens",
    "usage_reasoning_tokens",
    "usage_cache_read_tokens",
    "usage_cache_write_tokens",
    "usage_total_tokens",
    "usage_api_calls",
    "usage_calls_missing_usage",
];

impl CellColumns {
    /// The positions of [`NAMES`] among the cells table's columns (`columns`, as decoded).
    pub(super) fn new(columns: &[ColumnData]) -> CellColumns {
        let mut at = CellColumns {
            at: NAMES
                .iter()
                .map(|n| CELLS.columns.iter().position(|c| c.name == *n))
                .collect(),
            served: SharedNames::default(),
        };
        at.served = SharedNames::of(at.col(columns, 4));
        at
    }

    fn col<'c>(&self, columns: &'c [ColumnData], name: usize) -> Option<&'c ColumnData> {
        self.at[name].and_then(|a| columns.get(a))
    }

    fn u64(&self, columns: &[ColumnData], name: usize, i: usize) -> Option<u64> {
        match self.col(columns, name) {
            Some(ColumnData::U64(v)) => v.get(i),
            _ => None,
        }
    }

    /// Row `i` as a cell of its columns alone (what the JSON of its `take` columns reads
    /// into, built directly: a light read of `large` spent most of its time in that JSON),
    /// and the number of its SQL statements.
    pub(super) fn cell(&self, columns: &[ColumnData], i: usize) -> Result<(Cell, usize), String> {
        let parts = self.parts(columns, i)?;
        let latency = match self.col(columns, 2) {
            Some(ColumnData::F64(v)) => v.get(i).filter(|f| f.is_finite()),
            _ => None,
        };
        let cell = Cell {
            turns: parts.turns,
            latency,
            result_score: parts.outcome.map(|o| ResultScore {
                outcome: Some(o.into_owned()),
                ..ResultScore::default()
            }),
            error: parts.error.map(str::to_owned),
            served_model: self.col(columns, 4).and_then(|c| self.served.get(c, i)),
            usage: parts.usage.map(Cow::into_owned),
            ..Cell::default()
        };
        Ok((cell, parts.n_sqls))
    }

    /// What the metrics read of row `i` ([`CellParts`]), without making its cell.
    pub(super) fn parts<'c>(
        &self,
        columns: &'c [ColumnData],
        i: usize,
    ) -> Result<CellParts<'c>, String> {
        let turns = match self.u64(columns, 1, i) {
            Some(t) => {
                Some(u32::try_from(t).map_err(|_| format!("turns: {t} is larger than a u32"))?)
            }
            None => None,
        };
        let u = |k: usize| self.u64(columns, 6 + k, i);
        let usage = Usage::from(UsageCounts {
            prompt_tokens: u(0),
            completion_tokens: u(1),
            reasoning_tokens: u(2),
            cache_read_tokens: u(3),
            cache_write_tokens: u(4),
            total_tokens: u(5),
            api_calls: u(6),
            calls_missing_usage: u(7),
        });
        let n_sqls = self.u64(columns, 5, i).unwrap_or(0);
        Ok(CellParts {
            outcome: self
                .col(columns, 0)
                .and_then(|c| c.str_at(i))
                .map(|o| Cow::Owned(Outcome::from_str_lossless(o))),
            error: self.col(columns, 3).and_then(|c| c.str_at(i)),
            turns,
            n_sqls: usize::try_from(n_sqls).unwrap_or(usize::MAX),
            usage: (!usage.is_empty()).then_some(Cow::Owned(usage)),
        })
    }
}

/// `cell` (of [`super::read_bundle_light`]) whole again: its text record, read from `chunk`
/// (the inflated entry `path`, [`cell_text_path`] of the cell's `text_at.chunk`), merged
/// with its columns. A cell that has no record left out is returned as it is. An index past
/// the chunk, or a record that is not the cell's JSON, is an error naming the chunk and the
/// cells table's row.
pub fn fill_cell(cell: &Cell, chunk: &[u8], path: &str) -> Result<Cell, V2Error> {
    let Some(at) = cell.text_at else {
        return Ok(cell.clone());
    };
    let err = |message: String| V2Error::Row {
        path: path.to_owned(),
        row: usize::try_from(at.row).unwrap_or(usize::MAX),
        message,
    };
    let bytes = usize::try_from(at.offset)
        .ok()
        .zip(usize::try_from(at.len).ok())
        .and_then(|(offset, len)| chunk.get(offset..offset.checked_add(len)?))
        .ok_or_else(|| {
            err(format!(
                "text record {}..{} is past the end of the chunk ({} bytes)",
                at.offset,
                at.offset.saturating_add(at.len),
                chunk.len()
            ))
        })?;
    let record: Map<String, Value> =
        serde_json::from_slice(bytes).map_err(|e| err(format!("text record: {e}")))?;
    let mut row = match serde_json::to_value(cell) {
        Ok(Value::Object(row)) => row,
        _ => Map::new(),
    };
    merge_record(&mut row, record);
    serde_json::from_value(Value::Object(row)).map_err(|e| err(format!("text record: {e}")))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::TextAt;

    #[test]
    fn text_chunk_paths_are_named_and_recognised() {
        assert_eq!(cell_text_path("corpora/1", 3), "corpora/1/cells.text/3.gz");
        assert!(is_cell_text_path("corpora/1/cells.text/3.gz"));
        assert!(!is_cell_text_path("corpora/1/cells.cols.gz"));
        assert!(!is_cell_text_path("corpora/1/questions.text/0.gz"));
        assert!(!is_cell_text_path("corpora/1/cells.text/3.gz/x"));
    }

    #[test]
    fn a_record_past_its_chunk_names_the_chunk_and_the_row() {
        let cell = Cell {
            text_at: Some(TextAt {
                row: 7,
                chunk: 0,
                offset: 4,
                len: 10,
                n_sqls: 1,
            }),
            ..Cell::default()
        };
        let e = fill_cell(&cell, b"{}{}{}", "corpora/0/cells.text/0.gz").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bundle: entry corpora/0/cells.text/0.gz, row 7: text record 4..14 is past the end of the chunk (6 bytes)"
        );
        assert_eq!(cell.n_sqls(), 1);
    }
}
