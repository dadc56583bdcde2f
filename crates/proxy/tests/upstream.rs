//! The `typesafe` backend against a fake upstream on 127.0.0.1:0: pass-through of
//! statuses, bodies and request ids; one retry on 429/529/5xx/connection errors honouring
//! `retry-after-ms`; the timeout; and the key never leaving the server-to-upstream hop.

mod common;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use common::*;
use runlens_proxy::config::ApiKey;
use runlens_proxy::{Backend, Config, Upstream, UpstreamConfig};
use serde_json::{Value, json};

const KEY: &str = "sk-test-SECRET-0123456789";

/// One scripted upstream reaction.
#[derive(Clone)]
enum Step {
    Reply(u16, Value, Vec<(&'static str, &'static str)>),
    Hang(Duration),
}

/// What the fake upstream saw, per request.
#[derive(Debug, Clone)]
struct Seen {
    authorization: Option<String>,
    retry_count: Option<String>,
    body: Value,
}

#[derive(Clone, Default)]
struct Fake {
    script: Arc<Mutex<VecDeque<Step>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

async fn fake_systemone(State(fake): State<Fake>, headers: HeaderMap, body: String) -> Response {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    fake.seen.lock().unwrap().push(Seen {
        authorization: header("authorization"),
        retry_count: header("x-typesafe-retry-count"),
        body: serde_json::from_str(&body).unwrap_or(Value::Null),
    });
    let step = fake
        .script
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Step::Reply(500, json!({"detail": "script empty"}), vec![]));
    match step {
        Step::Reply(status, body, headers) => {
            let mut response =
                (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response();
            for (name, value) in headers {
                response.headers_mut().insert(name, value.parse().unwrap());
            }
            response
        }
        Step::Hang(duration) => {
            tokio::time::sleep(duration).await;
            StatusCode::OK.into_response()
        }
    }
}

async fn start_fake(steps: Vec<Step>) -> (String, Fake) {
    let fake = Fake {
        script: Arc::new(Mutex::new(steps.into())),
        ..Fake::default()
    };
    let router = Router::new()
        .route("/v1/systemone", post(fake_systemone))
        .route("/v1/models", get(|| async { axum::Json(json!({"models": [{"name": "jev-latest", "description": "General-purpose system one model.", "release_date": "2026-09-15"}]})) }))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{addr}"), fake)
}

fn upstream_config(base_url: String) -> UpstreamConfig {
    let env = move |name: &str| match name {
        "TYPESAFE_API_KEY" => Some(KEY.to_owned()),
        "TYPESAFE_BASE_URL" => Some(base_url.clone()),
        _ => None,
    };
    let mut config = UpstreamConfig::from_env(env).unwrap().unwrap();
    config.timeout = Duration::from_millis(400);
    config.default_retry_wait = Duration::from_millis(10);
    config.max_retry_wait = Duration::from_millis(300);
    config
}

fn typesafe_app(base_url: String) -> Router {
    let backend = Backend::TypeSafe(Upstream::new(upstream_config(base_url)).unwrap());
    runlens_proxy::app(Config::default(), backend).unwrap()
}

fn ok_body() -> Value {
    json!({"model": "jev-1.13.0", "answers": {"billing": {"type": "noul", "noul": 0.98}}, "usage": {"input_tokens": 42, "output_tokens": 1}})
}

fn assert_no_key(headers: &HeaderMap, body: &Value, logs: &str) {
    assert!(
        logs.contains("runlens_proxy::upstream"),
        "the log capture saw no upstream event"
    );
    for (name, value) in headers {
        assert!(
            !value.to_str().unwrap_or("").contains(KEY),
            "key leaked in response header {name}"
        );
    }
    assert!(
        !body.to_string().contains(KEY),
        "key leaked in a response body"
    );
    assert!(!logs.contains(KEY), "key leaked in the logs");
    assert!(
        !logs.contains("I was charged twice"),
        "request body leaked in the logs"
    );
}

#[tokio::test]
async fn success_forwards_with_the_key_and_pinned_model_and_caches() {
    let (capture, _guard) = capture_logs();
    let steps = vec![Step::Reply(
        200,
        ok_body(),
        vec![("x-typesafe-request-id", "req_123")],
    )];
    let (url, fake) = start_fake(steps).await;
    let app = typesafe_app(url);
    let mut request = three_questions();
    request["model"] = json!("jev-9-not-allowed");
    request["extra_field"] = json!("dropped");
    let (status, headers, body) = send(&app, post_json("/v1/systemone", &request)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, ok_body());
    assert_eq!(headers["x-typesafe-request-id"], "req_123");
    assert_eq!(headers["x-runlens-backend"], "typesafe");
    let seen = fake.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        seen[0].authorization.as_deref(),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(seen[0].body["model"], "jev-1.13.0"); // not on the allow-list → the default
    assert!(seen[0].body.get("extra_field").is_none()); // fields are whitelisted
    let (status, headers, again) = send(&app, post_json("/v1/systemone", &request)).await;
    assert_eq!((status, again), (StatusCode::OK, ok_body()));
    assert_eq!(headers["x-runlens-cache"], "hit");
    assert_eq!(
        fake.seen.lock().unwrap().len(),
        1,
        "the cache answered the second time"
    );
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn client_errors_pass_through_unchanged_without_retry() {
    let (capture, _guard) = capture_logs();
    let unauthorized = json!({"detail": {"error_type": "authentication_error", "message": "Cannot authenticate with the server. Please check your API key and try again."}});
    let forbidden = json!({"detail": {"error_type": "authentication_error", "message": "Must supply an API key! Check your request and try again."}});
    let unprocessable = json!({"detail": [{"type": "missing", "loc": ["body", "state"], "msg": "Field required", "input": {}}]});
    for (status, body) in [(401, unauthorized), (403, forbidden), (422, unprocessable)] {
        let steps = vec![Step::Reply(
            status,
            body.clone(),
            vec![("x-typesafe-request-id", "req_4xx")],
        )];
        let (url, fake) = start_fake(steps).await;
        let (got_status, headers, got_body) = send(
            &typesafe_app(url),
            post_json("/v1/systemone", &three_questions()),
        )
        .await;
        assert_eq!(got_status.as_u16(), status);
        assert_eq!(got_body, body);
        assert_eq!(headers["x-typesafe-request-id"], "req_4xx");
        assert_eq!(fake.seen.lock().unwrap().len(), 1, "no retry on {status}");
        assert_no_key(&headers, &got_body, &capture.text());
    }
}

#[tokio::test]
async fn rate_limited_upstream_is_retried_once_after_retry_after_ms() {
    let (capture, _guard) = capture_logs();
    let steps = vec![
        Step::Reply(
            429,
            json!({"detail": "slow down"}),
            vec![("retry-after-ms", "150")],
        ),
        Step::Reply(200, ok_body(), vec![]),
    ];
    let (url, fake) = start_fake(steps).await;
    let started = Instant::now();
    let (status, headers, body) = send(
        &typesafe_app(url),
        post_json("/v1/systemone", &three_questions()),
    )
    .await;
    assert_eq!((status, &body), (StatusCode::OK, &ok_body()));
    assert!(
        started.elapsed() >= Duration::from_millis(150),
        "retry-after-ms was not honoured"
    );
    let seen = fake.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[1].retry_count.as_deref(), Some("1"));
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn overloaded_twice_gives_up_after_one_retry_with_the_upstream_status() {
    let (capture, _guard) = capture_logs();
    let overloaded = json!({"detail": "Overloaded"});
    let steps = vec![
        Step::Reply(529, overloaded.clone(), vec![]),
        Step::Reply(529, overloaded.clone(), vec![]),
        Step::Reply(200, ok_body(), vec![]),
    ];
    let (url, fake) = start_fake(steps).await;
    let (status, headers, body) = send(
        &typesafe_app(url),
        post_json("/v1/systemone", &three_questions()),
    )
    .await;
    assert_eq!(status.as_u16(), 529);
    assert_eq!(body, overloaded);
    assert_eq!(fake.seen.lock().unwrap().len(), 2, "at most one retry");
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn a_server_error_then_success_is_retried_to_success() {
    let (capture, _guard) = capture_logs();
    let steps = vec![
        Step::Reply(500, json!({"detail": "boom"}), vec![]),
        Step::Reply(200, ok_body(), vec![]),
    ];
    let (url, fake) = start_fake(steps).await;
    let (status, headers, body) = send(
        &typesafe_app(url),
        post_json("/v1/systemone", &three_questions()),
    )
    .await;
    assert_eq!((status, &body), (StatusCode::OK, &ok_body()));
    assert_eq!(fake.seen.lock().unwrap().len(), 2);
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn an_upstream_hanging_past_the_timeout_gives_504_without_retry() {
    let (capture, _guard) = capture_logs();
    let (url, fake) = start_fake(vec![Step::Hang(Duration::from_secs(3))]).await;
    let started = Instant::now();
    let (status, headers, body) = send(
        &typesafe_app(url),
        post_json("/v1/systemone", &three_questions()),
    )
    .await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(
        body,
        json!({"detail": {"error_type": "upstream_timeout", "message": "TypeSafe did not answer within 400 ms."}})
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(fake.seen.lock().unwrap().len(), 1);
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn a_dropped_connection_is_retried_once_then_502() {
    let (capture, _guard) = capture_logs();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let accepted = Arc::new(Mutex::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            *counter.lock().unwrap() += 1;
            drop(socket); // close without answering
        }
    });
    let (status, headers, body) = send(
        &typesafe_app(format!("http://{addr}")),
        post_json("/v1/systemone", &three_questions()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(body["detail"]["error_type"], "upstream_unreachable");
    assert_eq!(*accepted.lock().unwrap(), 2, "one attempt plus one retry");
    assert_no_key(&headers, &body, &capture.text());
}

#[tokio::test]
async fn invalid_requests_are_refused_before_reaching_upstream() {
    let (url, fake) = start_fake(vec![]).await;
    let body = json!({"model": "jev-1.13.0", "questions": {"q": {"type": "score", "criteria": ["only one"]}}, "state": "s"});
    let app = typesafe_app(url);
    let (status, _, reply) = send(&app, post_json("/v1/systemone", &body)).await;
    // jev-api.md §9.2: a score needs 2 to 10 levels, a schema check (422).
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        reply,
        json!({"detail": [{
            "type": "too_short",
            "loc": ["body", "questions", "q", "score", "criteria"],
            "msg": "List should have at least 2 items after validation, not 1",
            "input": ["only one"],
            "ctx": {"field_type": "List", "min_length": 2, "actual_length": 1}
        }]})
    );
    // Too many levels is the API's 400 with a plain-string detail (§7).
    let levels: Vec<String> = (0..11).map(|i| format!("l{i}")).collect();
    let body = json!({"state": "s", "questions": {"q": {"type": "score", "criteria": levels}}});
    let (status, _, reply) = send(&app, post_json("/v1/systemone", &body)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply,
        json!({"detail": "Too many score levels. Must have at most 10 levels."})
    );
    assert!(fake.seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn models_are_passed_through_from_upstream() {
    let (url, _fake) = start_fake(vec![]).await;
    let (status, headers, body) = send(&typesafe_app(url), common::get("/v1/models")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["x-runlens-backend"], "typesafe");
    assert_eq!(body["models"][0]["name"], "jev-latest");
}

/// The per-attempt timeout defaults to the SDK's 10 s (jev-api.md §8), the retry wait is
/// capped at 5 s and is 0.5 s when the upstream names none.
#[test]
fn the_default_upstream_timeout_is_ten_seconds() {
    let env = |name: &str| (name == "TYPESAFE_API_KEY").then(|| KEY.to_owned());
    let config = UpstreamConfig::from_env(env).unwrap().unwrap();
    assert_eq!(config.timeout, Duration::from_secs(10));
    assert_eq!(config.max_retry_wait, Duration::from_secs(5));
    assert_eq!(config.default_retry_wait, Duration::from_millis(500));
}

#[test]
fn the_key_is_redacted_in_debug_output() {
    let key = ApiKey::parse(KEY).unwrap();
    assert_eq!(format!("{key:?}"), "ApiKey(<redacted>)");
    assert!(!format!("{:?}", upstream_config("http://127.0.0.1:9".into())).contains(KEY));
    assert!(ApiKey::parse("two words").is_none());
}
