//! The Jev-compatible API: `POST /v1/systemone`, `GET /v1/models`, `GET /healthz`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use indexmap::IndexMap;
use runlens_core::jev::{SystemOneRequest, validate_request};
use serde_json::{Value, json};

use crate::access::TokenName;
use crate::cache::cache_key;
use crate::error::ProxyError;
use crate::local::answer_locally;
use crate::state::{AppState, Backend};
use crate::upstream::UpstreamReply;

/// `POST /v1/systemone`: limit, read, validate, answer from the cache or the backend.
pub(crate) async fn systemone(State(state): State<Arc<AppState>>, request: Request) -> Response {
    let started = Instant::now();
    let client = client_ip(&request, &state.trusted_proxies);
    if let Err(retry_after) = state.limiter.check(client) {
        state.counters.rate_limited.fetch_add(1, Ordering::Relaxed);
        return ProxyError::RateLimited { retry_after }.into_response();
    }
    match decide(&state, request).await {
        Ok(response) => {
            tracing::info!(
                backend = state.backend.name(),
                status = response.status().as_u16(),
                elapsed_ms = started.elapsed().as_secs_f64() * 1e3,
                "decision"
            );
            response
        }
        Err(err) => {
            state.counters.refused.fetch_add(1, Ordering::Relaxed);
            err.into_response()
        }
    }
}

async fn decide(state: &AppState, request: Request) -> Result<Response, ProxyError> {
    let (parts, body) = request.into_parts();
    let json = crate::body::read_json(&parts.headers, body, state.limits.max_body_bytes).await?;
    let request = validate_request(&json).map_err(ProxyError::Invalid)?;
    let model = match &state.backend {
        Backend::Local(local) => local.model_id().to_owned(),
        Backend::TypeSafe(upstream) => upstream.config().pick_model(request.model.as_deref()),
    };
    let key = cache_key(&model, &request.state, &request.questions);
    if let Some(body) = state.cache.get(&key) {
        return Ok(json_response(
            StatusCode::OK,
            body,
            state.backend.name(),
            "hit",
            &[],
        ));
    }
    if let Some(budget) = &state.budget {
        let token = parts.extensions.get::<TokenName>().map(|t| t.0.as_str());
        budget.spend(token, std::time::SystemTime::now())?;
    }
    let permit = tokio::time::timeout(
        state.limits.queue_timeout,
        state.in_flight.clone().acquire_owned(),
    )
    .await
    .map_err(|_| ProxyError::Overloaded)?
    .map_err(|_| ProxyError::Overloaded)?;
    state.counters.decisions.fetch_add(1, Ordering::Relaxed);
    let response = match &state.backend {
        Backend::Local(local) => {
            let questions = request
                .questions
                .iter()
                .map(|(id, q)| serde_json::to_value(q).map(|v| (id.clone(), v)))
                .collect::<Result<IndexMap<_, _>, _>>()
                .map_err(|err| ProxyError::Internal(format!("re-encoding questions: {err}")))?;
            let body = answer_locally(local.clone(), request.state, questions).await?;
            state.cache.insert(key, body.clone());
            json_response(StatusCode::OK, body, "local", "miss", &[])
        }
        Backend::TypeSafe(upstream) => {
            let forwarded = SystemOneRequest {
                model: Some(model),
                ..request
            };
            let bytes = serde_json::to_vec(&forwarded).map_err(|err| {
                ProxyError::Internal(format!("encoding the upstream request: {err}"))
            })?;
            let reply = upstream.post_systemone(Bytes::from(bytes)).await?;
            if reply.status == StatusCode::OK {
                state.cache.insert(key, reply.body.clone());
            }
            reply_response(reply)
        }
    };
    drop(permit);
    Ok(response)
}

/// `GET /v1/models`: the local model, or TypeSafe's list passed through.
pub(crate) async fn models(State(state): State<Arc<AppState>>) -> Response {
    match &state.backend {
        Backend::Local(local) => {
            let body = json!({"models": [{
                "name": local.model_id(),
                "description": format!("Offline fallback model run by runlens ({}).", crate::local::LOCAL_NOTICE),
                "release_date": "2026-11-01",
            }]});
            json_response(
                StatusCode::OK,
                Bytes::from(body.to_string()),
                "local",
                "none",
                &[],
            )
        }
        Backend::TypeSafe(upstream) => match upstream.get_models().await {
            Ok(reply) => reply_response(reply),
            Err(err) => err.into_response(),
        },
    }
}

/// `GET /healthz`: backend, model, uptime, cache and request counters.
pub(crate) async fn healthz(State(state): State<Arc<AppState>>) -> Response {
    let upstream = match &state.backend {
        Backend::TypeSafe(upstream) => Value::from(upstream.config().base_url.clone()),
        Backend::Local(_) => Value::Null,
    };
    let limits = state.limits;
    let body = json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "backend": state.backend.name(),
        "model": state.backend.model(),
        "upstream": upstream,
        "uptime_s": state.started.elapsed().as_secs_f64(),
        "cache": state.cache.stats(),
        "requests": {
            "decisions": state.counters.decisions.load(Ordering::Relaxed),
            "refused": state.counters.refused.load(Ordering::Relaxed),
            "rate_limited": state.counters.rate_limited.load(Ordering::Relaxed),
            "in_flight": limits.max_in_flight.max(1) - state.in_flight.available_permits(),
            "clients_tracked": state.limiter.tracked_clients(),
        },
        "access": if state.tokens_required { "tokens" } else { "open" },
        "budget": state.budget.as_ref().map(|b| b.limits()),
        "limits": {
            "max_body_bytes": limits.max_body_bytes,
            "rate_per_minute": limits.rate_per_minute,
            "burst": limits.burst,
            "max_in_flight": limits.max_in_flight,
        },
    });
    let mut response = json_response(
        StatusCode::OK,
        Bytes::from(body.to_string()),
        state.backend.name(),
        "none",
        &[],
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The client a request counts against for the rate limit: the peer, or, when the peer is a
/// trusted reverse proxy, the nearest address in `X-Forwarded-For` that is not one (each
/// trusted proxy appends the address it received the request from).
fn client_ip(request: &Request, trusted: &[IpAddr]) -> IpAddr {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = request
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|hop| hop.trim().parse().ok())
        .collect();
    forwarded
        .into_iter()
        .rev()
        .find(|hop| !trusted.contains(hop))
        .unwrap_or(peer)
}

fn reply_response(reply: UpstreamReply) -> Response {
    json_response(reply.status, reply.body, "typesafe", "miss", &reply.headers)
}

fn json_response(
    status: StatusCode,
    body: Bytes,
    backend: &'static str,
    cache: &'static str,
    extra: &[(header::HeaderName, HeaderValue)],
) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert("x-runlens-backend", HeaderValue::from_static(backend));
    if cache != "none" {
        headers.insert("x-runlens-cache", HeaderValue::from_static(cache));
    }
    for (name, value) in extra {
        headers.insert(name.clone(), value.clone());
    }
    response
}
