//! A corpus's cells kept as the columns they were read from ([`super::read_bundle_light`]):
//! each cell is made from its row of the columns when a reader asks for it
//! ([`crate::bundle::Corpus::row_cells`]). A made `Cell` is 256 bytes on wasm32 and an
//! indexed map entry more; the columns it is made from are about 90 bytes a cell
//! (docs/performance.md, "Cells kept as columns").

use std::collections::HashMap;
use std::fmt;

use super::V2Error;
use super::cell_text::CellColumns;
use super::nullable::Numbers;
use super::schema::CELLS;
use super::split::ColumnData;
use crate::bundle::{Cell, CellParts, CellSource, Name, TextAt};

/// The cells table's columns the light cells are not made from (the judges' tallies and the
/// number of votes are in the text record too); the row and model columns are kept as
/// [`ColumnCells`]' own index instead.
const UNREAD: [&str; 4] = ["tally_pass", "tally_fail", "tally_tie", "n_votes"];

/// A corpus's cells as columns: see the module doc.
pub(super) struct ColumnCells {
    /// The cells table (for errors).
    path: String,
    /// The cells table's columns, those in [`UNREAD`] and the row and model columns emptied.
    columns: Vec<ColumnData>,
    at: CellColumns,
    /// The models, one copy each.
    names: Vec<Name>,
    /// Each model's code (its place in `names`).
    code_of: HashMap<Name, u32>,
    /// Cell `i`'s model, a code.
    model: Vec<u32>,
    /// The cells in row order (`None`: the table's own order is row order, as the writer
    /// makes it).
    order: Option<Vec<u32>>,
    /// Row `r`'s cells are `starts[r]..starts[r + 1]` of that order.
    starts: Vec<u32>,
    /// Cells that are not null.
    non_null: usize,
}

impl ColumnCells {
    /// The cells of the table at `path` (`columns`, `cells` rows, as decoded) for a corpus of
    /// `rows` result rows. Every cell is made once here, so a value a cell cannot hold is an
    /// error now rather than a missing cell later; so is a row or model missing, a row past
    /// the last result row, and a model with two cells on one row.
    pub(super) fn new(
        path: String,
        mut columns: Vec<ColumnData>,
        cells: usize,
        rows: usize,
    ) -> Result<ColumnCells, V2Error> {
        let err = |i: usize, message: String| V2Error::Row {
            path: path.clone(),
            row: i,
            message,
        };
        let base = CELLS.columns.len();
        let too_many = || err(cells, format!("{cells} cells; a reader holds at most 2^32"));
        let n32 = |n: usize| u32::try_from(n).map_err(|_| too_many());
        n32(cells)?;
        n32(rows)?;
        let mut names: Vec<Name> = Vec::new();
        let mut code_of: HashMap<Name, u32> = HashMap::new();
        let mut model = Vec::with_capacity(cells);
        let mut row_of = Vec::with_capacity(cells);
        for i in 0..cells {
            let row = columns.get(base).and_then(|c| c.u64_at(i));
            let name = columns.get(base + 1).and_then(|c| c.str_at(i));
            let (Some(row), Some(name)) = (row, name) else {
                return Err(err(i, "row or model is missing".to_owned()));
            };
            if row >= rows as u64 {
                return Err(err(
                    i,
                    format!("row {row} is past the last result row ({rows})"),
                ));
            }
            let code = match code_of.get(name) {
                Some(&c) => c,
                None => {
                    let c = n32(names.len())?;
                    let name = Name::from(name);
                    code_of.insert(Name::clone(&name), c);
                    names.push(name);
                    c
                }
            };
            model.push(code);
            row_of.push(row as u32);
        }
        let mut starts = vec![0u32; rows + 1];
        for &r in &row_of {
            starts[r as usize + 1] += 1;
        }
        for r in 0..rows {
            starts[r + 1] += starts[r];
        }
        let order = if row_of.is_sorted() {
            None
        } else {
            let mut next: Vec<u32> = starts[..rows].to_vec();
            let mut order = vec![0u32; cells];
            for (i, &r) in row_of.iter().enumerate() {
                order[next[r as usize] as usize] = i as u32;
                next[r as usize] += 1;
            }
            Some(order)
        };
        let at = CellColumns::new(&columns);
        let mut light = ColumnCells {
            path: path.clone(),
            columns: Vec::new(),
            at,
            names,
            code_of,
            model,
            order,
            starts,
            non_null: 0,
        };
        // A model once a row.
        let mut seen_on = vec![u32::MAX; light.names.len()];
        for r in 0..rows {
            for k in 0..light.row_len(r) {
                let i = light.cell_index(r, k);
                let code = light.model[i] as usize;
                if seen_on[code] == r as u32 {
                    return Err(err(
                        i,
                        format!(
                            "model {} has a second cell on result row {r}",
                            light.names[code]
                        ),
                    ));
                }
                seen_on[code] = r as u32;
            }
        }
        for i in 0..cells {
            if !is_null(&columns, i) {
                light_cell(&path, &columns, &light.at, i)?;
                light.non_null += 1;
            }
        }
        for (c, column) in CELLS.columns.iter().enumerate() {
            if UNREAD.contains(&column.name) {
                columns[c] = ColumnData::U64(Numbers::default());
            }
        }
        for c in [base, base + 1] {
            if let Some(column) = columns.get_mut(c) {
                *column = ColumnData::U64(Numbers::default());
            }
        }
        light.columns = columns;
        Ok(light)
    }

