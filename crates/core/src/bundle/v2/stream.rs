//! Writes a bundle's v2 entries from its rows handed over one at a time, so a writer never
//! holds more than the tables' columns and one text chunk per table: the rows come from a
//! [`Rows`] source (a bundle in memory, or harness files read a line at a time), each
//! finished entry goes to an [`EntrySink`] (memory, or files). The content hash is computed
//! on the way, over exactly the bytes [`crate::bundle::BundleBody::canonical_json`] gives.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::schema::{CELLS, FAILURE_LABELS, FM_LABELS, GATE_ROWS, QUESTIONS, RANKINGS, RESULTS};
use super::write::{Builder, Entry, chunk_path, object, push_result};
use super::{CorpusInfo, EntryInfo, FORMAT_V2, Manifest, SCHEMA_PROMPT, V2Error};
use crate::bundle::canonical::{List, Step, plan};
use crate::bundle::codec::hex;
use crate::bundle::{
    Bundle, BundleBody, FailureLabel, FmLabel, GateRow, Provenance, Question, RankingRow, ResultRow,
};

/// One row of a corpus's list.
pub(crate) enum Row<'a> {
    Question(&'a Question),
    Result(&'a ResultRow),
    Ranking(&'a RankingRow),
    FailureLabel(&'a FailureLabel),
    FmLabel(&'a FmLabel),
    Gate(&'a GateRow),
}

/// What each row does for the one serde call it needs.
impl Serialize for Row<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Row::Question(r) => r.serialize(s),
            Row::Result(r) => r.serialize(s),
            Row::Ranking(r) => r.serialize(s),
            Row::FailureLabel(r) => r.serialize(s),
            Row::FmLabel(r) => r.serialize(s),
            Row::Gate(r) => r.serialize(s),
        }
    }
}

/// A callback given each row of a list, in order.
pub(crate) type EachRow<'f> = dyn FnMut(Row<'_>) -> Result<(), V2Error> + 'f;

/// Hands over a corpus's rows of one list, in body order.
pub(crate) trait Rows {
    /// Calls `each` with every row of list `list` of corpus `corpus`.
    fn each(&mut self, corpus: usize, list: List, each: &mut EachRow<'_>) -> Result<(), V2Error>;
}

/// Where finished entries go.
pub trait EntrySink {
    /// Stores one entry.
    fn put(&mut self, path: &str, bytes: Vec<u8>) -> Result<(), V2Error>;
}

/// The rows of a body in memory.
pub(crate) struct BodyRows<'a>(pub(crate) &'a BundleBody);

impl Rows for BodyRows<'_> {
    fn each(&mut self, corpus: usize, list: List, each: &mut EachRow<'_>) -> Result<(), V2Error> {
        let Some(c) = self.0.corpora.get(corpus) else {
            return Ok(());
        };
        match list {
            List::Questions => c.questions.iter().try_for_each(|r| each(Row::Question(r))),
            List::Results => c.results.iter().try_for_each(|r| each(Row::Result(r))),
            List::Rankings => c.rankings.iter().try_for_each(|r| each(Row::Ranking(r))),
            List::FailureLabels => c
                .failure_labels
                .iter()
                .try_for_each(|r| each(Row::FailureLabel(r))),
            List::FmLabels => c.fm_labels.iter().try_for_each(|r| each(Row::FmLabel(r))),
            List::GateRows => c.gate().iter().try_for_each(|r| each(Row::Gate(&r))),
        }
    }
}

/// The manifest written, and its JSON.
pub struct Written {
    /// The manifest.
    pub manifest: Manifest,
    /// Its bytes, as stored.
    pub json: Vec<u8>,
}

/// Feeds the hash and records each entry given to the sink.
struct Out<'s> {
    sink: &'s mut dyn EntrySink,
    hasher: Option<Sha256>,
    infos: Vec<EntryInfo>,
}

impl Out<'_> {
    fn hash(&mut self, bytes: &[u8]) {
        if let Some(h) = &mut self.hasher {
            h.update(bytes);
        }
    }

    fn put(&mut self, entry: Entry) -> Result<EntryInfo, V2Error> {
        let info = EntryInfo {
            path: entry.path.clone(),
            size: entry.bytes.len() as u64,
            sha256: hex(&Sha256::digest(&entry.bytes)),
        };
        self.sink.put(&entry.path, entry.bytes)?;
        Ok(info)
    }
}

/// One table being written: its builder and the infos of the chunks already given away.
struct Table {
    builder: Builder,
    chunks: Vec<EntryInfo>,
}

impl Table {
    fn new(table: super::schema::Table) -> Table {
        Table {
            builder: Builder::new(table),
            chunks: Vec::new(),
        }
    }

    /// Gives the chunks closed so far to the sink.
    fn spill(&mut self, dir: &str, out: &mut Out<'_>) -> Result<(), V2Error> {
        let name = self.builder.name();
        for (n, bytes) in self.builder.closed_chunks() {
            let info = out.put(Entry {
                path: chunk_path(dir, name, n),
                bytes,
            })?;
            self.chunks.push(info);
        }
        Ok(())
    }

    /// Writes the table and its last chunks; the infos go in table-then-chunks order.
    fn finish(
        self,
        dir: &str,
        out: &mut Out<'_>,
        rows: &mut IndexMap<String, u64>,
    ) -> Result<(), V2Error> {
        rows.insert(self.builder.name().to_owned(), self.builder.rows() as u64);
        let mut entries = self.builder.finish(dir).into_iter();
        if let Some(table) = entries.next() {
            let info = out.put(table)?;
            out.infos.push(info);
        }
        out.infos.extend(self.chunks);
        for chunk in entries {
            let info = out.put(chunk)?;
            out.infos.push(info);
        }
        Ok(())
    }
}

