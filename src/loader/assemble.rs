//! The page side of [`super::split`]: rebuilds the bundle from the skeleton and chunks, one
//! chunk per task, with errors instead of panics on anything malformed.

use runlens_core::bundle::Bundle;
use serde::de::DeserializeOwned;

use super::split::{ChunkKey, Part, for_each_chunk, skeleton_json};

/// Rebuilds a bundle from its skeleton and chunks on the main thread.
#[derive(Debug)]
pub struct Assembler {
    bundle: Bundle,
}

impl Assembler {
    /// Starts from the skeleton JSON of [`skeleton_json`].
    pub fn new(skeleton: &[u8]) -> Result<Self, String> {
        let bundle = serde_json::from_slice(skeleton)
            .map_err(|e| format!("loader: the bundle skeleton is not valid ({e})"))?;
        Ok(Assembler { bundle })
    }

    /// Appends one chunk's rows.
    pub fn add(&mut self, key: ChunkKey, json: &[u8]) -> Result<(), String> {
        let n = self.bundle.body.corpora.len();
        let corpus = self
            .bundle
            .body
            .corpora
            .get_mut(key.corpus)
            .ok_or_else(|| format!("loader: a chunk names corpus {} of {n}", key.corpus))?;
        match key.part {
            Part::Questions => extend(&mut corpus.questions, json, key),
            Part::Results => extend(&mut corpus.results, json, key),
            Part::Rankings => extend(&mut corpus.rankings, json, key),
            Part::FailureLabels => extend(&mut corpus.failure_labels, json, key),
            Part::FmLabels => extend(&mut corpus.fm_labels, json, key),
            Part::GateRows => extend(&mut corpus.gate_rows, json, key),
        }
    }

    /// The assembled bundle.
    pub fn finish(self) -> Bundle {
        self.bundle
    }
}

fn extend<T: DeserializeOwned>(
    rows: &mut Vec<T>,
    json: &[u8],
    key: ChunkKey,
) -> Result<(), String> {
    let more: Vec<T> = serde_json::from_slice(json).map_err(|e| {
        format!(
            "loader: a {:?} chunk of corpus {} is not valid ({e})",
            key.part, key.corpus
        )
    })?;
    rows.extend(more);
    Ok(())
}

/// Splits and reassembles `bundle` in one go (what the worker and the main thread do
/// together); used by tests and by the main-thread fallback's consistency checks.
pub fn round_trip(
    bundle: &Bundle,
    strip: bool,
    chunk_bytes: usize,
) -> Result<(Bundle, usize), String> {
    let mut asm = Assembler::new(&skeleton_json(bundle))?;
    let mut chunks = 0;
    let mut result = Ok(());
    let mut bundle = bundle.clone();
    for_each_chunk(&mut bundle, strip, chunk_bytes, |key, _, json| {
        chunks += 1;
        if result.is_ok() {
            result = asm.add(key, &json);
        }
    });
    result.map(|()| (asm.finish(), chunks))
}
