//! `ProxyError`: every way a request can fail before or instead of a backend answer.

use std::time::Duration;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use runlens_core::jev::RequestError;
use serde_json::{Value, json};

/// A refused or failed API request; the response body is always `{"detail": …}`.
#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    /// The body exceeds the configured cap (413).
    #[error("request body exceeds {limit} bytes")]
    BodyTooLarge {
        /// The cap, bytes.
        limit: usize,
    },
    /// The body could not be read or decompressed (400).
    #[error("request body unreadable: {0}")]
    BodyUnreadable(String),
    /// A `Content-Encoding` other than identity, gzip or zstd (415).
    #[error("unsupported Content-Encoding: {0}")]
    UnsupportedEncoding(String),
    /// The body is not JSON (422, FastAPI `json_invalid`).
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    InvalidJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json expected.
        message: String,
    },
    /// Schema (422) or limit (400) validation failed.
    #[error("invalid request: {}", .0.log_summary())]
    Invalid(RequestError),
    /// No valid access token (401); the message says what was wrong, never the token.
    #[error("unauthorized: {0}")]
    Unauthorized(&'static str),
    /// The daily budget of the server or of the request's token is spent (429).
    #[error("daily budget of {limit} decisions spent ({scope})")]
    BudgetSpent {
        /// `"server"` or `"token"`.
        scope: &'static str,
        /// The budget, decisions per UTC day.
        limit: u64,
        /// Time until 00:00 UTC.
        retry_after: Duration,
    },
    /// The client exceeded its rate (429).
    #[error("rate limit exceeded; retry in {retry_after:?}")]
    RateLimited {
        /// When a token will be available.
        retry_after: Duration,
    },
    /// The in-flight queue stayed full for the whole queue timeout (503).
    #[error("too many requests in flight")]
    Overloaded,
    /// TypeSafe did not answer within the timeout (504).
    #[error("upstream timed out after {0:?}")]
    UpstreamTimeout(Duration),
    /// TypeSafe could not be reached, after the retry (502).
    #[error("upstream unreachable after {attempts} attempts: {message}")]
    UpstreamUnreachable {
        /// Attempts made.
        attempts: u32,
        /// The transport error (no URL credentials, no body).
        message: String,
    },
    /// The local model failed on a request that passed validation (422).
    #[error("local model: {0}")]
    LocalModel(String),
    /// A bug or a lost worker thread (500); details are logged, not sent.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ProxyError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ProxyError::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ProxyError::BodyUnreadable(_) => StatusCode::BAD_REQUEST,
            ProxyError::UnsupportedEncoding(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ProxyError::InvalidJson { .. } | ProxyError::LocalModel(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ProxyError::Invalid(err) => {
                StatusCode::from_u16(err.status()).unwrap_or(StatusCode::BAD_REQUEST)
            }
            ProxyError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ProxyError::RateLimited { .. } | ProxyError::BudgetSpent { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ProxyError::Overloaded => StatusCode::SERVICE_UNAVAILABLE,
            ProxyError::UpstreamTimeout(_) => StatusCode::GATEWAY_TIMEOUT,
            ProxyError::UpstreamUnreachable { .. } => StatusCode::BAD_GATEWAY,
            ProxyError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body sent to the client.
    pub fn body(&self) -> Value {
        let typed = |error_type: &str, message: String| json!({"detail": {"error_type": error_type, "message": message}});
        match self {
            ProxyError::Invalid(err) => err.body(),
            ProxyError::InvalidJson {
                line,
                column,
                message,
            } => json!({"detail": [{
                "type": "json_invalid",
                "loc": ["body", line, column],
                "msg": "JSON decode error",
                "input": {},
                "ctx": {"error": message},
            }]}),
            ProxyError::LocalModel(message) => json!({"detail": message}),
            ProxyError::Unauthorized(message) => {
                typed("authentication_error", (*message).to_owned())
            }
            ProxyError::BudgetSpent { scope, limit, .. } => typed(
                "budget_exhausted",
                format!(
                    "The daily budget of {limit} decisions for this {} is spent; it starts again at 00:00 UTC.",
                    if *scope == "token" {
                        "access token"
                    } else {
                        "server"
                    }
                ),
            ),
            ProxyError::RateLimited { .. } => typed(
                "rate_limit_error",
                "Too many requests from this client; slow down.".into(),
            ),
            ProxyError::Overloaded => typed(
                "overloaded_error",
                "The server is busy; try again shortly.".into(),
            ),
            ProxyError::UpstreamTimeout(limit) => typed(
                "upstream_timeout",
                format!("TypeSafe did not answer within {} ms.", limit.as_millis()),
            ),
            ProxyError::UpstreamUnreachable { .. } => typed(
                "upstream_unreachable",
                "TypeSafe could not be reached.".into(),
            ),
            ProxyError::Internal(_) => typed("internal_error", "Internal server error.".into()),
            other => json!({"detail": other.to_string()}),
        }
    }
}

impl IntoResponse for ProxyError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::warn!(status = status.as_u16(), error = %self, "request failed");
        } else {
            tracing::info!(status = status.as_u16(), error = %self, "request refused");
        }
        let mut response = (status, Json(self.body())).into_response();
        if matches!(self, ProxyError::Unauthorized(_)) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let ProxyError::RateLimited { retry_after }
        | ProxyError::BudgetSpent { retry_after, .. } = self
        {
            let seconds = retry_after.as_secs_f64().ceil().max(1.0) as u64;
            let headers = response.headers_mut();
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            headers.insert(
                "retry-after-ms",
                HeaderValue::from(retry_after.as_millis().max(1) as u64),
            );
        }
        response
    }
}
