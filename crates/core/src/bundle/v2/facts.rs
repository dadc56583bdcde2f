//! The leaderboard's cell facts straight from a corpus's `cells` columns, without one text
//! record: what a reader needs to show the leaderboard before (or without) the rest of the
//! bundle. The facts are those [`CellFacts::from_cell`] gives for the same cells: outcome,
//! error, turns, the number of SQL statements (`n_sqls`) and the usage block are all columns.

use std::collections::HashMap;

use super::codec::decode_plain;
use super::read::table_error;
use super::schema::CELLS;
use super::split::ColumnData;
use super::text::inflate;
use super::write::stored_columns;
use super::{CorpusInfo, V2Error};
use crate::bundle::{LossRule, Outcome, Usage};
use crate::metrics::cell_facts::CellFacts;
use crate::metrics::leaderboard::ModelColumn;

/// A decoded column by name.
fn column<'a>(
    columns: &'a [ColumnData],
    names: &HashMap<&str, usize>,
    name: &str,
) -> &'a ColumnData {
    &columns[names[name]]
}

fn u64_of(c: &ColumnData, i: usize) -> Option<u64> {
    match c {
        ColumnData::U64(v) => v.get(i).copied().flatten(),
        _ => None,
    }
}

fn str_of(c: &ColumnData, i: usize) -> Option<&str> {
    c.str_at(i)
}

/// The usage block of cell `i` (`None` when every usage column is empty: a block without
/// any of these values gives the leaderboard no tokens either way).
fn usage_of(columns: &[ColumnData], names: &HashMap<&str, usize>, i: usize) -> Option<Usage> {
    let get = |name: &str| u64_of(column(columns, names, name), i);
    let usage = Usage {
        prompt_tokens: get("usage_prompt_tokens"),
        completion_tokens: get("usage_completion_tokens"),
        reasoning_tokens: get("usage_reasoning_tokens"),
        cache_read_tokens: get("usage_cache_read_tokens"),
        cache_write_tokens: get("usage_cache_write_tokens"),
        total_tokens: get("usage_total_tokens"),
        api_calls: get("usage_api_calls"),
        calls_missing_usage: get("usage_calls_missing_usage"),
        ..Usage::default()
    };
    (usage != Usage::default()).then_some(usage)
}

/// One [`ModelColumn`] per model of `info` (question order = the corpus's result rows), from
/// the bytes of its `cells.cols.gz` entry.
pub fn model_columns(
    info: &CorpusInfo,
    cells: &[u8],
    loss: LossRule,
) -> Result<Vec<ModelColumn>, V2Error> {
    let plain = inflate(cells).map_err(|m| V2Error::Table {
        path: cells_path(info),
        message: format!("not a readable table: gzip: {m}"),
    })?;
    model_columns_plain(info, &plain, loss)
}

/// The path of `info`'s `cells.cols.gz` entry: all the leaderboard reads.
pub fn cells_path(info: &CorpusInfo) -> String {
    format!("{}/{}.cols.gz", info.dir, CELLS.name)
}

/// Whether an entry path is a corpus's `cells.cols.gz` (see [`cells_path`]).
pub fn is_cells_path(path: &str) -> bool {
    path.strip_suffix(".cols.gz")
        .and_then(|p| p.rsplit_once('/'))
        .is_some_and(|(_, table)| table == CELLS.name)
}

/// [`model_columns`] of the entry's bytes already inflated.
pub fn model_columns_plain(
    info: &CorpusInfo,
    plain: &[u8],
    loss: LossRule,
) -> Result<Vec<ModelColumn>, V2Error> {
    let path = cells_path(info);
    let spec = stored_columns(&CELLS);
    let (columns, rows) = decode_plain(&spec, plain).map_err(|e| table_error(path.clone(), e))?;
    let columns = &columns;
    let names: HashMap<&str, usize> = spec.iter().enumerate().map(|(i, c)| (c.name, i)).collect();
    let results = info.rows.get("results").copied().unwrap_or(0) as usize;
    let model_at: HashMap<&str, usize> = info
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut out: Vec<ModelColumn> = info
        .models
        .iter()
        .map(|m| ModelColumn {
            model: m.clone(),
            cells: vec![None; results],
        })
        .collect();
    let row_err = |row: usize, message: String| V2Error::Row {
        path: path.clone(),
        row,
        message,
    };
    let null = column(columns, &names, "null_cell");
    for i in 0..rows {
        let row = u64_of(column(columns, &names, "row"), i)
            .ok_or_else(|| row_err(i, "row or model is missing".to_owned()))?
            as usize;
        let model = str_of(column(columns, &names, "model"), i)
            .ok_or_else(|| row_err(i, "row or model is missing".to_owned()))?;
        if row >= results {
            return Err(row_err(
                i,
                format!("row {row} is past the last result row ({results})"),
            ));
        }
        // A candidate that is not one of the corpus's models is on no leaderboard column.
        let Some(&m) = model_at.get(model) else {
            continue;
        };
        if matches!(null, ColumnData::Bool(v) if v.get(i).copied().flatten() == Some(true)) {
            continue;
        }
        let turns = u64_of(column(columns, &names, "turns"), i)
            .map(|t| u32::try_from(t).map_err(|_| row_err(i, format!("turns {t} is not a u32"))))
            .transpose()?;
        let outcome = str_of(column(columns, &names, "outcome"), i).map(Outcome::from_str_lossless);
        let n_sqls = u64_of(column(columns, &names, "n_sqls"), i).unwrap_or(0) as usize;
        out[m].cells[row] = Some(CellFacts::from_parts(
            outcome.as_ref(),
            str_of(column(columns, &names, "error"), i),
            turns,
            n_sqls,
            usage_of(columns, &names, i).as_ref(),
            loss,
        ));
    }
    Ok(out)
}
