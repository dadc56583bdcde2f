//! The `ov=` share-link encoding of an overrides file: `1.` then base64url (no padding) of
//! the raw-deflated compact JSON. Links carry the file only while the encoding is at most
//! [`MAX_LINK_CHARS`] characters; when the raw Jev answers make it longer, the link carries
//! the file without them (labels and provenance only); larger sets travel as exported files.
//!
//! Encoding (the deflate compressor) is in the `ov_link` chunk ([`link_of`]): most readers
//! never make an overrides link, and the first download stays smaller. Decoding a link's
//! `ov=` needs only the inflater, which the first download holds anyway.

use std::io::{Read, Write};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use runlens_core::overrides::OverridesFile;

use crate::chunks::split_point;

/// Longest `ov=` value put in a link.
pub const MAX_LINK_CHARS: usize = 1500;
/// Version prefix of the encoding.
const PREFIX: &str = "1.";
/// Largest inflated JSON accepted from a link (guards against a deflate bomb).
const MAX_JSON_BYTES: u64 = 4 << 20;

/// The `ov=` value of `file` (any size).
pub fn encode_overrides(file: &OverridesFile) -> String {
    let json = serde_json::to_vec(file).unwrap_or_default();
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    let compressed = encoder
        .write_all(&json)
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(compressed))
}

/// The value to put in a link: the whole file if it fits, else the file without the raw
/// answers if that fits; `None` when there is nothing to carry or it is still too long.
pub fn link_value(file: &OverridesFile) -> Option<String> {
    if file.overrides.is_empty() {
        return None;
    }
    let fits = |v: &String| v.len() <= MAX_LINK_CHARS;
    let full = encode_overrides(file);
    if fits(&full) {
        return Some(full);
    }
    if file.overrides.iter().all(|o| o.answers.is_none()) {
        return None;
    }
    Some(encode_overrides(&without_answers(file))).filter(fits)
}

/// `file` without the raw Jev answers (labels and provenance only): what a link carries
/// when the whole file is too long.
fn without_answers(file: &OverridesFile) -> OverridesFile {
    let mut labels_only = file.clone();
    for o in &mut labels_only.overrides {
        o.answers = None;
    }
    labels_only
}

/// The link of `file` ([`link_value`]) and whether the whole file is too long for a link
/// (then the link carries it without the raw answers, or not at all).
#[derive(Debug, Clone, PartialEq)]
pub struct LinkOf {
    /// The `ov=` value.
    pub value: Option<String>,
    /// The whole file's encoding is longer than [`MAX_LINK_CHARS`].
    pub too_long: bool,
}

split_point! {
    /// [`LinkOf`] `file`, in the `ov_link` chunk.
    ov_link: fn link_of(file: &OverridesFile) -> LinkOf {
        LinkOf {
            value: link_value(file),
            too_long: !file.overrides.is_empty()
                && encode_overrides(file).len() > MAX_LINK_CHARS,
        }
    }
}

/// Whether `linked` (read back from a link) is `file`: the same file, or the same without
/// the raw answers (what a link carries when the whole file is too long).
pub fn is_link_of(linked: &OverridesFile, file: &OverridesFile) -> bool {
    linked == file || *linked == without_answers(file)
}

/// Reads an `ov=` value back; errors say what is wrong in plain words.
pub fn decode_overrides(value: &str) -> Result<OverridesFile, String> {
    let body = value
        .strip_prefix(PREFIX)
        .ok_or_else(|| "the link's ov= value is not a runlens overrides encoding".to_owned())?;
    let compressed = URL_SAFE_NO_PAD
        .decode(body.trim_end_matches('='))
        .map_err(|e| format!("the link's ov= value is damaged (base64: {e})"))?;
    let mut json = Vec::new();
    DeflateDecoder::new(compressed.as_slice())
        .take(MAX_JSON_BYTES)
        .read_to_end(&mut json)
        .map_err(|e| format!("the link's ov= value is damaged (deflate: {e})"))?;
    let text = String::from_utf8(json)
        .map_err(|_| "the link's ov= value is damaged (not UTF-8 text)".to_owned())?;
    OverridesFile::from_json(&text).map_err(|e| format!("the link's ov= value: {e}"))
}
