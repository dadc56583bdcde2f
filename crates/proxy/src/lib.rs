//! runlens-proxy: serves the dashboard, bundle files and a Jev-compatible API.
//!
//! [`app`] builds the axum router:
//!
//! | Route | What |
//! |---|---|
//! | `POST /v1/systemone` | validate (jev-api.md §9), then answer from the cache, the local model or TypeSafe |
//! | `GET /v1/models` | the local model, or TypeSafe's list passed through |
//! | `GET /healthz` | backend, model, uptime, cache hits/misses, counters, access and budgets |
//! | `GET /bundles/*` | `--bundles DIR` overlaid on `dist/bundles/` |
//! | `GET /*` | files of `dist`, else `index.html` (SPA fallback) |
//!
//! The backend is [`Backend::Local`] (an embedded offline model, answers marked with
//! `x_runlens_notice` and `x-runlens-backend: local`) or [`Backend::TypeSafe`] (the key is
//! added server-side; 4xx bodies and `x-typesafe-request-id` pass through unchanged).
//! With [`Config::access_tokens`], `/v1/*` needs `Authorization: Bearer <token>`
//! ([`access`]); [`Config::budget`] caps the decisions sent to the backend per UTC day
//! ([`budget`]). See `docs/proxy.md`.

pub mod access;
pub mod access_log;
pub mod budget;
pub mod cache;
pub mod config;
pub mod error;
pub mod limits;
pub mod local;
pub mod upstream;

mod api;
mod body;
mod state;
mod static_files;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::{
    Extensions, HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Version, header,
};
use axum::routing::{get, post};
use tower_http::compression::predicate::{NotForContentType, Predicate};
use tower_http::compression::{CompressionLayer, CompressionLevel, DefaultPredicate};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use config::{Config, Limits, UpstreamConfig};
pub use error::ProxyError;
pub use local::{LOCAL_NOTICE, LocalModel};
pub use state::Backend;
pub use upstream::Upstream;

/// Builds the router serving the API, the bundles and the dashboard.
///
/// Every API route has a timeout (queue wait + upstream timeout + retry wait, plus slack)
/// answering 504. Invalid `allow_origins` entries are an error naming the entry.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use runlens_proxy::{app, Backend, Config};
/// let decider = runlens_sparrow::Decider::load_embedded()?;
/// let router = app(Config::default(), Backend::Local(Arc::new(decider)))?;
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// axum::serve(listener, router.into_make_service_with_connect_info::<std::net::SocketAddr>()).await?;
/// # Ok(()) }
/// ```
pub fn app(config: Config, backend: Backend) -> Result<Router, ProxyError> {
    let route_timeout = api_timeout(&config, &backend);
    let state = Arc::new(state::AppState::new(&config, backend).map_err(ProxyError::Internal)?);
    let mut v1 = Router::new()
        .route("/v1/systemone", post(api::systemone))
        .route("/v1/models", get(api::models));
    if let Some(tokens) = config.access_tokens.clone() {
        v1 = v1.route_layer(axum::middleware::from_fn_with_state(
            tokens,
            access::require_token,
        ));
    }
    let mut api = v1
        .route("/healthz", get(api::healthz))
        .with_state(state)
        .layer(TimeoutLayer::with_status_code(
            StatusCode::GATEWAY_TIMEOUT,
            route_timeout,
        ));
    if !config.allow_origins.is_empty() {
        api = api.layer(cors(&config.allow_origins)?);
    }
    let files = Arc::new(static_files::StaticFiles::new(
        config.dist.clone(),
        config.bundles.clone(),
    ));
    let site = Router::new()
        .fallback(get(static_files::serve_static))
        .with_state(files);
    // Compressed already (gzip bundles, zips of LZ4 columns), or a byte range of a file: sent
    // as they are.
    let compress = DefaultPredicate::new()
        .and(NotForContentType::const_new("application/gzip"))
        .and(NotForContentType::const_new("application/zip"))
        .and(
            |_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions| {
                !headers.contains_key(header::CONTENT_RANGE)
            },
        );
    Ok(api
        .merge(site)
        .layer(
            CompressionLayer::new()
                .quality(CompressionLevel::Fastest)
                .compress_when(compress),
        )
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(axum::middleware::from_fn(access_log::log_request))
        .layer(PropagateRequestIdLayer::new(HeaderName::from_static(
            access_log::REQUEST_ID,
        )))
        .layer(SetRequestIdLayer::new(
            HeaderName::from_static(access_log::REQUEST_ID),
            access_log::Counter::default(),
        ))
        .layer(TraceLayer::new_for_http().make_span_with(request_span)))
}

/// The DEBUG span around a request: method and path, never the query string (which could
/// carry a credential someone pasted into a URL).
fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    tracing::debug_span!("request", method = %request.method(), path = request.uri().path())
}

fn api_timeout(config: &Config, backend: &Backend) -> Duration {
    let upstream = match backend {
        Backend::TypeSafe(upstream) => {
            let c = upstream.config();
            c.timeout * 2 + c.max_retry_wait
        }
        Backend::Local(_) => Duration::from_secs(30),
    };
    config.limits.queue_timeout + upstream + Duration::from_secs(5)
}

fn cors(origins: &[String]) -> Result<CorsLayer, ProxyError> {
    let origins = origins
        .iter()
        .map(|origin| {
            HeaderValue::from_str(origin.trim_end_matches('/')).map_err(|_| {
                ProxyError::Internal(format!("--allow-origin {origin:?} is not a valid origin"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let exposed = [
        "x-runlens-backend",
        "x-runlens-cache",
        "x-typesafe-request-id",
        "retry-after",
        "retry-after-ms",
    ];
    Ok(CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::CONTENT_ENCODING,
            header::AUTHORIZATION,
        ])
        .expose_headers(exposed.map(HeaderName::from_static))
        .max_age(Duration::from_secs(600)))
}
