//! How the panels reach Jev: a [`JevTransport`] in context ([`Jev`]), the HTTP one by default
//! (through [`crate::api`]); tests provide a fake so no server is needed.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::jev::SystemOneRequest;

use crate::api::{self, ApiError, SystemOneReply};

/// A boxed future run on the page's thread.
pub type LocalFuture<T> = Pin<Box<dyn Future<Output = T>>>;

/// The model id of the proxy's offline fallback.
pub const LOCAL_MODEL_ID: &str = "sparrow-nano-general-v1.1";
/// Shown next to every answer of the offline model.
pub const OFFLINE_WARNING: &str = "offline model, low accuracy; set TYPESAFE_API_KEY for Jev";

/// Something that answers Jev requests.
pub trait JevTransport: Send + Sync {
    /// `POST /v1/systemone` at `base`.
    fn ask(
        &self,
        base: &str,
        request: &SystemOneRequest,
    ) -> LocalFuture<Result<SystemOneReply, ApiError>>;
    /// `(backend, model id)` of the server at `base`.
    fn info(&self, base: &str) -> LocalFuture<Result<(String, String), ApiError>>;
}

/// The HTTP transport ([`api::post_systemone`], [`api::jev_info`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct HttpJev;

impl JevTransport for HttpJev {
    fn ask(
        &self,
        base: &str,
        request: &SystemOneRequest,
    ) -> LocalFuture<Result<SystemOneReply, ApiError>> {
        let (base, request) = (base.to_owned(), request.clone());
        Box::pin(async move { api::post_systemone(&base, &request).await })
    }

    fn info(&self, base: &str) -> LocalFuture<Result<(String, String), ApiError>> {
        let base = base.to_owned();
        Box::pin(async move { api::jev_info(&base).await })
    }
}

/// The transport in context (HTTP unless a test provided another).
#[derive(Clone)]
pub struct Jev(pub Arc<dyn JevTransport>);

impl Jev {
    /// The provided transport, or [`HttpJev`].
    pub fn use_context() -> Jev {
        use_context::<Jev>().unwrap_or_else(|| Jev(Arc::new(HttpJev)))
    }
}

/// The proxy base from the URL's `jev=` (default: this page's origin, `./`).
pub fn proxy_base() -> String {
    crate::state::UrlState::use_context()
        .with_untracked(|s| s.jev.clone())
        .unwrap_or_else(|| "./".to_owned())
}

/// True when the proxy refused the call for want of a valid access token (401).
pub fn unauthorized(error: &ApiError) -> bool {
    matches!(
        error,
        ApiError::Jev { status: 401, .. } | ApiError::Status { status: 401, .. }
    )
}

/// Plain words for a failed call; when no proxy seems to be there (no answer, not found,
/// not allowed, not JSON) it says how to start one.
pub fn explain(error: &ApiError, base: &str) -> String {
    let no_proxy = match error {
        ApiError::Network { .. } | ApiError::Body { .. } => true,
        ApiError::Status { status, .. } | ApiError::Jev { status, .. } => {
            matches!(status, 404 | 405 | 501)
        }
    };
    match error {
        _ if no_proxy => format!(
            "No Jev proxy answered at {base} ({error}). Start one with `runlens serve` (or \
             `make run`) and open the dashboard from it, or point the page at a running proxy \
             with ?jev=URL (that proxy must list this page's origin with --allow-origin)."
        ),
        other => other.to_string(),
    }
}
