//! The leaderboard's cell facts straight from a corpus's `cells` columns, without one text
//! record: what a reader needs to show the leaderboard before (or without) the rest of the
//! bundle. The facts are those [`CellFacts::from_cell`] gives for the same cells: outcome,
//! error, turns, the number of SQL statements (`n_sqls`) and the usage block are all columns.

use std::collections::HashMap;

use super::codec::decode_plain;
use super::read::table_error;
use super::schema::{CELLS, Column};
use super::split::ColumnData;
use super::text::inflate;
use super::write::stored_columns;
use super::{CorpusInfo, V2Error};
use crate::bundle::{LossRule, Outcome, Usage, UsageCounts};
use crate::metrics::cell_facts::CellFacts;
use crate::metrics::leaderboard::ModelColumn;

/// The cells columns the leaderboard's facts read (decoding the others would cost a value
/// per cell each: on `huge`, 2 M cells, hundreds of MB held at once).
const READ: [&str; 15] = [
    "outcome",
    "turns",
    "error",
    "n_sqls",
    "usage_prompt_tokens",
    "usage_completion_tokens",
    "usage_reasoning_tokens",
    "usage_cache_read_tokens",
    "usage_cache_write_tokens",
    "usage_total_tokens",
    "usage_api_calls",
    "usage_calls_missing_usage",
    "row",
    "model",
    "null_cell",
];

/// The usage block of cell `i` from the 8 usage columns in [`READ`]'s order (`None` when
/// every one is empty: a block without any of these values gives the leaderboard no tokens
/// either way).
fn usage_of(usage: &[ColumnData; 8], i: usize) -> Option<Usage> {
    let get = |k: usize| usage[k].u64_at(i);
    let usage = Usage::from(UsageCounts {
        prompt_tokens: get(0),
        completion_tokens: get(1),
        reasoning_tokens: get(2),
        cache_read_tokens: get(3),
        cache_write_tokens: get(4),
        total_tokens: get(5),
        api_calls: get(6),
        calls_missing_usage: get(7),
    });
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
    // Decoded in READ's order (columns are found by name), so each is where READ says.
    let stored = stored_columns(&CELLS);
    let spec: Vec<Column> = READ
        .iter()
        .filter_map(|name| stored.iter().find(|c| c.name == *name).copied())
        .collect();
    let (columns, rows) = decode_plain(&spec, plain).map_err(|e| table_error(path.clone(), e))?;
    let Ok::<&[ColumnData; READ.len()], _>(read) = columns.as_slice().try_into() else {
        return Err(V2Error::Table {
            path,
            message: format!("{} of the {} columns read", columns.len(), READ.len()),
        });
    };
    let [
        outcome_col,
        turns_col,
        error_col,
        n_sqls_col,
        usage @ ..,
        row_col,
        model_col,
        null,
    ] = read;
    let results = info.rows.get("results").copied().unwrap_or(0) as usize;
    let model_at: HashMap<&str, usize> = info
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    // The model of each dictionary code, looked up once rather than once per cell.
    let coded_models: Option<Vec<Option<usize>>> = match model_col {
        ColumnData::Coded(c) => Some(
            c.dict
                .iter()
                .map(|d| model_at.get(d.as_str()).copied())
                .collect(),
        ),
        _ => None,
    };
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
    for i in 0..rows {
        let row = row_col
            .u64_at(i)
            .ok_or_else(|| row_err(i, "row or model is missing".to_owned()))?
            as usize;
        let model = match (model_col, &coded_models) {
            (ColumnData::Coded(c), Some(by_code)) => c
                .codes
                .get(i)
                .map(|code| by_code.get(code as usize).copied().flatten()),
            _ => model_col.str_at(i).map(|m| model_at.get(m).copied()),
        };
        let model = model.ok_or_else(|| row_err(i, "row or model is missing".to_owned()))?;
        if row >= results {
            return Err(row_err(
                i,
                format!("row {row} is past the last result row ({results})"),
            ));
        }
        // A candidate that is not one of the corpus's models is on no leaderboard column.
        let Some(m) = model else {
            continue;
        };
        if null.bool_at(i) == Some(true) {
            continue;
        }
        let turns = turns_col
            .u64_at(i)
            .map(|t| u32::try_from(t).map_err(|_| row_err(i, format!("turns {t} is not a u32"))))
            .transpose()?;
        let outcome = outcome_col.str_at(i).map(Outcome::from_str_lossless);
        let n_sqls = n_sqls_col.u64_at(i).unwrap_or(0) as usize;
        out[m].cells[row] = Some(CellFacts::from_parts(
            outcome.as_ref(),
            error_col.str_at(i),
            turns,
            n_sqls,
            usage_of(usage, i).as_ref(),
            loss,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn every_column_the_facts_read_is_a_stored_cells_column() {
        let stored: Vec<&str> = stored_columns(&CELLS).iter().map(|c| c.name).collect();
        for name in READ {
            assert!(stored.contains(&name), "{name}");
        }
        assert_eq!(
            READ[4..12]
                .iter()
                .filter(|n| n.starts_with("usage_"))
                .count(),
            8
        );
    }
}
