//! The `typesafe` backend: forwards to Jev with the server-side key, one retry at most.

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};

use crate::config::UpstreamConfig;
use crate::error::ProxyError;

/// Response headers copied from TypeSafe to the client.
const PASSED_HEADERS: [&str; 3] = ["x-typesafe-request-id", "retry-after", "retry-after-ms"];
/// Attempts per request: the first plus at most one retry.
const MAX_ATTEMPTS: u32 = 2;

/// What TypeSafe answered, to pass through unchanged.
#[derive(Debug, Clone)]
pub struct UpstreamReply {
    /// Upstream status.
    pub status: StatusCode,
    /// Upstream body bytes.
    pub body: Bytes,
    /// The passed-through headers that were present (`x-typesafe-request-id`, `retry-after`, `retry-after-ms`).
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// Attempts made (1 or 2).
    pub attempts: u32,
}

/// A configured TypeSafe client.
#[derive(Debug, Clone)]
pub struct Upstream {
    config: UpstreamConfig,
    client: reqwest::Client,
}

impl Upstream {
    /// Builds the HTTP client (rustls, connection pool, per-attempt timeout).
    pub fn new(config: UpstreamConfig) -> Result<Upstream, ProxyError> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(5)))
            .pool_idle_timeout(Duration::from_secs(30))
            .user_agent(concat!("runlens-proxy/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|err| ProxyError::Internal(format!("building the HTTP client: {err}")))?;
        Ok(Upstream { config, client })
    }

    /// The configuration (base URL, models, timeouts; the key stays redacted in `Debug`).
    pub fn config(&self) -> &UpstreamConfig {
        &self.config
    }

    /// `POST {base}/v1/systemone` with `body` (already validated, whitelisted JSON).
    pub async fn post_systemone(&self, body: Bytes) -> Result<UpstreamReply, ProxyError> {
        let url = format!("{}/v1/systemone", self.config.base_url);
        self.send(|| {
            self.client
                .post(&url)
                .header(header::CONTENT_TYPE, "application/json")
                .body(body.clone())
        })
        .await
    }

    /// `GET {base}/v1/models`.
    pub async fn get_models(&self) -> Result<UpstreamReply, ProxyError> {
        let url = format!("{}/v1/models", self.config.base_url);
        self.send(|| self.client.get(&url)).await
    }

    async fn send(
        &self,
        build: impl Fn() -> reqwest::RequestBuilder,
    ) -> Result<UpstreamReply, ProxyError> {
        let mut attempt = 1;
        loop {
            let started = Instant::now();
            let mut request = build()
                .bearer_auth(self.config.api_key.expose())
                .header(header::ACCEPT, "application/json");
            if attempt > 1 {
                request = request.header("x-typesafe-retry-count", (attempt - 1).to_string());
            }
            let outcome = match request.send().await {
                Ok(response) => read_reply(response, attempt).await,
                Err(err) => Err(err),
            };
            let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
            match outcome {
                Ok(reply) => {
                    let request_id = reply
                        .headers
                        .iter()
                        .find(|(n, _)| n == "x-typesafe-request-id");
                    let request_id = request_id.and_then(|(_, v)| v.to_str().ok()).unwrap_or("-");
                    tracing::info!(
                        attempt,
                        status = reply.status.as_u16(),
                        request_id,
                        elapsed_ms,
                        "upstream answered"
                    );
                    let retryable = reply.status == StatusCode::TOO_MANY_REQUESTS
                        || reply.status.is_server_error();
                    if !retryable || attempt >= MAX_ATTEMPTS {
                        return Ok(reply);
                    }
                    let wait = retry_wait(
                        &reply.headers,
                        self.config.default_retry_wait,
                        self.config.max_retry_wait,
                    );
                    tracing::info!(wait_ms = wait.as_millis() as u64, "retrying upstream");
                    tokio::time::sleep(wait).await;
                }
                Err(err) if err.is_timeout() => {
                    tracing::warn!(attempt, elapsed_ms, "upstream timed out");
                    return Err(ProxyError::UpstreamTimeout(self.config.timeout));
                }
                Err(err) => {
                    let message = without_url(&err);
                    tracing::warn!(attempt, elapsed_ms, error = %message, "upstream connection failed");
                    if attempt >= MAX_ATTEMPTS {
                        return Err(ProxyError::UpstreamUnreachable {
                            attempts: attempt,
                            message,
                        });
                    }
                    tokio::time::sleep(
                        self.config
                            .default_retry_wait
                            .min(self.config.max_retry_wait),
                    )
                    .await;
                }
            }
            attempt += 1;
        }
    }
}

async fn read_reply(
    response: reqwest::Response,
    attempts: u32,
) -> Result<UpstreamReply, reqwest::Error> {
    let status =
        StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
    let headers = passed_headers(response.headers());
    let body = response.bytes().await?;
    Ok(UpstreamReply {
        status,
        body,
        headers,
        attempts,
    })
}

fn passed_headers(headers: &HeaderMap) -> Vec<(HeaderName, HeaderValue)> {
    PASSED_HEADERS
        .iter()
        .filter_map(|name| {
            headers
                .get(*name)
                .map(|v| (HeaderName::from_static(name), v.clone()))
        })
        .collect()
}

/// The transport error without its URL (kept short for logs and never holding the key).
fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(url.as_str(), "<upstream>");
    }
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The wait before a retry: `retry-after-ms` (milliseconds), then `Retry-After` (seconds),
/// else `default`; never more than `cap`.
///
/// ```
/// use std::time::Duration;
/// use axum::http::{HeaderName, HeaderValue};
/// use runlens_proxy::upstream::retry_wait;
/// let ms = [(HeaderName::from_static("retry-after-ms"), HeaderValue::from_static("250"))];
/// let cap = Duration::from_secs(5);
/// assert_eq!(retry_wait(&ms, Duration::from_millis(500), cap), Duration::from_millis(250));
/// let s = [(HeaderName::from_static("retry-after"), HeaderValue::from_static("60"))];
/// assert_eq!(retry_wait(&s, Duration::from_millis(500), cap), cap);
/// ```
pub fn retry_wait(
    headers: &[(HeaderName, HeaderValue)],
    default: Duration,
    cap: Duration,
) -> Duration {
    let number = |name: &str| {
        let (_, value) = headers.iter().find(|(n, _)| n == name)?;
        let parsed: f64 = value.to_str().ok()?.trim().parse().ok()?;
        (parsed.is_finite() && parsed >= 0.0).then_some(parsed)
    };
    // Capped in f64 first: `Duration::from_secs_f64` would panic on an absurd header.
    let seconds = number("retry-after-ms")
        .map(|ms| ms / 1e3)
        .or_else(|| number("retry-after"))
        .unwrap_or(default.as_secs_f64());
    Duration::from_secs_f64(seconds.min(cap.as_secs_f64()))
}