    /// The cells table's row of candidate `k` of result row `row` (both in range).
    fn cell_index(&self, row: usize, k: usize) -> usize {
        let at = self.starts[row] as usize + k;
        match &self.order {
            Some(order) => order[at] as usize,
            None => at,
        }
    }
}

/// Whether cell `i` is null (the `null_cell` column, after the stored columns and `row`,
/// `model`).
fn is_null(columns: &[ColumnData], i: usize) -> bool {
    columns
        .get(CELLS.columns.len() + 2)
        .and_then(|c| c.bool_at(i))
        == Some(true)
}

/// Row `i` of the cells table at `path` as a cell of its columns alone, with where its
/// record is (none for an empty record: the columns are the whole cell).
fn light_cell(
    path: &str,
    columns: &[ColumnData],
    at: &CellColumns,
    i: usize,
) -> Result<Cell, V2Error> {
    let row_error = |message: String| V2Error::Row {
        path: path.to_owned(),
        row: i,
        message,
    };
    let (mut cell, n_sqls) = at.cell(columns, i).map_err(row_error)?;
    let base = columns.len() - 3;
    let value = |c: usize| columns.get(c).and_then(|c| c.u64_at(i)).unwrap_or(0);
    let small = |name: &str, value: u64| {
        u32::try_from(value).map_err(|_| row_error(format!("{name}: {value} is larger than a u32")))
    };
    let len = small("text_len", value(base + 2))?;
    if len > 0 {
        cell.text_at = Some(TextAt {
            row: small("row", i as u64)?,
            chunk: small("text_chunk", value(base))?,
            offset: small("text_offset", value(base + 1))?,
            len,
            n_sqls: small("n_sqls", n_sqls as u64)?,
        });
    }
    Ok(cell)
}

impl CellSource for ColumnCells {
    fn rows(&self) -> usize {
        self.starts.len() - 1
    }

    fn row_len(&self, row: usize) -> usize {
        match (self.starts.get(row), self.starts.get(row + 1)) {
            (Some(&a), Some(&b)) => (b - a) as usize,
            _ => 0,
        }
    }

    fn candidate(&self, row: usize, k: usize) -> Option<(&Name, Option<Cell>)> {
        if k >= self.row_len(row) {
            return None;
        }
        let i = self.cell_index(row, k);
        let name = &self.names[self.model[i] as usize];
        if is_null(&self.columns, i) {
            return Some((name, None));
        }
        // Made once already when read (`new`), so it cannot fail here.
        let cell = light_cell(&self.path, &self.columns, &self.at, i).ok();
        Some((name, cell))
    }

    fn model(&self, row: usize, k: usize) -> Option<&Name> {
        (k < self.row_len(row)).then(|| &self.names[self.model[self.cell_index(row, k)] as usize])
    }

    fn parts(&self, row: usize, k: usize) -> Option<CellParts<'_>> {
        if k >= self.row_len(row) {
            return None;
        }
        let i = self.cell_index(row, k);
        if is_null(&self.columns, i) {
            return None;
        }
        // Read once already when made (`new`), so it cannot fail here.
        self.at.parts(&self.columns, i).ok()
    }

    fn position(&self, row: usize, model: &str) -> Option<usize> {
        let code = *self.code_of.get(model)?;
        (0..self.row_len(row)).find(|&k| self.model[self.cell_index(row, k)] == code)
    }

    fn non_null(&self) -> usize {
        self.non_null
    }
}

impl fmt::Debug for ColumnCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ColumnCells")
            .field("path", &self.path)
            .field("cells", &self.model.len())
            .field("rows", &self.rows())
            .finish()
    }
}
