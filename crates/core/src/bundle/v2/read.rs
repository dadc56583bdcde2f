//! v2 entries back into a [`Bundle`]: every entry checked against the manifest's size and
//! SHA-256 as it is read, every row merged from its columns and its text record.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::codec::{DecodeError, decode_plain};
use super::layout::LAYOUT;
use super::light_cells::ColumnCells;
use super::light_gate::ColumnGate;
use super::record::record_in;
use super::schema::{
    CELLS, FAILURE_LABELS, FM_LABELS, GATE_ROWS, QUESTIONS, RANKINGS, RESULTS, Table,
};
use super::split::{ColumnData, SharedNames, merge_row};
use super::text::inflate;
use super::typed_rows::{FromColumns, typed_row};
use super::write::stored_columns;
use super::{CorpusInfo, EntryInfo, FORMAT_V2, MANIFEST, Manifest, SCHEMA_PROMPT, V2Error};
use crate::bundle::codec::hex;
use crate::bundle::{
    Bundle, BundleBody, Cell, Corpus, LightCells, LightGate, Name, Question, ResultRow,
};

/// Where entries come from (a directory, a zip, a browser's fetches).
pub trait EntrySource {
    /// The bytes of the entry at `path`; [`V2Error::Missing`] when there is none.
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error>;
}

/// Entries as files under a directory.
pub struct DirEntries(pub PathBuf);

impl EntrySource for DirEntries {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        let file = path.split('/').fold(self.0.clone(), |p, s| p.join(s));
        std::fs::read(&file).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => V2Error::Missing {
                path: path.to_owned(),
            },
            _ => V2Error::Read {
                path: path.to_owned(),
                message: e.to_string(),
            },
        })
    }
}

/// Entries already in memory, by path (what a browser fetched).
#[derive(Debug, Default)]
pub struct MemoryEntries(pub HashMap<String, Vec<u8>>);

impl EntrySource for MemoryEntries {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        // Each entry is read once: hand it over rather than copy it.
        self.0.remove(path).ok_or_else(|| V2Error::Missing {
            path: path.to_owned(),
        })
    }
}

/// Entries in memory, read without taking them (each read copies): for a partial read that
/// a whole read of the same entries follows ([`read_early_tables`]).
pub struct CopiedEntries<'a>(pub &'a MemoryEntries);

impl EntrySource for CopiedEntries<'_> {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        self.0.0.get(path).cloned().ok_or_else(|| V2Error::Missing {
            path: path.to_owned(),
        })
    }
}

/// Entries in memory, each handed over but the manifest, which is copied: for
/// [`read_early_tables`] when [`read_bundle_after`] reads the rest (it needs the manifest,
/// not the early tables' entries).
pub struct TakenEntries<'a>(pub &'a mut MemoryEntries);

impl EntrySource for TakenEntries<'_> {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        if path == MANIFEST {
            return CopiedEntries(self.0).entry(path);
        }
        self.0.entry(path)
    }
}

/// Reads and checks `manifest.json`.
pub fn read_manifest(source: &mut dyn EntrySource) -> Result<Manifest, V2Error> {
    parse_manifest(&source.entry(MANIFEST)?)
}

/// Parses and checks the bytes of `manifest.json`.
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, V2Error> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| V2Error::Manifest {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let format = value.get("format").and_then(Value::as_str).unwrap_or("");
    if format != FORMAT_V2 {
        return Err(V2Error::Format {
            found: format.to_owned(),
        });
    }
    serde_json::from_value(value).map_err(|e| V2Error::Manifest {
        line: 0,
        column: 0,
        message: e.to_string(),
    })
}

/// Reads entries through `source`, each checked against the manifest; with `inflated`, the
/// source hands `.gz` entries over checked and inflated already (see [`read_bundle_inflated`]).
struct Checked<'a> {
    source: &'a mut dyn EntrySource,
    listed: HashMap<String, EntryInfo>,
    inflated: bool,
}

impl Checked<'_> {
    fn get(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        let Some(info) = self.listed.get(path) else {
            return Err(V2Error::Missing {
                path: format!("{path} (not in the manifest)"),
            });
        };
        let bytes = self.source.entry(path)?;
        if !(self.inflated && path.ends_with(".gz")) {
            check_entry(info, &bytes)?;
        }
        Ok(bytes)
    }

    /// A `.gz` entry's inflated bytes.
    fn get_inflated(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        let bytes = self.get(path)?;
        if self.inflated {
            return Ok(bytes);
        }
        inflate(&bytes).map_err(|message| V2Error::Read {
            path: path.to_owned(),
            message,
        })
    }
}

