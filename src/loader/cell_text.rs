//! The cells' text of a `runlens.bundle/2` the loader worker read without it
//! ([`runlens_core::bundle::v2::read_bundle_after`]): one text chunk (about 1 MiB) fetched
//! when a trajectory or a cell is opened (a `Range` request into the zip, a GET in a
//! directory, a `Blob.slice` of an opened file), checked against the manifest's size and
//! SHA-256, inflated, and kept among the last few; the cell's record is put back from it.
//! So the worker's memory does not grow with the trajectories' text.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use runlens_core::bundle::v2::zip_index::{ZipEntryAt, entry_bytes};
use runlens_core::bundle::v2::{EntryInfo, Manifest, V2Error, cell_text_path, fill_cell};
use runlens_core::bundle::{Cell, TextAt};

use super::entries::{Count, DirEntries, ZipBytes, check_and_inflate_one, invalid};
use super::request::LoadError;
use crate::api::ApiError;
use crate::chunks::{split_call, split_point};

/// Inflated chunks kept (the reader walking with `j`/`k` stays within one or two).
const KEPT: usize = 4;

/// Where the chunks are read from.
pub enum ChunkSource {
    /// A zip: each chunk's entry and its byte span.
    Zip {
        /// The zip's bytes.
        bytes: ZipBytes,
        /// The cells text entries by path, with the span holding each.
        at: HashMap<String, (ZipEntryAt, (u64, u64))>,
    },
    /// A directory's entries.
    Dir(DirEntries),
}

/// The cells' text chunks of the bundle the worker holds.
pub struct CellTexts {
    /// The bundle's address or file name, for errors.
    name: String,
    source: ChunkSource,
    /// Each corpus's entry directory (`corpora/<i>`), by the corpus's position.
    dirs: Vec<String>,
    /// The manifest's entries (size and SHA-256) by path.
    listed: HashMap<String, EntryInfo>,
    kept: RefCell<VecDeque<(String, Rc<Vec<u8>>)>>,
}

/// A cell whose text record was put back: where it was, and the cell whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Filled {
    /// The record's place (the cell as held has it as its `text_at`).
    pub at: TextAt,
    /// The cell whole.
    pub cell: Cell,
}

impl CellTexts {
    /// The chunks of the bundle `manifest` describes, read from `source`.
    pub fn new(name: &str, manifest: &Manifest, source: ChunkSource) -> CellTexts {
        CellTexts {
            name: name.to_owned(),
            source,
            dirs: manifest.corpora.iter().map(|c| c.dir.clone()).collect(),
            listed: manifest
                .entries
                .iter()
                .map(|e| (e.path.clone(), e.clone()))
                .collect(),
            kept: RefCell::new(VecDeque::new()),
        }
    }

    /// `cell` of the corpus at position `corpus` whole again (its chunk fetched unless kept);
    /// `None` when its text was never left out.
    pub async fn fill(&self, corpus: usize, cell: &Cell) -> Result<Option<Filled>, LoadError> {
        let Some(at) = cell.text_at else {
            return Ok(None);
        };
        let dir = self
            .dirs
            .get(corpus)
            .ok_or_else(|| invalid(&self.name, format!("bundle: no corpus {corpus}")))?;
        let path = cell_text_path(dir, at.chunk);
        let chunk = self.chunk(&path).await?;
        let cell = split_call!(fill_cell_text(cell, &chunk, &path))
            .map_err(|e| invalid(&self.name, e))?
            .map_err(|e| invalid(&self.name, e))?;
        Ok(Some(Filled { at, cell }))
    }

    /// The inflated chunk at `path`, checked against the manifest.
    async fn chunk(&self, path: &str) -> Result<Rc<Vec<u8>>, LoadError> {
        if let Some(kept) = self.kept.borrow().iter().find(|(p, _)| p == path) {
            return Ok(kept.1.clone());
        }
        let info = self
            .listed
            .get(path)
            .ok_or_else(|| invalid(&self.name, format!("bundle: entry {path} is not listed")))?;
        let bytes = self.fetch(path).await?;
        let plain = check_and_inflate_one(info, &bytes)
            .await
            .map_err(|e| invalid(&self.name, e))?;
        let plain = Rc::new(plain);
        let mut kept = self.kept.borrow_mut();
        kept.push_front((path.to_owned(), plain.clone()));
        kept.truncate(KEPT);
        Ok(plain)
    }

    /// The entry's bytes as stored.
    async fn fetch(&self, path: &str) -> Result<Vec<u8>, LoadError> {
        match &self.source {
            ChunkSource::Dir(dir) => match dir.entry(path).await {
                Err(LoadError::Download(ApiError::Status { status: 404, .. })) => Err(invalid(
                    &self.name,
                    format!("bundle: entry {path} is missing"),
                )),
                got => got,
            },
            ChunkSource::Zip { bytes, at } => {
                let (entry, (start, end)) = at.get(path).ok_or_else(|| {
                    invalid(&self.name, format!("bundle: entry {path} is missing"))
                })?;
                let mut count = Count::default();
                let span = bytes
                    .read(&self.name, *start, *end, &mut count, &|_| {})
                    .await?;
                entry_bytes(entry, &span, *start)
                    .map(<[u8]>::to_vec)
                    .map_err(|e| invalid(&self.name, format!("bundle: {e}")))
            }
        }
    }
}

split_point! {
    /// A cell with its text record put back ([`fill_cell`]: the record's JSON read into the
    /// cell), in the `cell_text` chunk, fetched with the first trajectory (not in `v2`, which
    /// the worker needs before the leaderboard).
    cell_text: fn fill_cell_text(cell: &Cell, chunk: &[u8], path: &str) -> Result<Cell, V2Error> {
        fill_cell(cell, chunk, path)
    }
}
