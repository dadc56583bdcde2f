//! A [`Bundle`] as v2 entries: the manifest and, per corpus, one columnar table and its text
//! chunks per row type.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::codec::encode_packed;
use super::packed::Packed;
use super::schema::{
    CELLS, Column, FAILURE_LABELS, FM_LABELS, GATE_ROWS, Kind, QUESTIONS, RANKINGS, RESULTS, Table,
};
use super::split::split_row;
use super::text::TextWriter;
use super::{CorpusInfo, EntryInfo, FORMAT_V2, Manifest, SCHEMA_PROMPT, V2Error};
use crate::bundle::codec::hex;
use crate::bundle::{Bundle, BundleBody, Corpus};

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
pub(crate) fn stored_columns(table: &Table) -> Vec<Column> {
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

    /// One row (any serialisable row type) as a JSON object.
    fn object_of<T: Serialize>(&self, row: &T) -> Result<Map<String, Value>, V2Error> {
        object(row).map_err(|message| V2Error::Row {
            path: self.table.name.to_owned(),
            row: self.rows,
            message,
        })
    }

    /// Splits one row into the columns and its text record.
    fn push<T: Serialize>(&mut self, row: &T) -> Result<(), V2Error> {
        let object = self.object_of(row)?;
        self.push_object(object);
        Ok(())
    }

    /// Splits one row's JSON object into the columns and its text record (an empty object:
    /// no value in any column and an empty record).
    fn push_object(&mut self, mut object: Map<String, Value>) {
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

    /// The table's entry and its text chunks not yet taken ([`Builder::closed_chunks`])
    /// under `dir`; its row count goes to `rows`.
    pub(super) fn finish(
        self,
        dir: &str,
        entries: &mut Vec<Entry>,
        rows: &mut IndexMap<String, u64>,
    ) {
        let path = format!("{dir}/{}.cols.gz", self.table.name);
        let spec = stored_columns(&self.table);
        rows.insert(self.table.name.to_owned(), self.rows as u64);
        let chunks = self.text.finish();
        let name = self.table.name;
        let chunk_paths: Vec<String> = chunks
            .iter()
            .map(|(n, _)| format!("{dir}/{name}.text/{n}.gz"))
            .collect();
        let mut all = self.columns;
        all.extend(self.index);
        let bytes = encode_packed(&spec, all, self.rows);
        entries.push(Entry { path, bytes });
        for (path, (_, bytes)) in chunk_paths.into_iter().zip(chunks) {
            entries.push(Entry { path, bytes });
        }
    }
}

fn object<T: Serialize>(row: &T) -> Result<Map<String, Value>, String> {
    match serde_json::to_value(row).map_err(|e| e.to_string())? {
        Value::Object(map) => Ok(map),
        other => Err(format!("expected a JSON object, found {other}")),
    }
}

/// Writes the table of `rows` (see [`Builder::finish`]).
fn rows_of<T: Serialize>(
    table: Table,
    rows: &[T],
    dir: &str,
    entries: &mut Vec<Entry>,
    counts: &mut IndexMap<String, u64>,
) -> Result<(), V2Error> {
    let mut b = Builder::new(table);
    for row in rows {
        b.push(row)?;
    }
    b.finish(dir, entries, counts);
    Ok(())
}

/// The result rows without candidates, and the cells table.
fn results_and_cells(
    corpus: &Corpus,
    dir: &str,
    entries: &mut Vec<Entry>,
    counts: &mut IndexMap<String, u64>,
) -> Result<(), V2Error> {
    let mut results = Builder::new(RESULTS);
    let mut cells = Builder::new(CELLS);
    for (i, row) in corpus.results.iter().enumerate() {
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
    }
    results.finish(dir, entries, counts);
    cells.finish(dir, entries, counts);
    Ok(())
}

/// The manifest (as JSON) and every other entry of `bundle` in v2, in writing order.
pub fn write_entries(bundle: &Bundle) -> Result<(Vec<u8>, Vec<Entry>), V2Error> {
    let mut entries = Vec::new();
    let mut corpora = Vec::new();
    for (i, corpus) in bundle.body.corpora.iter().enumerate() {
        let dir = format!("corpora/{i}");
        let mut rows = IndexMap::new();
        rows_of(QUESTIONS, &corpus.questions, &dir, &mut entries, &mut rows)?;
        results_and_cells(corpus, &dir, &mut entries, &mut rows)?;
        rows_of(RANKINGS, &corpus.rankings, &dir, &mut entries, &mut rows)?;
        let labels = &corpus.failure_labels;
        rows_of(FAILURE_LABELS, labels, &dir, &mut entries, &mut rows)?;
        rows_of(FM_LABELS, &corpus.fm_labels, &dir, &mut entries, &mut rows)?;
        rows_of(GATE_ROWS, &corpus.gate_rows, &dir, &mut entries, &mut rows)?;
        if let Some(board) = &corpus.board_manifest {
            entries.push(Entry {
                path: format!("{dir}/board_manifest.json"),
                bytes: serde_json::to_vec(board).unwrap_or_default(),
            });
        }
        corpora.push(CorpusInfo {
            name: corpus.name.clone(),
            models: corpus.models.clone(),
            dir,
            rows,
            board_manifest: corpus.board_manifest.is_some(),
        });
    }
    // The body without its corpora (serialising the whole body to a JSON tree first would
    // hold every row twice over) and without its schema prompt (an entry of its own).
    let b = &bundle.body;
    let shell = BundleBody {
        schema_prompt: None,
        ..b.head()
    };
    let mut head = object(&shell).map_err(|message| V2Error::Row {
        path: "body".to_owned(),
        row: 0,
        message,
    })?;
    head.shift_remove("corpora");
    if let Some(prompt) = &b.schema_prompt {
        entries.push(Entry {
            path: SCHEMA_PROMPT.to_owned(),
            bytes: serde_json::to_vec(prompt).unwrap_or_default(),
        });
    }
    let manifest = Manifest {
        format: FORMAT_V2.to_owned(),
        provenance: bundle.provenance.clone(),
        content_hash: bundle.content_hash.clone(),
        head: Value::Object(head),
        corpora,
        entries: entries
            .iter()
            .map(|e| EntryInfo {
                path: e.path.clone(),
                size: e.bytes.len() as u64,
                sha256: hex(&Sha256::digest(&e.bytes)),
            })
            .collect(),
    };
    let json = serde_json::to_vec(&manifest).unwrap_or_default();
    Ok((json, entries))
}
