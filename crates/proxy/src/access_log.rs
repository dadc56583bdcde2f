//! One INFO line per request: method, path (never the query string), status, latency and the
//! request id (`x-request-id`: the client's, else `rl-<counter>`, echoed on the response).
//! Never bodies, headers or keys.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tower_http::request_id::{MakeRequestId, RequestId};

/// The header carrying the request id.
pub const REQUEST_ID: &str = "x-request-id";

/// Numbers requests `rl-1`, `rl-2`, … in arrival order (unique within one server run).
#[derive(Debug, Clone, Default)]
pub(crate) struct Counter(std::sync::Arc<AtomicU64>);

impl MakeRequestId for Counter {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        HeaderValue::from_str(&format!("rl-{n}"))
            .ok()
            .map(RequestId::new)
    }
}

/// The middleware writing the line once the response is ready.
pub(crate) async fn log_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let id = request
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-")
        .to_owned();
    let response = next.run(request).await;
    tracing::info!(
        target: "runlens::access",
        method = %method,
        path,
        status = response.status().as_u16(),
        latency_ms = started.elapsed().as_secs_f64() * 1e3,
        request_id = id,
        "request"
    );
    response
}
