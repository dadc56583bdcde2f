//! The `runlens.bundle/1` data model (see `docs/bundle-format.md`).
//!
//! A bundle is one JSON document (optionally gzip-compressed) holding, losslessly, everything
//! runlens reads from the harness: questions and ground truth, every candidate cell with its
//! judge votes and usage, Jev table rankings, Jev failure labels, FM1–FM5 labels and gate
//! rows, for one or more corpora side by side, plus provenance and a content hash.
//!
//! ```
//! use runlens_core::bundle::{Bundle, BundleBody, Provenance};
//! let bundle = Bundle::new(Provenance::default(), BundleBody::default());
//! let bytes = bundle.to_json_vec();
//! let back = Bundle::from_slice(&bytes).unwrap();
//! assert_eq!(back, bundle);
//! assert_eq!(back.content_hash, back.body.content_hash());
//! ```

pub(crate) mod canonical;
mod cell;
mod codec;
mod corpus;
mod extra;
mod gate_rows;
mod jev;
mod light;
mod question;
mod row_cells;
mod scores;
mod summary;
mod usage;
pub mod v2;
mod warning;

use serde::{Deserialize, Serialize};

pub use canonical::{BodyHasher, CanonicalPieces};
pub use cell::{Cell, LossRule, Outcome, ResultScore, TextAt, Vote};
pub(crate) use codec::hex as hex_lower;
pub use codec::{BundleError, hex_digest, raw_body_span};
pub use corpus::{CellRef, Corpus};
pub use extra::{Extra, ExtraMap};
pub use gate_rows::{ArmFacts, GateFacts, GateRows, GateSource, LightGate};
pub use jev::{Checks, FailureLabel, FmLabel, GateRow, RankingRow};
pub use light::Light;
pub use question::{Question, ResultRow};
pub use row_cells::{Candidate, CellParts, CellSource, LightCells, RowCells};
pub use scores::{Scores, ScoresOf};
pub use summary::Summary;
pub use usage::{Usage, UsageCounts};
pub use warning::Warning;

use crate::rules::RulesConfig;

/// The format tag every bundle carries in its `format` field.
pub const FORMAT: &str = "runlens.bundle/1";

/// A table name as rows hold it: shared, so the 710 names of every ranking row and the
/// gate rows' lists point at one copy each once [`v2`] has read them (docs/performance.md,
/// "Shared table names"). Reads and writes as a plain JSON string.
pub type Name = std::sync::Arc<str>;

/// A run bundle: format tag, provenance, the body and the body's content hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// Always [`FORMAT`].
    pub format: String,
    /// Who made the bundle from which files, and when.
    pub provenance: Provenance,
    /// Lower-case hex SHA-256 of the body's canonical serialisation
    /// ([`BundleBody::content_hash`]); independent of provenance, so re-exporting the same
    /// inputs gives the same hash.
    pub content_hash: String,
    /// The data.
    pub body: BundleBody,
}

impl Bundle {
    /// Wraps a body, setting `format` and computing `content_hash`.
    pub fn new(provenance: Provenance, body: BundleBody) -> Bundle {
        let content_hash = body.content_hash();
        Bundle {
            format: FORMAT.to_owned(),
            provenance,
            content_hash,
            body,
        }
    }
}

/// Provenance: tool version, creation time and every input file. Core has no clock, so the
/// caller supplies `runlens_version` and `created_at` (RFC 3339 UTC by convention).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Provenance {
    /// Version of the runlens that wrote the bundle.
    pub runlens_version: String,
    /// Creation time, RFC 3339 (e.g. `2026-12-02T12:00:00Z`); empty when unknown.
    pub created_at: String,
    /// Every input file read, in the order read.
    pub inputs: Vec<InputFileInfo>,
}

/// One input file's identity.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct InputFileInfo {
    /// Relative path as given to the importer (e.g. `out/failure_labels.jsonl`).
    pub name: String,
    /// Size in bytes.
    pub size: u64,
    /// Lower-case hex SHA-256 of the bytes.
    pub sha256: String,
}

/// The hashed part of a bundle: everything but the provenance.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BundleBody {
    /// True when the inputs are synthetic (a `SYNTHETIC.md` was present, or `--synthetic`).
    #[serde(default)]
    pub synthetic: bool,
    /// Free-text notice shown by the UI (e.g. the first paragraph of `SYNTHETIC.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// The retrieval universe: sorted, distinct, lower-case `namespace.table` names.
    #[serde(default)]
    pub universe: Vec<String>,
    /// Where `universe` came from.
    #[serde(default)]
    pub universe_source: UniverseSource,
    /// Table namespaces (e.g. `marts`, `crm`).
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// The schema prompt text, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_prompt: Option<SchemaPrompt>,
    /// The rules config (semantic + decidable), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesConfig>,
    /// Every candidate model seen in any corpus, in first-seen order, with display names.
    #[serde(default)]
    pub models: Vec<ModelInfo>,
    /// The corpora, in the order given.
    #[serde(default)]
    pub corpora: Vec<Corpus>,
    /// Non-fatal import problems.
    #[serde(default)]
    pub warnings: Vec<Warning>,
}

impl BundleBody {
    /// The corpus with this name.
    pub fn corpus(&self, name: &str) -> Option<&Corpus> {
        self.corpora.iter().find(|c| c.name == name)
    }

    /// A copy of every field but the corpora (left empty), without copying a corpus row:
    /// the loader's skeleton and the v2 manifest's head start from it.
    pub fn head(&self) -> BundleBody {
        BundleBody {
            synthetic: self.synthetic,
            notice: self.notice.clone(),
            universe: self.universe.clone(),
            universe_source: self.universe_source,
            namespaces: self.namespaces.clone(),
            schema_prompt: self.schema_prompt.clone(),
            rules: self.rules.clone(),
            models: self.models.clone(),
            corpora: Vec::new(),
            warnings: self.warnings.clone(),
        }
    }

    /// [`BundleBody::head`] with each corpus's name, models and board manifest but none of
    /// its rows: the loader's skeleton, and what the canonical JSON's pieces splice rows into.
    pub fn skeleton(&self) -> BundleBody {
        BundleBody {
            corpora: self
                .corpora
                .iter()
                .map(|c| Corpus {
                    name: c.name.clone(),
                    models: c.models.clone(),
                    board_manifest: c.board_manifest.clone(),
                    ..Corpus::default()
                })
                .collect(),
            ..self.head()
        }
    }

    /// The display name of a model key (the key itself when unknown).
    pub fn display_name<'a>(&'a self, key: &'a str) -> &'a str {
        self.models
            .iter()
            .find(|m| m.key == key)
            .map_or(key, |m| m.display_name.as_str())
    }
}

/// Where the universe came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UniverseSource {
    /// Table-matcher hits in the schema prompt (harness-formats.md §5.1).
    SchemaPrompt,
    /// The `ranked` lists of the ranking rows (each holds the whole universe).
    RankingRows,
    /// No prompt and no ranking rows: the universe is empty.
    #[default]
    None,
}

/// The schema prompt as given (raw text, `{snapshot_date}` unrendered).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SchemaPrompt {
    /// The prompt's file name (last path component, so the hash does not depend on folders).
    pub file_name: String,
    /// The raw text.
    pub text: String,
}

/// A candidate model: registry key and display name.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Registry key as used in `results.jsonl` → `candidates`.
    pub key: String,
    /// Display name (the harness's board names by default, §11.1; else the key).
    pub display_name: String,
}
