//! The only module that makes HTTP requests (gloo-net). Errors are data, never `None`.

use gloo_net::http::Request;
use thiserror::Error;

/// Why a download failed, in words a reader can act on.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ApiError {
    /// The request never got an HTTP answer.
    #[error(
        "could not download {url}: {message}. The server may be down or unreachable, or it \
         does not allow this page to read it (cross-origin requests need CORS headers on the \
         server that hosts the file)"
    )]
    Network {
        /// The URL asked for.
        url: String,
        /// The browser's message.
        message: String,
    },
    /// The server answered with an error status.
    #[error("could not download {url}: the server answered HTTP {status} {status_text}{hint}")]
    Status {
        /// The URL asked for.
        url: String,
        /// HTTP status.
        status: u16,
        /// HTTP status text.
        status_text: String,
        /// A plain-words hint for common statuses.
        hint: String,
    },
    /// The body could not be read.
    #[error("could not read the answer from {url}: {message}")]
    Body {
        /// The URL asked for.
        url: String,
        /// What went wrong.
        message: String,
    },
}

/// Downloads `url` and returns its bytes.
pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, ApiError> {
    let response = Request::get(url)
        .send()
        .await
        .map_err(|e| ApiError::Network {
            url: url.to_owned(),
            message: e.to_string(),
        })?;
    if !response.ok() {
        let status = response.status();
        let hint = match status {
            404 => " (not found: check the bundle address)",
            401 | 403 => " (access denied)",
            _ => "",
        };
        return Err(ApiError::Status {
            url: url.to_owned(),
            status,
            status_text: response.status_text(),
            hint: hint.to_owned(),
        });
    }
    response.binary().await.map_err(|e| ApiError::Body {
        url: url.to_owned(),
        message: e.to_string(),
    })
}
