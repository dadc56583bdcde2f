//! The one-file form: a zip whose entries are stored (not deflated), so a reader can take any
//! entry with one byte range (HTTP `Range`, `Blob.slice`). The manifest comes first, then
//! every entry but the text chunks, then the text chunks, the cells' last ([`zip_order`]):
//! what a reader needs before any text is one contiguous range, and what it needs at load
//! (everything but the cells' text) is too.

use std::io::{Read, Seek, Write};

use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::cell_text::is_cell_text_path;
use super::facts::is_cells_path;
use super::read::{EntrySource, is_early_table_path};
use super::write::Entry;
use super::{MANIFEST, V2Error};

/// Writes the manifest and `entries` as a zip of stored entries (zip64 where needed).
pub fn write_zip<W: Write + Seek>(
    out: W,
    manifest: &[u8],
    entries: &[Entry],
) -> Result<W, V2Error> {
    let list: Vec<(&str, u64)> = entries
        .iter()
        .map(|e| (e.path.as_str(), e.bytes.len() as u64))
        .collect();
    let mut open =
        |i: usize| -> std::io::Result<Box<dyn Read + '_>> { Ok(Box::new(&entries[i].bytes[..])) };
    write_zip_from(out, manifest, &list, &mut open)
}

/// [`write_zip`] of entries that are elsewhere (files written by a streamed export): their
/// paths and sizes in the manifest's order; `open(i)` reads entry `i`, copied into the zip a
/// buffer at a time.
pub fn write_zip_from<'a, W: Write + Seek>(
    out: W,
    manifest: &[u8],
    entries: &[(&str, u64)],
    open: &mut dyn FnMut(usize) -> std::io::Result<Box<dyn Read + 'a>>,
) -> Result<W, V2Error> {
    let err = |e: ZipError| V2Error::Zip(e.to_string());
    let io = |e: std::io::Error| V2Error::Zip(e.to_string());
    let mut zip = ZipWriter::new(out);
    let options = |size: u64| {
        SimpleFileOptions::default()
            .compression_method(CompressionMethod::Stored)
            .large_file(size >= u64::from(u32::MAX))
    };
    zip.start_file(MANIFEST, options(manifest.len() as u64))
        .map_err(err)?;
    zip.write_all(manifest).map_err(io)?;
    let paths: Vec<&str> = entries.iter().map(|(p, _)| *p).collect();
    for i in zip_order(&paths) {
        zip.start_file(paths[i], options(entries[i].1))
            .map_err(err)?;
        let mut from = open(i).map_err(io)?;
        std::io::copy(&mut from, &mut zip).map_err(io)?;
    }
    zip.finish().map_err(err)
}

/// Whether an entry is a text chunk (`<corpus>/<table>.text/<n>.gz`).
pub fn is_text_chunk(path: &str) -> bool {
    path.contains(".text/")
}

/// The order of `entries` in the zip (after the manifest), in the order a browser reads
/// them, so that each of its stages is one contiguous byte range: the cells columns (the
/// leaderboard's summary), the questions, rankings, failure labels, FM labels and gate rows
/// tables with their text (the ranking, failures and gate views), every other entry but the
/// text chunks, the other text chunks, then the cells' text chunks (read one at a time, when
/// a cell is opened); each group in the manifest's order.
pub fn zip_order(paths: &[&str]) -> Vec<usize> {
    let group = |path: &str| {
        if is_cells_path(path) {
            0
        } else if is_early_table_path(path) {
            1
        } else if is_cell_text_path(path) {
            4
        } else if is_text_chunk(path) {
            3
        } else {
            2
        }
    };
    let mut out: Vec<usize> = (0..paths.len()).collect();
    out.sort_by_key(|&i| group(paths[i]));
    out
}

/// Entries of a zip read through `Read + Seek` (a file, or bytes in a cursor).
pub struct ZipEntries<R: Read + Seek>(ZipArchive<R>);

impl<R: Read + Seek> ZipEntries<R> {
    /// Opens the zip's central directory; a truncated or foreign file is a clear error.
    pub fn new(reader: R) -> Result<Self, V2Error> {
        ZipArchive::new(reader)
            .map(ZipEntries)
            .map_err(|e| V2Error::Zip(format!("not a readable zip (truncated?): {e}")))
    }
}

impl<R: Read + Seek> EntrySource for ZipEntries<R> {
    fn entry(&mut self, path: &str) -> Result<Vec<u8>, V2Error> {
        let mut file = match self.0.by_name(path) {
            Ok(file) => file,
            Err(ZipError::FileNotFound) => {
                return Err(V2Error::Missing {
                    path: path.to_owned(),
                });
            }
            Err(e) => {
                return Err(V2Error::Read {
                    path: path.to_owned(),
                    message: e.to_string(),
                });
            }
        };
        let mut out = Vec::with_capacity(usize::try_from(file.size()).unwrap_or(0));
        file.read_to_end(&mut out).map_err(|e| V2Error::Read {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        Ok(out)
    }
}
