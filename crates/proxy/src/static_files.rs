//! The dashboard (`dist`) and bundle files: MIME types, ETags, cache headers, SPA fallback.
//!
//! | Path | Cache-Control |
//! |---|---|
//! | hashed trunk assets (`name-<16+ hex>[_bg].wasm/js/css`) | `public, max-age=31536000, immutable` |
//! | `index.html` and the SPA fallback | `no-cache` |
//! | everything else (bundles included) | `no-cache` + a content-hash `ETag` (304 on match) |

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use sha2::{Digest, Sha256};

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A memoised ETag with the (size, mtime) it was computed for.
type EtagMemo = HashMap<PathBuf, (u64, Option<SystemTime>, HeaderValue)>;

/// Where files come from, plus a memo of content hashes keyed by (path, size, mtime).
pub(crate) struct StaticFiles {
    dist: PathBuf,
    bundles: Option<PathBuf>,
    etags: Mutex<EtagMemo>,
}

impl StaticFiles {
    pub(crate) fn new(dist: PathBuf, bundles: Option<PathBuf>) -> Self {
        StaticFiles {
            dist,
            bundles,
            etags: Mutex::new(HashMap::new()),
        }
    }
}

/// GET/HEAD of any path not routed elsewhere.
pub(crate) async fn serve_static(
    State(files): State<Arc<StaticFiles>>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let Some(segments) = safe_segments(uri.path()) else {
        return not_found();
    };
    if segments.first() == Some(&"v1") {
        return not_found();
    }
    if segments.first() == Some(&"bundles") && segments.len() > 1 {
        let rest: PathBuf = segments[1..].iter().collect();
        let overlay = files.bundles.as_ref().map(|dir| dir.join(&rest));
        let candidates = overlay
            .into_iter()
            .chain([files.dist.join("bundles").join(&rest)]);
        for path in candidates {
            if is_file(&path).await {
                return send_file(&files, &path, &headers).await;
            }
        }
        return not_found();
    }
    let mut path: PathBuf = files.dist.clone();
    path.extend(&segments);
    if is_file(&path).await {
        return send_file(&files, &path, &headers).await;
    }
    let index_in_dir = path.join("index.html");
    if is_file(&index_in_dir).await {
        return send_file(&files, &index_in_dir, &headers).await;
    }
    let looks_like_file = segments.last().is_some_and(|name| name.contains('.'));
    if looks_like_file {
        return not_found();
    }
    send_file(&files, &files.dist.join("index.html"), &headers).await
}

/// Path segments, or `None` for anything that could escape the root.
fn safe_segments(path: &str) -> Option<Vec<&str>> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let unsafe_segment = |s: &&str| {
        *s == "." || *s == ".." || s.contains('\\') || s.contains('\0') || s.contains(':')
    };
    (!segments.iter().any(unsafe_segment)).then_some(segments)
}

async fn is_file(path: &Path) -> bool {
    tokio::fs::metadata(path).await.is_ok_and(|m| m.is_file())
}

async fn send_file(files: &StaticFiles, path: &Path, request_headers: &HeaderMap) -> Response {
    let bytes = match tokio::fs::read(path).await {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return not_found(),
        Err(err) => {
            tracing::warn!(path = %path.display(), error = %err, "reading a static file");
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                axum::Json(json!({"detail": "file unreadable"})),
            )
                .into_response();
        }
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let etag = etag_for(files, path, &bytes).await;
    let cache_control = if is_hashed_asset(name) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let matches = request_headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|list| {
            list.split(',')
                .any(|tag| tag.trim() == "*" || tag.trim() == etag.to_str().unwrap_or(""))
        });
    let mut response = if matches {
        Response::builder()
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
    } else {
        Response::builder()
            .header(header::CONTENT_TYPE, content_type(name))
            .body(Body::from(bytes))
    }
    .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response());
    let headers = response.headers_mut();
    headers.insert(header::ETAG, etag);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    response
}

/// A weak ETag from the content's sha256 (weak: the compression layer may re-encode).
async fn etag_for(files: &StaticFiles, path: &Path, bytes: &[u8]) -> HeaderValue {
    let meta = tokio::fs::metadata(path).await.ok();
    let stamp = (bytes.len() as u64, meta.and_then(|m| m.modified().ok()));
    if let Ok(memo) = files.etags.lock()
        && let Some((len, modified, tag)) = memo.get(path)
        && (*len, *modified) == stamp
    {
        return tag.clone();
    }
    let digest = Sha256::digest(bytes);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    let tag = HeaderValue::from_str(&format!("W/\"{hex}\""))
        .unwrap_or(HeaderValue::from_static("W/\"0\""));
    if let Ok(mut memo) = files.etags.lock() {
        memo.insert(path.to_path_buf(), (stamp.0, stamp.1, tag.clone()));
    }
    tag
}

/// `runlens-web-1a2b3c4d5e6f7081_bg.wasm`, `index-0123456789abcdef.css`: trunk's hashed names.
fn is_hashed_asset(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    if !matches!(ext, "wasm" | "js" | "css") {
        return false;
    }
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    let Some((_, hash)) = stem.rsplit_once('-') else {
        return false;
    };
    hash.len() >= 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

fn content_type(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "gz" => "application/gzip",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({"detail": "Not Found"})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunk_hashed_names_are_recognised() {
        assert!(is_hashed_asset("runlens-web-1a2b3c4d5e6f7081_bg.wasm"));
        assert!(is_hashed_asset("runlens-web-1a2b3c4d5e6f7081.js"));
        assert!(is_hashed_asset("style-0123456789abcdef.css"));
        assert!(!is_hashed_asset("index.html"));
        assert!(!is_hashed_asset("sample.json"));
        assert!(!is_hashed_asset("app-1234.js")); // too short to be trunk's hash
    }

    #[test]
    fn parent_directory_segments_are_refused() {
        assert_eq!(safe_segments("/a/b.js"), Some(vec!["a", "b.js"]));
        assert_eq!(safe_segments("/a/../etc/passwd"), None);
        assert_eq!(safe_segments("/..\\x"), None);
    }
}
