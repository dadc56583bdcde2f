//! Load progress: the phase and how far it got (shown by `components::LoadProgress`), and
//! what a load hands over before it is done ([`Early`]).

use runlens_core::bundle::Bundle;
use serde::{Deserialize, Serialize};

/// The phase a load is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Starting the loader.
    Starting,
    /// Downloading (bytes of the file as sent, compressed for `.json.gz`).
    Downloading,
    /// Reading opened files (bytes).
    Reading,
    /// Inflating gzip (bytes of JSON so far).
    Inflating,
    /// Parsing the JSON (bytes of JSON).
    Parsing,
    /// Importing harness files (bytes of input).
    Importing,
    /// Re-computing the content hash.
    Checking,
}

impl Phase {
    /// Words for the progress bar.
    pub fn label(self) -> &'static str {
        match self {
            Phase::Starting => "Starting the loader",
            Phase::Downloading => "Downloading",
            Phase::Reading => "Reading the files",
            Phase::Inflating => "Decompressing",
            Phase::Parsing => "Parsing the bundle",
            Phase::Importing => "Importing the harness files",
            Phase::Checking => "Checking the content hash",
        }
    }
}

/// Where a load is: phase, amount done and total when known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Current phase.
    pub phase: Phase,
    /// Bytes done in this phase.
    pub done: u64,
    /// Total, when known (a download without `Content-Length` has none).
    pub total: Option<u64>,
}

impl Progress {
    /// `done / total` in 0..=1, when the total is known and non-zero.
    pub fn fraction(&self) -> Option<f64> {
        self.total
            .filter(|&t| t > 0)
            .map(|t| (self.done as f64 / t as f64).clamp(0.0, 1.0))
    }
}

/// Reports progress.
pub type OnProgress<'a> = &'a dyn Fn(Progress);

/// What a `runlens.bundle/2` hands over before its whole bundle is read.
#[derive(Clone, Copy)]
pub struct Early<'a> {
    /// The summary (body and skeleton length, see [`super::summary`]), from the cells columns.
    pub summary: &'a dyn Fn(Vec<u8>, usize),
    /// The bundle with only its questions, ranking rows, failure and FM labels and gate rows
    /// ([`runlens_core::bundle::v2::read_early_tables`]), read next.
    /// The loader keeps it until it reads the rest beside it: a holder that keeps a clone
    /// past that makes the loader copy it (hold a `Weak`).
    pub tables: &'a dyn Fn(std::rc::Rc<Bundle>),
    /// Takes the cells' text chunks: given, the bundle is read without the cells' text
    /// ([`runlens_core::bundle::v2::read_bundle_after`]) and its chunks are handed over to
    /// be fetched when a cell is opened (the loader worker); `None`: the whole bundle is read.
    pub cell_texts: Option<&'a dyn Fn(super::cell_text::CellTexts)>,
}

impl Early<'_> {
    /// Hands nothing over (loads that show only the whole bundle).
    pub const NONE: Early<'static> = Early {
        summary: &|_, _| {},
        tables: &|_| {},
        cell_texts: None,
    };
}
