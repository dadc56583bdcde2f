//! Bundle encoding: JSON or gzip-compressed JSON in, canonical JSON out, content hash.

use std::io::{BufRead, BufReader, Read, Write};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{Bundle, BundleBody, FORMAT};

/// Why bytes could not be read as a bundle.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The bytes start with the gzip magic but do not decompress.
    #[error("bundle: gzip data is corrupt or truncated: {0}")]
    Gzip(String),
    /// The JSON is malformed or does not match the `runlens.bundle/1` schema.
    #[error("bundle: line {line}, column {column}: {message}")]
    Json {
        /// 1-based line of the problem in the (decompressed) JSON.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's description (names the field and what was expected).
        message: String,
    },
    /// The document is JSON but its `format` is not `runlens.bundle/1`.
    #[error("bundle: unsupported format {found:?}; expected \"runlens.bundle/1\"")]
    UnsupportedFormat {
        /// The `format` value found (empty when missing).
        found: String,
    },
    /// The bytes are a v2 zip, which [`Bundle::from_slice`] does not read (the CLI reads it
    /// through [`super::v2`]; the dashboard cannot open v2 yet).
    #[error(
        "bundle: this is a runlens.bundle/2 zip, which this reader does not open; \
         convert it with `runlens convert RUN.zip RUN.json.gz`"
    )]
    V2Zip,
    /// The stored `content_hash` does not match the body.
    #[error("bundle: content_hash {stored} does not match the body (computed {computed})")]
    HashMismatch {
        /// The hash stored in the bundle.
        stored: String,
        /// The hash of the body as read.
        computed: String,
    },
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const UTF8_BOM: [u8; 3] = [0xef, 0xbb, 0xbf];

impl Bundle {
    /// Parses a bundle from JSON or gzip-compressed JSON (detected by the magic bytes
    /// `1f 8b`). A leading UTF-8 BOM is ignored. Does not verify the content hash (see
    /// [`Bundle::verify_content_hash`]). Gzip input is decoded as a stream, so the
    /// decompressed JSON is never held in memory whole.
    pub fn from_slice(bytes: &[u8]) -> Result<Bundle, BundleError> {
        if bytes.starts_with(b"PK\x03\x04") {
            return Err(BundleError::V2Zip);
        }
        if bytes.starts_with(&GZIP_MAGIC) {
            return parse_gzip(bytes);
        }
        parse_json(bytes)
    }

    /// Serialises the bundle as compact JSON.
    pub fn to_json_vec(&self) -> Vec<u8> {
        // Serialising plain data (string keys only) into a Vec cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Streams the bundle as compact JSON into `writer` (same bytes as [`Bundle::to_json_vec`]).
    pub fn write_json<W: Write>(&self, writer: W) -> std::io::Result<()> {
        serde_json::to_writer(writer, self).map_err(std::io::Error::other)
    }

    /// Streams the bundle as gzip-compressed compact JSON into `writer`.
    pub fn write_json_gz<W: Write>(&self, writer: W) -> std::io::Result<()> {
        let mut encoder = flate2::write::GzEncoder::new(writer, flate2::Compression::default());
        self.write_json(&mut encoder)?;
        encoder.finish()?.flush()
    }

    /// Serialises the bundle as gzip-compressed compact JSON (default compression level).
    pub fn to_json_gz_vec(&self) -> Vec<u8> {
        let json = self.to_json_vec();
        let mut encoder = flate2::write::GzEncoder::new(
            Vec::with_capacity(json.len() / 4),
            flate2::Compression::default(),
        );
        // Writing into a Vec cannot fail.
        let _ = encoder.write_all(&json);
        encoder.finish().unwrap_or_default()
    }

    /// Checks that `format` is [`FORMAT`] and `content_hash` matches the body.
    pub fn verify_content_hash(&self) -> Result<(), BundleError> {
        self.check_content_hash(self.body.content_hash())
    }

    /// Compares `computed` (lower-case hex SHA-256 of [`BundleBody::canonical_json`], e.g.
    /// from the browser's native digest) with the stored `content_hash`.
    pub fn check_content_hash(&self, computed: String) -> Result<(), BundleError> {
        if computed == self.content_hash {
            Ok(())
        } else {
            Err(BundleError::HashMismatch {
                stored: self.content_hash.clone(),
                computed,
            })
        }
    }
}

impl BundleBody {
    /// Lower-case hex SHA-256 of the body's canonical serialisation: compact JSON, struct
    /// fields in declaration order, maps in stored order, floats in shortest round-trip form.
    pub fn content_hash(&self) -> String {
        let mut hasher = Sha256::new();
        // Streaming into the hasher avoids a second copy of the body.
        let _ = serde_json::to_writer(HashWriter(&mut hasher), self);
        hex(&hasher.finalize())
    }

