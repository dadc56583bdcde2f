//! `runlens.bundle/2`: the same run as v1, laid out so a reader moves only what it shows.
//!
//! - `manifest.json`: format, provenance, the body's content hash (v1's, so a link pinned to
//!   a run keeps working across formats), the body without its corpora (universe, rules,
//!   models, warnings, …), each corpus's name, models, row counts and board manifest, and
//!   every other entry's path, size and SHA-256. The schema prompt and each corpus's board
//!   manifest are entries of their own (`schema_prompt.json`, `corpora/<i>/board_manifest.json`).
//! - `corpora/<i>/<table>.cols.gz`: one columnar table per row type of corpus `i` ([`schema`],
//!   encoded by [`codec`]): the numeric and categorical fields as columns, plus each row's
//!   index into its text record.
//! - `corpora/<i>/<table>.text/<n>.gz`: the rest of every row (SQL, results, answers, the
//!   judges' reasoning, label reasons, unknown fields) in gzip chunks ([`text`]).
//!
//! The entries live in a directory (any static host) or in one zip with stored entries
//! (`zip_form`, native only). Splitting a row and merging it back gives the row exactly, so a v2 bundle
//! reads back into the same [`Bundle`] as its v1 twin, with the same content hash.
//! Documented in `docs/bundle-format.md`.

pub mod cell_text;
pub mod codec;
pub mod facts;
pub(crate) mod layout;
mod light_cells;
mod light_gate;
pub mod nullable;
pub mod packed;
mod read;
mod record;
pub mod schema;
pub mod split;
pub mod stream;
pub mod text;
mod typed_rows;
mod wanted;
mod write;
#[cfg(not(target_arch = "wasm32"))]
pub mod zip_form;
pub mod zip_index;

use serde::{Deserialize, Serialize};

pub use cell_text::{cell_text_path, fill_cell, is_cell_text_path};
pub use read::{
    CopiedEntries, DirEntries, EntrySource, MemoryEntries, TakenEntries, check_digest, check_entry,
    check_size, head_bundle, is_early_table_path, parse_manifest, read_bundle, read_bundle_after,
    read_bundle_inflated, read_bundle_light, read_early_tables, read_early_tables_light,
    read_manifest,
};
pub use stream::write_entries;
pub use write::{Entry, stored_columns};

#[cfg(doc)]
use super::Bundle;
use super::Provenance;

/// The format tag of a v2 manifest.
pub const FORMAT_V2: &str = "runlens.bundle/2";

/// The manifest's entry name.
pub const MANIFEST: &str = "manifest.json";

/// The entry holding the body's `schema_prompt`.
pub const SCHEMA_PROMPT: &str = "schema_prompt.json";

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT_V2`].
    pub format: String,
    /// As in v1.
    pub provenance: Provenance,
    /// The v1 content hash of the body (SHA-256 of its canonical JSON).
    pub content_hash: String,
    /// The body without `corpora`, and without `schema_prompt` (the entry
    /// [`SCHEMA_PROMPT`] holds it, when there is one: no view needs it first).
    pub head: serde_json::Value,
    /// The corpora, in body order.
    pub corpora: Vec<CorpusInfo>,
    /// Every entry but the manifest, in writing order.
    pub entries: Vec<EntryInfo>,
}

/// A corpus in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusInfo {
    /// Corpus name.
    pub name: String,
    /// Its models, as in v1.
    pub models: Vec<String>,
    /// The folder of its entries (`corpora/<i>`).
    pub dir: String,
    /// Rows per table (`cells`: candidate entries, `null` cells included).
    pub rows: indexmap::IndexMap<String, u64>,
    /// Whether the corpus has a `board_manifest.json` (stored verbatim in the entry
    /// `<dir>/board_manifest.json`: on large boards it is most of the manifest's bytes).
    #[serde(default)]
    pub board_manifest: bool,
}

/// An entry in the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryInfo {
    /// Its path (`/`-separated, relative).
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Lower-case hex SHA-256 of its bytes.
    pub sha256: String,
}

/// Why a v2 bundle could not be read. Every message names the entry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum V2Error {
    /// An entry the manifest lists (or the manifest) is not there.
    #[error("bundle: entry {path} is missing")]
    Missing {
        /// The entry.
        path: String,
    },
    /// An entry could not be read.
    #[error("bundle: entry {path}: {message}")]
    Read {
        /// The entry.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// An entry's bytes are not what the manifest says.
    #[error("bundle: entry {path}: {what} {found} does not match the manifest's {expected}")]
    Mismatch {
        /// The entry.
        path: String,
        /// `sha256` or `size`.
        what: &'static str,
        /// The manifest's value.
        expected: String,
        /// The value of the bytes read.
        found: String,
    },
    /// The manifest is not JSON of the v2 shape.
    #[error("bundle: manifest.json line {line}, column {column}: {message}")]
    Manifest {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's description.
        message: String,
    },
    /// The manifest is of another format.
    #[error("bundle: manifest.json has format {found:?}; expected \"runlens.bundle/2\"")]
    Format {
        /// The `format` found.
        found: String,
    },
    /// A table's entry is not what its schema says.
    #[error("bundle: entry {path}: {message}")]
    Table {
        /// The entry.
        path: String,
        /// What is wrong (column, type, length).
        message: String,
    },
    /// A row could not be rebuilt.
    #[error("bundle: entry {path}, row {row}: {message}")]
    Row {
        /// The table's entry.
        path: String,
        /// 0-based row.
        row: usize,
        /// What is wrong.
        message: String,
    },
    /// The zip container is unreadable.
    #[error("bundle: zip: {0}")]
    Zip(String),
}
