//! Reading a JSON request body: size cap, `Content-Encoding` (gzip, zstd), JSON parsing.

use std::io::Read;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, header};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::Value;

use crate::error::ProxyError;

/// Reads at most `limit` bytes (before and after decompression) and parses them as JSON.
pub(crate) async fn read_json(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<Value, ProxyError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(ProxyError::BodyTooLarge { limit });
    }
    let raw = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.downcast_ref::<LengthLimitError>().is_some() => {
            return Err(ProxyError::BodyTooLarge { limit });
        }
        Err(err) => return Err(ProxyError::BodyUnreadable(err.to_string())),
    };
    let decoded = decode(headers, raw, limit)?;
    serde_json::from_slice(&decoded).map_err(|err| ProxyError::InvalidJson {
        line: err.line(),
        column: err.column(),
        message: err.to_string(),
    })
}

fn decode(headers: &HeaderMap, raw: Bytes, limit: usize) -> Result<Bytes, ProxyError> {
    let encoding = headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("?").trim().to_ascii_lowercase())
        .unwrap_or_default();
    let reader: Box<dyn Read + '_> = match encoding.as_str() {
        "" | "identity" => return Ok(raw),
        "gzip" | "x-gzip" => Box::new(flate2::read::GzDecoder::new(&raw[..])),
        "zstd" => Box::new(
            ruzstd::decoding::StreamingDecoder::new(&raw[..])
                .map_err(|err| ProxyError::BodyUnreadable(format!("zstd: {err}")))?,
        ),
        other => return Err(ProxyError::UnsupportedEncoding(other.to_owned())),
    };
    let mut decoded = Vec::new();
    reader
        .take(limit as u64 + 1)
        .read_to_end(&mut decoded)
        .map_err(|err| ProxyError::BodyUnreadable(format!("{encoding}: {err}")))?;
    if decoded.len() > limit {
        return Err(ProxyError::BodyTooLarge { limit });
    }
    Ok(Bytes::from(decoded))
}
