//! Where a `runlens.bundle/2`'s entries are read from (a zip by HTTP `Range` requests,
//! `Blob.slice` or the whole file in memory; a directory by GETs or a folder pick's files),
//! and the check of one entry against the manifest: what the load ([`super::v2`]) and the
//! cells' text chunks fetched later ([`super::cell_text`]) both read with.

use std::collections::HashMap;

use js_sys::Uint8Array;
use runlens_core::bundle::v2::text::inflate;
use runlens_core::bundle::v2::{EntryInfo, V2Error, check_digest, check_entry, check_size};
use wasm_bindgen_futures::JsFuture;

use super::digest;
use super::request::LoadError;
use crate::api::{self, ByteRange, RangeReply};
use crate::gunzip;

/// Where a zip's bytes are read from.
pub enum ZipBytes {
    /// A URL, by `Range` requests.
    Http(String),
    /// An opened file, by `Blob.slice`.
    Blob(web_sys::Blob),
    /// The whole file, in memory.
    Whole(Vec<u8>),
}

/// Requests made, for the load's figures (`LoadStats`).
#[derive(Default)]
pub struct Count {
    /// Requests made (reads of a whole file in memory are none).
    pub requests: u32,
    /// Bytes they read.
    pub bytes: u64,
    /// The host ignored `Range`: the whole file was read.
    pub whole: bool,
}

/// The load's error for `name` (the bundle's address or file), saying `message`.
pub fn invalid(name: &str, message: impl ToString) -> LoadError {
    LoadError::Invalid {
        source_name: name.to_owned(),
        message: message.to_string(),
    }
}

/// Bytes `start..end` of a whole file.
fn cut(name: &str, all: &[u8], start: u64, end: u64) -> Result<Vec<u8>, LoadError> {
    usize::try_from(start)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(s, e)| all.get(s..e))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| invalid(name, format!("bytes {start}..{end} are past its end")))
}

impl ZipBytes {
    /// Bytes `start..end`; `progress(done)` in bytes of this read.
    pub async fn read(
        &self,
        name: &str,
        start: u64,
        end: u64,
        count: &mut Count,
        progress: &dyn Fn(u64),
    ) -> Result<Vec<u8>, LoadError> {
        if !matches!(self, ZipBytes::Whole(_)) {
            count.requests += 1;
            count.bytes += end - start;
        }
        match self {
            ZipBytes::Whole(all) => cut(name, all, start, end),
            ZipBytes::Blob(blob) => {
                let part = blob
                    .slice_with_f64_and_f64(start as f64, end as f64)
                    .map_err(|e| invalid(name, api::js_message(&e)))?;
                let buffer = JsFuture::from(part.array_buffer())
                    .await
                    .map_err(|e| invalid(name, api::js_message(&e)))?;
                let bytes = Uint8Array::new(&buffer).to_vec();
                progress(bytes.len() as u64);
                Ok(bytes)
            }
            ZipBytes::Http(url) => {
                match api::fetch_range(url, ByteRange::Span(start, end), &|d, _| progress(d))
                    .await?
                {
                    RangeReply::Partial { bytes, .. } if bytes.len() as u64 == end - start => {
                        Ok(bytes)
                    }
                    RangeReply::Partial { bytes, .. } => Err(invalid(
                        url,
                        format!(
                            "asked for bytes {start}..{end} and got {} bytes",
                            bytes.len()
                        ),
                    )),
                    // A host that answered the first range honours the next ones; one that
                    // stops doing so is served whole here, and the read is cut from it.
                    RangeReply::Whole(all) => cut(name, &all, start, end),
                }
            }
        }
    }
}

/// Where a directory's entries are read from.
pub enum DirEntries {
    /// Under a base address ending in `/`, one GET each.
    Http(String),
    /// Opened files by entry path (a folder pick, the picked folder's name dropped).
    Files(HashMap<String, web_sys::File>),
}

impl DirEntries {
    pub async fn entry(&self, path: &str) -> Result<Vec<u8>, LoadError> {
        match self {
            DirEntries::Http(base) => Ok(api::fetch_bytes(&format!("{base}{path}")).await?),
            DirEntries::Files(files) => {
                let Some(file) = files.get(path) else {
                    return Err(invalid(path, format!("bundle: entry {path} is missing")));
                };
                let buffer = JsFuture::from(file.array_buffer())
                    .await
                    .map_err(|e| invalid(path, api::js_message(&e)))?;
                Ok(Uint8Array::new(&buffer).to_vec())
            }
        }
    }
}

/// Checks one `.gz` entry against the manifest (size and SHA-256, with the browser's
/// `crypto.subtle` where there is one) and inflates it (`DecompressionStream`, else core's
/// inflater).
pub async fn check_and_inflate_one(info: &EntryInfo, bytes: &[u8]) -> Result<Vec<u8>, V2Error> {
    check_size(info, bytes.len() as u64)?;
    match digest::sha256_hex(bytes).await {
        Some(hex) => check_digest(info, &hex)?,
        None => check_entry(info, bytes)?,
    }
    let read_err = |message: String| V2Error::Read {
        path: info.path.clone(),
        message: format!("gzip: {message}"),
    };
    match gunzip::gunzip(bytes).await.map_err(read_err)? {
        Some(plain) => Ok(plain),
        None => inflate(bytes).map_err(read_err),
    }
}