/// Writes every entry of a body whose skeleton ([`BundleBody::skeleton`]) is `skeleton` and
/// whose rows `rows` hands over, then returns the manifest (not written to the sink).
/// `content_hash`: the body's hash when known (a bundle read back), else computed here.
pub(crate) fn write_streamed(
    skeleton: &BundleBody,
    provenance: Provenance,
    content_hash: Option<String>,
    rows: &mut dyn Rows,
    sink: &mut dyn EntrySink,
) -> Result<Written, V2Error> {
    let json = skeleton.canonical_json();
    let mut out = Out {
        sink,
        hasher: content_hash.is_none().then(Sha256::new),
        infos: Vec::new(),
    };
    let mut counts: Vec<IndexMap<String, u64>> = vec![IndexMap::new(); skeleton.corpora.len()];
    for step in plan(&json) {
        match step {
            Step::Skeleton(range) => out.hash(&json[range]),
            Step::List(ci, list) => {
                let dir = format!("corpora/{ci}");
                write_list(rows, ci, list, &dir, &mut out, &mut counts[ci])?;
                if list == List::GateRows
                    && let Some(board) = &skeleton.corpora[ci].board_manifest
                {
                    let info = out.put(Entry {
                        path: format!("{dir}/board_manifest.json"),
                        bytes: serde_json::to_vec(board).unwrap_or_default(),
                    })?;
                    out.infos.push(info);
                }
            }
        }
    }
    if let Some(prompt) = &skeleton.schema_prompt {
        let info = out.put(Entry {
            path: SCHEMA_PROMPT.to_owned(),
            bytes: serde_json::to_vec(prompt).unwrap_or_default(),
        })?;
        out.infos.push(info);
    }
    let content_hash = match (content_hash, out.hasher.take()) {
        (Some(known), _) => known,
        (None, Some(h)) => hex(&h.finalize()),
        (None, None) => String::new(),
    };
    // The body without its corpora and without its schema prompt (an entry of its own).
    let shell = BundleBody {
        schema_prompt: None,
        ..skeleton.head()
    };
    let mut head = object(&shell).map_err(|message| V2Error::Row {
        path: "body".to_owned(),
        row: 0,
        message,
    })?;
    head.shift_remove("corpora");
    let manifest = Manifest {
        format: FORMAT_V2.to_owned(),
        provenance,
        content_hash,
        head: Value::Object(head),
        corpora: skeleton
            .corpora
            .iter()
            .zip(counts)
            .enumerate()
            .map(|(i, (c, rows))| CorpusInfo {
                name: c.name.clone(),
                models: c.models.clone(),
                dir: format!("corpora/{i}"),
                rows,
                board_manifest: c.board_manifest.is_some(),
            })
            .collect(),
        entries: out.infos,
    };
    let json = serde_json::to_vec(&manifest).unwrap_or_default();
    Ok(Written { manifest, json })
}

/// The table (or, for results, the results and cells tables) of one corpus list.
fn write_list(
    rows: &mut dyn Rows,
    ci: usize,
    list: List,
    dir: &str,
    out: &mut Out<'_>,
    counts: &mut IndexMap<String, u64>,
) -> Result<(), V2Error> {
    let table = match list {
        List::Questions => QUESTIONS,
        List::Results => RESULTS,
        List::Rankings => RANKINGS,
        List::FailureLabels => FAILURE_LABELS,
        List::FmLabels => FM_LABELS,
        List::GateRows => GATE_ROWS,
    };
    let mut main = Table::new(table);
    let mut cells = (list == List::Results).then(|| Table::new(CELLS));
    let mut n = 0usize;
    let mut json = Vec::new();
    rows.each(ci, list, &mut |row| {
        if out.hasher.is_some() {
            json.clear();
            if n > 0 {
                json.push(b',');
            }
            // Serialising plain data into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut json, &row);
            out.hash(&json);
        }
        match (row, &mut cells) {
            (Row::Result(r), Some(cells)) => {
                push_result(&mut main.builder, &mut cells.builder, n, r)?;
                cells.spill(dir, out)?;
            }
            (row, _) => main.builder.push(&row)?,
        }
        main.spill(dir, out)?;
        n += 1;
        Ok(())
    })?;
    main.finish(dir, out, counts)?;
    if let Some(cells) = cells {
        cells.finish(dir, out, counts)?;
    }
    Ok(())
}

/// Collects entries in memory.
struct VecSink(Vec<Entry>);

impl EntrySink for VecSink {
    fn put(&mut self, path: &str, bytes: Vec<u8>) -> Result<(), V2Error> {
        self.0.push(Entry {
            path: path.to_owned(),
            bytes,
        });
        Ok(())
    }
}

/// The manifest (as JSON) and every other entry of `bundle` in v2, in writing order.
pub fn write_entries(bundle: &Bundle) -> Result<(Vec<u8>, Vec<Entry>), V2Error> {
    let mut sink = VecSink(Vec::new());
    let written = write_streamed(
        &bundle.body.skeleton(),
        bundle.provenance.clone(),
        Some(bundle.content_hash.clone()),
        &mut BodyRows(&bundle.body),
        &mut sink,
    )?;
    // The sink got each table's text chunks as they closed, before the table: put the
    // entries in the manifest's order.
    let order: HashMap<&str, usize> = written
        .manifest
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.path.as_str(), i))
        .collect();
    let mut entries = sink.0;
    entries.sort_by_key(|e| order.get(e.path.as_str()).copied().unwrap_or(usize::MAX));
    Ok((written.json, entries))
}
