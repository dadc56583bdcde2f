//! A [`Bundle`] as v2 entries: the manifest and, per corpus, one columnar table and its text
//! chunks per row type.

use serde::Serialize;
use serde_json::{Map, Value};

use super::V2Error;
use super::packed::Packed;
use super::packed::encode_packed;
use super::schema::{CELLS, Column, Kind, Table};
use super::split::split_row;
use super::text::TextWriter;
use crate::bundle::ResultRow;

/// One entry: its path and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `/`-separated relative path.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The index columns every table ends with: where its row's text record is.
pub(crate) const TEXT_INDEX: [Column; 3] = [
    index_column("text_chunk", Kind::U64),
    index_column("text_offset", Kind::U64),
    index_column("text_len", Kind::U64),
];

/// The cells table's own index columns: the result row, the candidate key, a `null` cell.
pub(crate) const CELL_INDEX: [Column; 3] = [
    index_column("row", Kind::U64),
    index_column("model", Kind::Dict),
    index_column("null_cell", Kind::Bool),
];

const fn index_column(name: &'static str, kind: Kind) -> Column {
    Column {
        name,
        path: &[],
        kind,
        take: false,
    }
}

/// The full column list of `table` as stored (its columns, then the index columns).
pub fn stored_columns(table: &Table) -> Vec<Column> {
    let mut out = table.columns.to_vec();
    if table.name == CELLS.name {
        out.extend(CELL_INDEX);
    }
    out.extend(TEXT_INDEX);
    out
}

/// A table being filled.
pub(super) struct Builder {
    table: Table,
    columns: Vec<Packed>,
    index: Vec<Packed>,
    text: TextWriter,
    rows: usize,
}

impl Builder {
    pub(super) fn new(table: Table) -> Builder {
        let packed = |cols: &[Column]| cols.iter().map(|c| Packed::new(c.kind)).collect();
        Builder {
            columns: packed(table.columns),
            index: packed(&stored_columns(&table)[table.columns.len()..]),
            table,
            text: TextWriter::default(),
            rows: 0,
        }
    }

    /// The text chunks closed since the last call, with their numbers (a writer that must
    /// not hold every chunk takes them as they close).
    pub(super) fn closed_chunks(&mut self) -> Vec<(usize, Vec<u8>)> {
        self.text.take_closed()
    }

    /// One row (any serialisable row type) as a JSON object.
    fn object_of<T: Serialize>(&self, row: &T) -> Result<Map<String, Value>, V2Error> {
        object(row).map_err(|message| V2Error::Row {
            path: self.table.name.to_owned(),
            row: self.rows,
            message,
        })
    }

    /// Splits one row into the columns and its text record.
    pub(super) fn push<T: Serialize>(&mut self, row: &T) -> Result<(), V2Error> {
        let object = self.object_of(row)?;
        self.push_object(object);
        Ok(())
    }

    /// Splits one row's JSON object into the columns and its text record (an empty object:
    /// no value in any column and an empty record).
    pub(super) fn push_object(&mut self, mut object: Map<String, Value>) {
        split_row(&self.table, &mut self.columns, &mut object);
        self.push_record(&object);
    }

    /// Appends the text index of `record` (its bytes in the current chunk).
    fn push_record(&mut self, record: &Map<String, Value>) {
        let bytes = if record.is_empty() {
            Vec::new()
        } else {
            serde_json::to_vec(record).unwrap_or_default()
        };
        let (chunk, offset, len) = self.text.push(&bytes);
        let n = self.index.len();
        for (slot, value) in self.index[n - 3..].iter_mut().zip([chunk, offset, len]) {
            slot.push_u64(value);
        }
        self.rows += 1;
    }

    /// Rows so far.
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// The table's name.
    pub(super) fn name(&self) -> &'static str {
        self.table.name
    }

    /// The table's entry under `dir`, then its text chunks not yet taken
    /// ([`Builder::closed_chunks`]).
    pub(super) fn finish(self, dir: &str) -> Vec<Entry> {
        let spec = stored_columns(&self.table);
        let name = self.table.name;
        let chunks = self.text.finish();
        let mut all = self.columns;
        all.extend(self.index);
        let mut out = vec![Entry {
            path: format!("{dir}/{name}.cols.gz"),
            bytes: encode_packed(&spec, all, self.rows),
        }];
        out.extend(chunks.into_iter().map(|(n, bytes)| Entry {
            path: chunk_path(dir, name, n),
            bytes,
        }));
        out
    }
}

/// The path of text chunk `n` of table `name` under `dir`.
pub(super) fn chunk_path(dir: &str, name: &str, n: usize) -> String {
    format!("{dir}/{name}.text/{n}.gz")
}

pub(super) fn object<T: Serialize>(row: &T) -> Result<Map<String, Value>, String> {
    match serde_json::to_value(row).map_err(|e| e.to_string())? {
        Value::Object(map) => Ok(map),
        other => Err(format!("expected a JSON object, found {other}")),
    }
}

/// Appends result row number `i` to `results` (without its candidates) and its candidates to
/// `cells` (a `null` cell as an empty row), with the cells' index columns.
pub(super) fn push_result(
    results: &mut Builder,
    cells: &mut Builder,
    i: usize,
    row: &ResultRow,
) -> Result<(), V2Error> {
    let mut object = results.object_of(row)?;
    object.shift_remove("candidates");
    results.push_object(object);
    for (model, cell) in &row.candidates {
        match cell {
            Some(cell) => cells.push(cell)?,
            None => cells.push_object(Map::new()),
        }
        if let [r, m, null, ..] = &mut cells.index[..] {
            r.push_u64(i as u64);
            m.push_str(model);
            null.push_bool(cell.is_none());
        }
    }
    Ok(())
}