/// Checks an entry's bytes against the manifest's size and SHA-256 for it.
pub fn check_entry(info: &EntryInfo, bytes: &[u8]) -> Result<(), V2Error> {
    check_size(info, bytes.len() as u64)?;
    check_digest(info, &hex(&Sha256::digest(bytes)))
}

/// Checks an entry's size against the manifest's.
pub fn check_size(info: &EntryInfo, len: u64) -> Result<(), V2Error> {
    if len != info.size {
        return Err(V2Error::Mismatch {
            path: info.path.clone(),
            what: "size",
            expected: info.size.to_string(),
            found: len.to_string(),
        });
    }
    Ok(())
}

/// Checks an entry's SHA-256 (lower-case hex, computed by the caller, e.g. with a browser's
/// `crypto.subtle`) against the manifest's.
pub fn check_digest(info: &EntryInfo, digest: &str) -> Result<(), V2Error> {
    let path = &info.path;
    if digest != info.sha256 {
        return Err(V2Error::Mismatch {
            path: path.to_owned(),
            what: "sha256",
            expected: info.sha256.clone(),
            found: digest.to_owned(),
        });
    }
    Ok(())
}

/// The manifest's `head` as a body without corpora.
fn head_body(head: Value) -> Result<BundleBody, V2Error> {
    serde_json::from_value(head).map_err(|e| V2Error::Manifest {
        line: 0,
        column: 0,
        message: format!("head: {e}"),
    })
}

/// The bundle of the manifest alone: its head, and each corpus's name and models with no
/// rows (what a reader shows before the tables are read).
pub fn head_bundle(manifest: &Manifest) -> Result<Bundle, V2Error> {
    let mut body = head_body(manifest.head.clone())?;
    body.corpora = manifest
        .corpora
        .iter()
        .map(|c| Corpus {
            name: c.name.clone(),
            models: c.models.clone(),
            ..Corpus::default()
        })
        .collect();
    Ok(Bundle {
        format: crate::bundle::FORMAT.to_owned(),
        provenance: manifest.provenance.clone(),
        content_hash: manifest.content_hash.clone(),
        body,
    })
}

/// A decoded table with its text records at hand (none when it was loaded without them).
struct Loaded {
    path: String,
    table: Table,
    columns: Vec<ColumnData>,
    rows: usize,
    chunks: Vec<Vec<u8>>,
}

fn u64_at(columns: &[ColumnData], at: usize, row: usize) -> Option<u64> {
    columns.get(at).and_then(|c| c.u64_at(row))
}

impl Loaded {
    fn load(
        files: &mut Checked<'_>,
        dir: &str,
        table: Table,
        expected_rows: Option<u64>,
    ) -> Result<Loaded, V2Error> {
        Loaded::load_with(files, dir, table, expected_rows, true)
    }

    /// The table, with its text chunks when `text`.
    fn load_with(
        files: &mut Checked<'_>,
        dir: &str,
        table: Table,
        expected_rows: Option<u64>,
        text: bool,
    ) -> Result<Loaded, V2Error> {
        let path = format!("{dir}/{}.cols.gz", table.name);
        let plain = files.get_inflated(&path).map_err(|e| match e {
            V2Error::Read { path, message } => V2Error::Table {
                path,
                message: format!("not a readable table: gzip: {message}"),
            },
            other => other,
        })?;
        let spec = stored_columns(&table);
        let (columns, rows) =
            decode_plain(&spec, &plain).map_err(|e| table_error(path.clone(), e))?;
        drop(plain);
        if let Some(expected) = expected_rows
            && expected != rows as u64
        {
            return Err(V2Error::Table {
                path,
                message: format!("{rows} rows; the manifest says {expected}"),
            });
        }
        let mut chunks = Vec::new();
        let prefix = format!("{dir}/{}.text/", table.name);
        let mut n = 0;
        loop {
            let name = format!("{prefix}{n}.gz");
            if !text || !files.listed.contains_key(&name) {
                break;
            }
            chunks.push(files.get_inflated(&name)?);
            n += 1;
        }
        Ok(Loaded {
            path,
            table,
            columns,
            rows,
            chunks,
        })
    }

    /// Row `i`'s text record (empty when it has none).
    fn record_bytes(&self, i: usize) -> Result<&[u8], V2Error> {
        record_in(&self.path, &self.columns, &self.chunks, i)
    }

