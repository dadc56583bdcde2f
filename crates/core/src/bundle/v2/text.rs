//! Text records in gzip chunks of about [`CHUNK_BYTES`] (uncompressed), with an offset index.
//!
//! A chunk is the records of consecutive rows, each a compact JSON object followed by `\n`;
//! a row's index is `(chunk, offset, len)` into the uncompressed chunk (`len` 0: an empty
//! record, `{}`). The browser inflates a chunk with `DecompressionStream`.

use std::io::{Read, Write};

/// A chunk is closed once it holds this many bytes (uncompressed).
pub const CHUNK_BYTES: usize = 1 << 20;

/// Collects records into gzip chunks.
#[derive(Default)]
pub struct TextWriter {
    current: Vec<u8>,
    /// Chunks closed and not yet taken, gzip-compressed, with their numbers.
    closed: Vec<(usize, Vec<u8>)>,
    /// Chunks closed so far.
    n_closed: usize,
}

impl TextWriter {
    /// Adds a record (compact JSON of a non-empty object, or nothing for `{}`); its index.
    pub fn push(&mut self, record: &[u8]) -> (u64, u64, u64) {
        if record.is_empty() {
            return (self.n_closed as u64, 0, 0);
        }
        let at = (
            self.n_closed as u64,
            self.current.len() as u64,
            record.len() as u64,
        );
        self.current.extend_from_slice(record);
        self.current.push(b'\n');
        if self.current.len() >= CHUNK_BYTES {
            self.close();
        }
        at
    }

    fn close(&mut self) {
        let mut encoder = flate2::write::GzEncoder::new(
            Vec::with_capacity(self.current.len() / 4),
            flate2::Compression::default(),
        );
        // Writing into a Vec cannot fail.
        let _ = encoder.write_all(&self.current);
        self.closed
            .push((self.n_closed, encoder.finish().unwrap_or_default()));
        self.n_closed += 1;
        self.current.clear();
    }

    /// The chunks closed since the last call, with their numbers.
    pub fn take_closed(&mut self) -> Vec<(usize, Vec<u8>)> {
        std::mem::take(&mut self.closed)
    }

    /// The chunks not yet taken, the last one closed, with their numbers.
    pub fn finish(mut self) -> Vec<(usize, Vec<u8>)> {
        if !self.current.is_empty() {
            self.close();
        }
        self.closed
    }
}

/// Inflates a chunk.
pub fn inflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(CHUNK_BYTES + CHUNK_BYTES / 4);
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn records_are_indexed_into_their_chunk() {
        let mut w = TextWriter::default();
        assert_eq!(w.push(br#"{"a":1}"#), (0, 0, 7));
        assert_eq!(w.push(b""), (0, 0, 0));
        assert_eq!(w.push(br#"{"b":"x"}"#), (0, 8, 9));
        let big = vec![b'x'; CHUNK_BYTES];
        assert_eq!(w.push(&big), (0, 18, CHUNK_BYTES as u64));
        assert_eq!(w.push(br#"{"c":2}"#), (1, 0, 7)); // the first chunk closed
        let closed = w.take_closed();
        assert_eq!(closed.len(), 1);
        assert_eq!(closed[0].0, 0);
        let first = inflate(&closed[0].1).unwrap();
        assert_eq!(&first[8..17], br#"{"b":"x"}"#);
        let rest = w.finish();
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].0, 1);
        assert_eq!(inflate(&rest[0].1).unwrap(), b"{\"c\":2}\n");
    }
}
