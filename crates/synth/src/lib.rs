//! runlens-synth: realistic, clearly synthetic harness outputs for runlens.
//!
//! [`generate`] writes the harness's own file formats (not a bundle), so the importer is
//! always exercised: a schema prompt, a rules config, a dev corpus and a leaderboard corpus
//! (`annotated.jsonl`, `results.jsonl`, `fm_labels.jsonl`, `board_manifest.json`) and the
//! Jev outputs under `out/`. Same preset and seed give byte-identical files.
//!
//! ```no_run
//! let summary = runlens_synth::generate(runlens_synth::Preset::Article, 1, std::path::Path::new("sample"))?;
//! assert_eq!(summary.dev_questions, 136);
//! # Ok::<(), runlens_synth::SynthError>(())
//! ```

pub mod annotate;
pub mod catalog;
pub mod catalog_large;
pub mod cells;
pub mod checks;
pub mod corpus;
pub mod gate;
pub mod gold;
pub mod json;
pub mod judge;
pub mod labels;
pub mod manifest;
pub mod models;
pub mod names;
pub mod pipeline;
pub mod plan;
pub mod question;
pub mod ranking;
pub mod results;
pub mod schema;
pub mod sql;
pub mod summary;
pub mod taxonomy;
pub mod usage;
mod write;

use std::path::{Path, PathBuf};
use std::str::FromStr;

pub use summary::Summary;
pub use write::{generate, generate_variant};

/// Which synthetic data set to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// The published study's shape: 18 tables, 136 dev + 201 board questions, 20 models.
    Article,
    /// Scale test: 710 tables, 1,000 dev + 4,000 board questions, 40 models (200,000 cells).
    Large,
    /// Bigger scale test: the `large` catalog, 4,000 dev + 16,000 board questions, 100 models
    /// (2,000,000 cells; about 4.5 GB of files).
    Huge,
}

impl Preset {
    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Article => "article",
            Preset::Large => "large",
            Preset::Huge => "huge",
        }
    }
}

impl FromStr for Preset {
    type Err = SynthError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "article" => Ok(Preset::Article),
            "large" => Ok(Preset::Large),
            "huge" => Ok(Preset::Huge),
            other => Err(SynthError::UnknownPreset(other.to_string())),
        }
    }
}

/// Everything that can go wrong while generating.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    /// A preset name other than `article`, `large` or `huge`.
    #[error("unknown preset `{0}`: expected `article`, `large` or `huge`")]
    UnknownPreset(String),
    /// Writing a file or creating a directory failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path being written.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Serialising a row failed (should not happen for these types).
    #[error("cannot serialise JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A generated artefact broke one of its own invariants.
    #[error("internal consistency check failed: {0}")]
    Invariant(String),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SynthError + '_ {
    move |source| SynthError::Io {
        path: path.to_path_buf(),
        source,
    }
}