    /// The bytes [`BundleBody::content_hash`] hashes, for callers with a faster SHA-256
    /// (the loader worker uses the browser's `crypto.subtle.digest`).
    pub fn canonical_json(&self) -> Vec<u8> {
        // Serialising plain data (string keys only) into a Vec cannot fail.
        serde_json::to_vec(self).unwrap_or_default()
    }
}

/// Where the body's value is in `json`, a bundle document as [`Bundle::to_json_vec`] writes
/// it (compact, `body` the last top-level key): those bytes are the body's canonical JSON, so
/// a reader that kept the document can hash them instead of serialising the body again.
/// `None` when `json` has no top-level `"body":` key followed by a value that runs to the
/// document's closing brace. The span is only a candidate: a document written otherwise
/// (pretty-printed, keys reordered) gives bytes whose hash does not match, and the caller then
/// checks with [`BundleBody::canonical_json`].
pub fn raw_body_span(json: &[u8]) -> Option<std::ops::Range<usize>> {
    const KEY: &[u8] = b"\"body\":";
    let end = json.iter().rposition(|b| !b.is_ascii_whitespace())?;
    if json[end] != b'}' {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut i = 0;
    while i < end {
        let b = json[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth = depth.saturating_sub(1),
                b'"' if depth == 1 && json[i..].starts_with(KEY) => {
                    return Some(i + KEY.len()..end);
                }
                b'"' => in_string = true,
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// Lower-case hex of a digest (for [`Bundle::check_content_hash`]).
pub fn hex_digest(bytes: &[u8]) -> String {
    hex(bytes)
}

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    out
}

struct HashWriter<'a>(&'a mut Sha256);

impl Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, BundleError> {
    // The gzip trailer's ISIZE is the uncompressed size mod 2^32 (exact for one member under
    // 4 GiB): reserving it avoids the doubling reallocations of `read_to_end`, which would
    // otherwise briefly hold up to twice the JSON. Capped so a forged trailer cannot reserve
    // more than 1,032:1 (deflate's maximum ratio) of the input.
    let isize_hint = bytes
        .len()
        .checked_sub(4)
        .and_then(|at| bytes.get(at..))
        .and_then(|t| <[u8; 4]>::try_from(t).ok())
        .map_or(0, |t| u32::from_le_bytes(t) as usize);
    let cap = isize_hint.min(bytes.len().saturating_mul(1032));
    let mut out = Vec::with_capacity(cap);
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| BundleError::Gzip(e.to_string()))?;
    Ok(out)
}

/// Streams gzip-compressed JSON into a bundle. On a JSON error, the (rare) slow path
/// decompresses the whole document to report the format tag or the exact position.
fn parse_gzip(bytes: &[u8]) -> Result<Bundle, BundleError> {
    let mut reader = BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(bytes));
    let starts_with_bom = reader
        .fill_buf()
        .map_err(|e| BundleError::Gzip(e.to_string()))?
        .starts_with(&UTF8_BOM);
    if starts_with_bom {
        reader.consume(UTF8_BOM.len());
    }
    match serde_json::from_reader::<_, Bundle>(&mut reader) {
        Ok(bundle) if bundle.format == FORMAT => Ok(bundle),
        Ok(bundle) => Err(BundleError::UnsupportedFormat {
            found: bundle.format,
        }),
        Err(err) if err.is_io() => Err(BundleError::Gzip(err.to_string())),
        Err(_) => parse_json(&gunzip(bytes)?),
    }
}

fn parse_json(bytes: &[u8]) -> Result<Bundle, BundleError> {
    let bytes = bytes.strip_prefix(&UTF8_BOM).unwrap_or(bytes);
    match serde_json::from_slice::<Bundle>(bytes) {
        Ok(bundle) if bundle.format == FORMAT => Ok(bundle),
        Ok(bundle) => Err(BundleError::UnsupportedFormat {
            found: bundle.format,
        }),
        Err(err) => {
            // A document of another format usually fails on some field first: report the
            // format instead when it is readable and wrong.
            if let Some(found) = format_tag(bytes)
                && found != FORMAT
            {
                return Err(BundleError::UnsupportedFormat { found });
            }
            Err(BundleError::Json {
                line: err.line(),
                column: err.column(),
                message: err.to_string(),
            })
        }
    }
}

fn format_tag(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Tag {
        #[serde(default)]
        format: String,
    }
    serde_json::from_slice::<Tag>(bytes).ok().map(|t| t.format)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::super::{Bundle, BundleBody, Corpus, Provenance};

    fn small() -> Bundle {
        let body = BundleBody {
            corpora: vec![Corpus {
                name: "dev".into(),
                ..Corpus::default()
            }],
            ..BundleBody::default()
        };
        Bundle::new(Provenance::default(), body)
    }

    /// The browser path: gzip detection and decoding work on every target.
    #[test]
    fn gzip_and_plain_json_decode_to_the_same_bundle() {
        let bundle = small();
        assert_eq!(
            Bundle::from_slice(&bundle.to_json_gz_vec()).unwrap(),
            bundle
        );
        assert_eq!(Bundle::from_slice(&bundle.to_json_vec()).unwrap(), bundle);
    }

    /// SHA-256 of the empty input (FIPS 180-2), through the hex encoder.
    #[test]
    fn hex_of_a_known_digest() {
        use sha2::{Digest, Sha256};
        assert_eq!(
            super::hex(&Sha256::digest(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    /// The body's bytes in a document written by runlens are its canonical JSON; a key
    /// named `body` inside a string or a nested object is not the body.
    #[test]
    fn the_raw_body_span_of_a_written_bundle_is_its_canonical_json() {
        use super::raw_body_span;
        let bundle = small();
        let json = bundle.to_json_vec();
        let span = raw_body_span(&json).expect("a body");
        assert_eq!(&json[span], bundle.body.canonical_json().as_slice());
        let mut newline = json.clone();
        newline.extend_from_slice(b"\n");
        assert_eq!(
            &newline[raw_body_span(&newline).unwrap()],
            &json[raw_body_span(&json).unwrap()]
        );
        let tricky = br#"{"a":"\"body\":1","n":{"body":2},"body":{"x":"}"}}"#;
        assert_eq!(&tricky[raw_body_span(tricky).unwrap()], br#"{"x":"}"}"#);
        assert_eq!(raw_body_span(br#"{"format":"x"}"#), None);
        assert_eq!(raw_body_span(b"[1]"), None);
    }

    /// An outside SHA-256 of `canonical_json` gives the content hash, and a wrong one fails.
    #[test]
    fn canonical_json_is_what_the_content_hash_hashes() {
        use sha2::{Digest, Sha256};
        let bundle = small();
        let outside = super::hex_digest(&Sha256::digest(bundle.body.canonical_json()));
        assert_eq!(outside, bundle.content_hash);
        assert!(bundle.check_content_hash(outside).is_ok());
        let err = bundle.check_content_hash("00".repeat(32)).unwrap_err();
        assert!(matches!(err, super::BundleError::HashMismatch { .. }));
    }
}
