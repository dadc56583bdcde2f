//! The backend choice and the shared state of all handlers.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use tokio::sync::Semaphore;

use crate::budget::SpendGuard;
use crate::cache::ResponseCache;
use crate::config::{Config, Limits};
use crate::limits::RateLimiter;
use crate::local::LocalModel;
use crate::upstream::Upstream;

/// Who answers `POST /v1/systemone`.
#[derive(Clone)]
pub enum Backend {
    /// The embedded offline model (no key needed, low accuracy).
    Local(Arc<dyn LocalModel>),
    /// TypeSafe's Jev, with the server-side key.
    TypeSafe(Upstream),
}

impl Backend {
    /// `"local"` or `"typesafe"` (the `x-runlens-backend` header value).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Local(_) => "local",
            Backend::TypeSafe(_) => "typesafe",
        }
    }

    /// The model answering by default (`sparrow-nano-general-v1.1`, or the pinned Jev id).
    pub fn model(&self) -> String {
        match self {
            Backend::Local(model) => model.model_id().to_owned(),
            Backend::TypeSafe(upstream) => upstream.config().default_model.clone(),
        }
    }
}

/// Request counters shown by `/healthz`.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) decisions: AtomicU64,
    pub(crate) refused: AtomicU64,
    pub(crate) rate_limited: AtomicU64,
}

/// Everything the API handlers share.
pub(crate) struct AppState {
    pub(crate) backend: Backend,
    pub(crate) cache: ResponseCache,
    pub(crate) limiter: RateLimiter,
    pub(crate) budget: Option<SpendGuard>,
    pub(crate) trusted_proxies: Vec<std::net::IpAddr>,
    pub(crate) tokens_required: bool,
    pub(crate) in_flight: Arc<Semaphore>,
    pub(crate) limits: Limits,
    pub(crate) started: Instant,
    pub(crate) counters: Counters,
}

impl AppState {
    /// The shared state; `Err` when the budget file cannot be read.
    pub(crate) fn new(config: &Config, backend: Backend) -> Result<Self, String> {
        let limits = config.limits;
        let budget = config.budget.clone().map(SpendGuard::open).transpose()?;
        Ok(AppState {
            backend,
            cache: ResponseCache::new(config.cache_entries),
            limiter: RateLimiter::new(limits.rate_per_minute, limits.burst),
            budget,
            trusted_proxies: config.trusted_proxies.clone(),
            tokens_required: config.access_tokens.is_some(),
            in_flight: Arc::new(Semaphore::new(limits.max_in_flight.max(1))),
            limits,
            started: Instant::now(),
            counters: Counters::default(),
        })
    }
}
