//! The dashboard (`dist`) and bundle files: streamed with `Range` support, MIME types, ETags,
//! cache headers, SPA fallback.
//!
//! | Path | Cache-Control |
//! |---|---|
//! | hashed trunk assets (`name-<16+ hex>[_bg].wasm/js/css`) | `public, max-age=31536000, immutable` |
//! | `index.html` and the SPA fallback | `no-cache` |
//! | everything else (bundles included) | `no-cache` + an `ETag` of modification time and size (304 on match) |

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use sha2::{Digest, Sha256};
use tower_http::services::ServeDir;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Where files come from: the dashboard's `dist` and an optional bundles folder laid over
/// `dist/bundles`.
pub(crate) struct StaticFiles {
    dist: PathBuf,
    bundles: Option<PathBuf>,
}

impl StaticFiles {
    pub(crate) fn new(dist: PathBuf, bundles: Option<PathBuf>) -> Self {
        StaticFiles { dist, bundles }
    }
}

/// GET/HEAD of any path not routed elsewhere. Files go through tower-http's `ServeDir`:
/// streamed from disk (never read whole into memory), single `Range` requests (206, 416),
/// `If-Modified-Since`, percent-decoded names, no way out of the root. Around it this adds
/// the cache policy, an `ETag` with `If-None-Match` (304) and the content types below.
pub(crate) async fn serve_static(State(files): State<Arc<StaticFiles>>, req: Request) -> Response {
    let name = file_name(req.uri().path());
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).cloned();
    let (req, _) = req.into_parts();
    let response = route(&files, &req).await;
    finish(&name, if_none_match.as_ref(), response)
}

async fn route(files: &StaticFiles, req: &Parts) -> Response {
    let path = req.uri.path().to_owned();
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    match segments.next() {
        Some("v1") => not_found(),
        Some("bundles") if segments.next().is_some() => {
            let rest = &path[path.find("/bundles/").map_or(0, |i| i + "/bundles".len())..];
            let dirs = files
                .bundles
                .iter()
                .cloned()
                .chain([files.dist.join("bundles")]);
            for dir in dirs {
                let response = serve_from(&dir, req, rest).await;
                if response.status() != StatusCode::NOT_FOUND {
                    return response;
                }
            }
            not_found()
        }
        _ => {
            let response = serve_from(&files.dist, req, &path).await;
            if response.status() != StatusCode::NOT_FOUND {
                return response;
            }
            // A path that names a file is missing; any other is a view of the app.
            if path
                .rsplit('/')
                .next()
                .is_some_and(|last| last.contains('.'))
            {
                return not_found();
            }
            serve_from(&files.dist, req, "/index.html").await
        }
    }
}

/// `req` (its method and headers) for `path` under `dir`, through `ServeDir`.
async fn serve_from(dir: &Path, req: &Parts, path: &str) -> Response {
    let mut inner = Request::builder().method(req.method.clone());
    let query = req.uri.query().map_or(String::new(), |q| format!("?{q}"));
    inner = inner.uri(format!("{path}{query}"));
    if let Some(headers) = inner.headers_mut() {
        for (key, value) in &req.headers {
            // `If-None-Match` is answered in `finish`, with this module's ETag.
            if key != header::IF_NONE_MATCH {
                headers.append(key, value.clone());
            }
        }
    }
    let Ok(inner) = inner.body(Body::empty()) else {
        return not_found();
    };
    let mut service = ServeDir::new(dir).append_index_html_on_directories(true);
    match service.try_call(inner).await {
        Ok(response) => response.map(Body::new),
        // tower-http 0.7's `try_call` reports a missing file (or a file name used as a
        // directory) as an I/O error, where 0.6 answered 404.
        Err(err)
            if err.kind() == std::io::ErrorKind::NotFound
                || err.kind() == std::io::ErrorKind::NotADirectory =>
        {
            not_found()
        }
        Err(err) => {
            tracing::warn!(dir = %dir.display(), error = %err, "serving a static file");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                axum::Json(json!({"detail": "file unreadable"})),
            )
                .into_response()
        }
    }
}

/// The last path segment (percent-decoding is not needed: only the extension and the hash
/// pattern are read from it).
fn file_name(path: &str) -> String {
    let last = path.rsplit('/').next().unwrap_or("");
    if last.is_empty() || !last.contains('.') {
        "index.html".to_owned()
    } else {
        last.to_owned()
    }
}

/// Cache policy, ETag and content type of a file response; 304 when `If-None-Match` matches.
fn finish(name: &str, if_none_match: Option<&HeaderValue>, mut response: Response) -> Response {
    let status = response.status();
    if !matches!(
        status,
        StatusCode::OK | StatusCode::PARTIAL_CONTENT | StatusCode::NOT_MODIFIED
    ) {
        return response;
    }
    let cache_control = if is_hashed_asset(name) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let etag = etag(response.headers());
    if status == StatusCode::OK
        && let (Some(tag), Some(list)) = (&etag, if_none_match.and_then(|v| v.to_str().ok()))
        && list
            .split(',')
            .any(|t| t.trim() == "*" || t.trim() == tag.to_str().unwrap_or(""))
    {
        let mut not_modified = StatusCode::NOT_MODIFIED.into_response();
        let headers = not_modified.headers_mut();
        headers.insert(header::ETAG, tag.clone());
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(cache_control),
        );
        if let Some(modified) = response.headers().get(header::LAST_MODIFIED) {
            headers.insert(header::LAST_MODIFIED, modified.clone());
        }
        return not_modified;
    }
    let headers = response.headers_mut();
    if status != StatusCode::NOT_MODIFIED {
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(name)),
        );
    }
    if let Some(tag) = etag {
        headers.insert(header::ETAG, tag);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control),
    );
    response
}

/// A weak ETag from the file's modification time and size (as `ServeDir` reports them in
/// `Last-Modified` and `Content-Length` / `Content-Range`), so no file is read to make it;
/// weak because the compression layer may re-encode the body. `None` without either.
fn etag(headers: &HeaderMap) -> Option<HeaderValue> {
    let modified = headers.get(header::LAST_MODIFIED)?.to_str().ok()?;
    let size = match headers.get(header::CONTENT_RANGE) {
        Some(range) => range.to_str().ok()?.rsplit('/').next()?.to_owned(),
        None => headers
            .get(header::CONTENT_LENGTH)?
            .to_str()
            .ok()?
            .to_owned(),
    };
    let digest = Sha256::digest(format!("{modified}\n{size}").as_bytes());
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("W/\"{hex}\"")).ok()
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
        "zip" => "application/zip",
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
}