    /// Row `i` as JSON: its text record with its column values merged in.
    fn row(&self, i: usize) -> Result<Map<String, Value>, V2Error> {
        let err = |message: String| V2Error::Row {
            path: self.path.clone(),
            row: i,
            message,
        };
        let bytes = self.record_bytes(i)?;
        let mut record = if bytes.is_empty() {
            Map::new()
        } else {
            serde_json::from_slice(bytes).map_err(|e| err(format!("text record: {e}")))?
        };
        merge_row(&self.table, &self.columns, i, &mut record).map_err(|e| {
            err(format!(
                "column {} has a value but no place in the record",
                e.column
            ))
        })?;
        Ok(record)
    }

    /// Every row as its row type, its column values moved into it ([`typed_rows`]): the
    /// same rows as [`Loaded::typed`] without a JSON tree per row.
    fn typed_moved<T: FromColumns>(self) -> Result<Vec<T>, V2Error> {
        let Loaded {
            path,
            mut columns,
            rows,
            chunks,
            ..
        } = self;
        // Made at its size: collected through `Result`, a vector does not know its length
        // and doubles as it grows (a gate row is ~540 bytes: `large` kept 31,000 spare).
        let mut out = Vec::with_capacity(rows);
        for i in 0..rows {
            let record = record_in(&path, &columns, &chunks, i)?;
            out.push(
                typed_row::<T>(&mut columns, i, record).map_err(|message| V2Error::Row {
                    path: path.clone(),
                    row: i,
                    message,
                })?,
            );
        }
        Ok(out)
    }

    /// Row `i` as its row type.
    fn typed_row<T: DeserializeOwned>(&self, i: usize) -> Result<T, V2Error> {
        serde_json::from_value(Value::Object(self.row(i)?)).map_err(|e| V2Error::Row {
            path: self.path.clone(),
            row: i,
            message: e.to_string(),
        })
    }

    /// Every row as its row type.
    fn typed<T: DeserializeOwned>(&self) -> Result<Vec<T>, V2Error> {
        let mut out = Vec::with_capacity(self.rows);
        for i in 0..self.rows {
            out.push(self.typed_row(i)?);
        }
        Ok(out)
    }
}

/// A table entry's decode error, in words.
pub(crate) fn table_error(path: String, e: DecodeError) -> V2Error {
    V2Error::Table {
        path,
        message: match e {
            DecodeError::Unreadable(m) => format!("not a readable table: {m}"),
            DecodeError::Layout(n) => {
                format!("table layout {n}; this runlens reads layout {LAYOUT}")
            }
            DecodeError::Missing(c) => format!("column {c} is missing"),
            DecodeError::Type {
                column,
                expected,
                found,
            } => format!("column {column}: expected {expected}, found {found}"),
            DecodeError::Length { column, message } => format!("column {column}: {message}"),
        },
    }
}

/// A JSON entry, parsed.
fn json_entry<T: DeserializeOwned>(files: &mut Checked<'_>, path: &str) -> Result<T, V2Error> {
    let bytes = files.get(path)?;
    serde_json::from_slice(&bytes).map_err(|e| V2Error::Read {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

/// A corpus; its cells with their text records when `cells_text`, else their columns alone
/// ([`super::cell_text`]); its questions, rankings, labels and gate rows taken from `early`
/// when given (the same corpus read by [`read_early_tables`]), else read.
fn read_corpus(
    files: &mut Checked<'_>,
    info: &CorpusInfo,
    cells_text: bool,
    early: Option<Corpus>,
) -> Result<Corpus, V2Error> {
    let dir = info.dir.as_str();
    let rows = |name: &str| info.rows.get(name).copied();
    let early = match early {
        Some(early) => early,
        None => early_corpus(files, info, !cells_text)?,
    };
    let questions = early.questions;
    let results = Loaded::load(files, dir, RESULTS, rows("results"))?;
    let cells = Loaded::load_with(files, dir, CELLS, rows("cells"), cells_text)?;
    let (result_rows, light_cells) = if cells_text {
        (rows_with_cells(results, cells)?, LightCells::default())
    } else {
        let light = ColumnCells::new(cells.path, cells.columns, cells.rows, results.rows)?;
        (results.typed()?, LightCells::new(Arc::new(light)))
    };
    Ok(Corpus {
        name: info.name.clone(),
        questions,
        results: result_rows,
        models: info.models.clone(),
        rankings: early.rankings,
        failure_labels: early.failure_labels,
        fm_labels: early.fm_labels,
        gate_rows: early.gate_rows,
        light_gate: early.light_gate,
        board_manifest: if info.board_manifest {
            Some(json_entry(files, &format!("{dir}/board_manifest.json"))?)
        } else {
            None
        },
        light_cells,
    })
}

/// The result rows with their cells, text records merged (a model with two cells on one row
/// is an error, as for [`ColumnCells`]).
fn rows_with_cells(results: Loaded, cells: Loaded) -> Result<Vec<ResultRow>, V2Error> {
    let base = CELLS.columns.len();
    let model_column = cells.columns.get(base + 1);
    // Every cell's model key points at one copy per model.
    let models = SharedNames::of(model_column);
    // Typed cells as they are merged (a tree of JSON values per cell would hold several
    // times the text).
    // Each map made with room for its row's cells: grown one insert at a time, a map of 40
    // keeps room for 64.
    let mut per_row = vec![0usize; results.rows];
    for i in 0..cells.rows {
        if let Some(n) = u64_at(&cells.columns, base, i).and_then(|r| per_row.get_mut(r as usize)) {
            *n += 1;
        }
    }
    let mut candidates: Vec<IndexMap<Name, Option<Cell>>> =
        per_row.into_iter().map(IndexMap::with_capacity).collect();
    for i in 0..cells.rows {
        let row = u64_at(&cells.columns, base, i).map(|r| r as usize);
        let model = model_column.and_then(|c| models.get(c, i));
        let null = cells.columns.get(base + 2).and_then(|c| c.bool_at(i)) == Some(true);
        let row_error = |message: String| V2Error::Row {
            path: cells.path.clone(),
            row: i,
            message,
        };
        let (Some(row), Some(model)) = (row, model) else {
            return Err(row_error("row or model is missing".to_owned()));
        };
        let slot = candidates.get_mut(row).ok_or_else(|| {
            row_error(format!(
                "row {row} is past the last result row ({})",
                results.rows
            ))
        })?;
        let cell: Option<Cell> = if null {
            None
        } else {
            Some(cells.typed_row(i)?)
        };
        if slot.insert(Name::clone(&model), cell).is_some() {
            return Err(row_error(format!(
                "model {model} has a second cell on result row {row}"
            )));
        }
    }
    drop(cells);
    let mut result_rows: Vec<ResultRow> = results.typed()?;
    for (row, cands) in result_rows.iter_mut().zip(candidates) {
        row.candidates = cands;
    }
    Ok(result_rows)
}

/// Reads a whole v2 bundle. The content hash is the manifest's (not recomputed: see
/// [`Bundle::verify_content_hash`]).
pub fn read_bundle(source: &mut dyn EntrySource) -> Result<Bundle, V2Error> {
    read(source, false)
}

/// [`read_bundle`] of a source whose `.gz` entries the caller has checked against the
/// manifest ([`check_entry`]) and inflated already (a browser's `DecompressionStream` is many
/// times faster than the wasm inflater); the other entries are checked here.
pub fn read_bundle_inflated(source: &mut dyn EntrySource) -> Result<Bundle, V2Error> {
    read(source, true)
}

/// The bundle with only each corpus's questions, ranking rows, failure labels, FM labels and
/// gate rows (the cells and results empty; names, models and the head as in the whole
/// bundle): what the table-ranking, failures and gate views compute from, readable before
/// the cells' text is in. `source` as for [`read_bundle_inflated`]: its `.gz` entries
/// checked and inflated already.
pub fn read_early_tables(source: &mut dyn EntrySource) -> Result<Bundle, V2Error> {
    read_with(source, true, false, &|files, info| {
        early_corpus(files, info, false)
    })
}

/// [`read_early_tables`] for a light read ([`read_bundle_light`], or [`read_bundle_after`]
/// without the cells' text): the questions without their annotators' runs.
pub fn read_early_tables_light(source: &mut dyn EntrySource) -> Result<Bundle, V2Error> {
    read_with(source, true, false, &|files, info| {
        early_corpus(files, info, true)
    })
}

/// A corpus's questions, rankings, failure labels, FM labels and gate rows; when `light`,
/// the questions without their annotators' runs: no view or metric reads them, and they
/// were most of the questions' text (docs/performance.md, "Unwanted columns walked over, no
/// annotator runs, scores as a list").
fn early_corpus(
    files: &mut Checked<'_>,
    info: &CorpusInfo,
    light: bool,
) -> Result<Corpus, V2Error> {
    let dir = info.dir.as_str();
    let rows = |name: &str| info.rows.get(name).copied();
    let mut questions: Vec<Question> =
        Loaded::load(files, dir, QUESTIONS, rows("questions"))?.typed_moved()?;
    if light {
        for q in &mut questions {
            q.annotators = None;
        }
    }
    let gate = Loaded::load(files, dir, GATE_ROWS, rows("gate_rows"))?;
    let (gate_rows, light_gate) = if light {
        let Loaded {
            path,
            columns,
            rows,
            chunks,
            ..
        } = gate;
        let light = ColumnGate::new(path, columns, rows, chunks)?;
        (Vec::new(), LightGate::new(Arc::new(light)))
    } else {
        (gate.typed_moved()?, LightGate::default())
    };
    Ok(Corpus {
        name: info.name.clone(),
        models: info.models.clone(),
        questions,
        rankings: Loaded::load(files, dir, RANKINGS, rows("rankings"))?.typed_moved()?,
        failure_labels: Loaded::load(files, dir, FAILURE_LABELS, rows("failure_labels"))?
            .typed_moved()?,
        fm_labels: Loaded::load(files, dir, FM_LABELS, rows("fm_labels"))?.typed_moved()?,
        gate_rows,
        light_gate,
        ..Corpus::default()
    })
}

/// Whether the entry at `path` is one [`read_early_tables`] reads: a questions, rankings,
/// failure labels, FM labels or gate rows table (`corpora/<i>/<table>.cols.gz`) or one of its
/// text chunks (`corpora/<i>/<table>.text/<n>.gz`).
pub fn is_early_table_path(path: &str) -> bool {
    let mut parts = path.split('/');
    let (Some("corpora"), Some(_), Some(name)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    [
        QUESTIONS.name,
        RANKINGS.name,
        FAILURE_LABELS.name,
        FM_LABELS.name,
        GATE_ROWS.name,
    ]
    .iter()
    .any(|t| {
        name.strip_prefix(t)
            .is_some_and(|rest| rest == ".cols.gz" || rest == ".text")
    })
}

type ReadCorpus<'a> = dyn Fn(&mut Checked<'_>, &CorpusInfo) -> Result<Corpus, V2Error> + 'a;

fn read(source: &mut dyn EntrySource, inflated: bool) -> Result<Bundle, V2Error> {
    read_with(source, inflated, true, &|files, info| {
        read_corpus(files, info, true, None)
    })
}

/// [`read_bundle_inflated`] without the cells' text: each cell holds its columns (everything
/// the metrics read) and where its text record is ([`Cell::text_at`]);
/// [`super::fill_cell`] puts a record back. The source needs no `cells.text` chunk. The
/// questions come without their annotators' runs ([`read_early_tables_light`]). What a
/// reader keeps in memory then no longer grows with the trajectories' text.
pub fn read_bundle_light(source: &mut dyn EntrySource) -> Result<Bundle, V2Error> {
    read_with(source, true, true, &|files, info| {
        read_corpus(files, info, false, None)
    })
}

/// The rest of a bundle whose early tables `early` holds ([`read_early_tables`], read with
/// [`TakenEntries`] from the same entries): the questions, rankings, labels and gate rows are
/// moved from `early`, never read (or held) twice; the cells with their text
/// ([`read_bundle_inflated`]) when `cells_text`, else without ([`read_bundle_light`]). A
/// corpus `early` lacks is read whole. `source` as for [`read_bundle_inflated`].
pub fn read_bundle_after(
    source: &mut dyn EntrySource,
    early: Bundle,
    cells_text: bool,
) -> Result<Bundle, V2Error> {
    let early = std::cell::RefCell::new(early.body.corpora);
    read_with(source, true, true, &|files, info| {
        let taken = early
            .borrow_mut()
            .iter_mut()
            .find(|c| c.name == info.name)
            .map(std::mem::take);
        read_corpus(files, info, cells_text, taken)
    })
}

fn read_with(
    source: &mut dyn EntrySource,
    inflated: bool,
    schema_prompt: bool,
    corpus: &ReadCorpus<'_>,
) -> Result<Bundle, V2Error> {
    let mut manifest = read_manifest(source)?;
    let listed = manifest
        .entries
        .iter()
        .map(|e| (e.path.clone(), e.clone()))
        .collect();
    let mut files = Checked {
        source,
        listed,
        inflated,
    };
    let mut body = head_body(manifest.head.take())?;
    if schema_prompt && files.listed.contains_key(SCHEMA_PROMPT) {
        body.schema_prompt = Some(json_entry(&mut files, SCHEMA_PROMPT)?);
    }
    body.corpora = manifest
        .corpora
        .iter()
        .map(|c| corpus(&mut files, c))
        .collect::<Result<_, _>>()?;
    Ok(Bundle {
        format: crate::bundle::FORMAT.to_owned(),
        provenance: manifest.provenance,
        content_hash: manifest.content_hash,
        body,
    })
}
