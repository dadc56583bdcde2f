//! `runlens_proxy::app` with the local backend, driven by `oneshot`: answers, cache,
//! validation and size errors, rate limiting, CORS, and the dashboard/bundle files.

mod common;

use std::io::Write;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use runlens_proxy::{Backend, Config, LOCAL_NOTICE, Limits, LocalModel};
use serde_json::json;

#[tokio::test]
async fn local_backend_answers_every_question_and_marks_itself() {
    let app = local_app(Config::default());
    let (status, headers, body) = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["x-runlens-backend"], "local");
    assert_eq!(headers["x-runlens-cache"], "miss");
    assert_eq!(body["model"], "fixed-test-model");
    assert_eq!(body["x_runlens_notice"], LOCAL_NOTICE);
    assert!(
        body.get("runlens_notice").is_none(),
        "extensions carry the x_ prefix"
    );
    assert_eq!(
        body["usage"],
        json!({"input_tokens": 0, "output_tokens": 0})
    );
    let ids: Vec<&str> = body["answers"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(
        body["answers"]["billing"],
        json!({"type": "noul", "noul": 0.75})
    );
    assert_eq!(body["answers"]["team"]["choice"], "billing");
    // The reference confidence replaces the model's own: choice (0.8 − 1/2) / (1 − 1/2);
    // score with mode 0, spread 0.2·1 + 0.1·2 = 0.4 over U(3) = 2/3.
    assert_eq!(body["answers"]["team"]["confidence"], json!(0.6));
    assert_eq!(body["answers"]["urgency"]["confidence"], json!(0.4));
}

#[tokio::test]
async fn the_real_embedded_model_answers_in_jev_shapes() {
    let decider = runlens_sparrow::Decider::load_embedded().unwrap();
    let app = runlens_proxy::app(Config::default(), Backend::Local(Arc::new(decider))).unwrap();
    let (status, _, body) = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["model"], "sparrow-nano-general-v1.1");
    let noul = body["answers"]["billing"]["noul"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&noul), "P(yes) out of range: {noul}");
    let team = &body["answers"]["team"];
    let total: f64 = team["probabilities"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!(
        (total - 1.0).abs() < 1e-3,
        "choice probabilities sum to {total}"
    );
    assert_eq!(
        body["answers"]["urgency"]["legend"],
        json!({"0": "Can wait", "1": "This week", "2": "Today"})
    );
}

#[tokio::test]
async fn asking_again_is_served_from_the_cache_and_counted_in_healthz() {
    let app = local_app(Config::default());
    let first = send(&app, post_json("/v1/systemone", &three_questions())).await;
    let second = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(second.1["x-runlens-cache"], "hit");
    assert_eq!(first.2, second.2);
    let (status, _, health) = send(&app, get("/healthz")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(health["backend"], "local");
    assert_eq!(health["model"], "fixed-test-model");
    assert_eq!(
        health["cache"],
        json!({"entries": 1, "capacity": 4096, "hits": 1, "misses": 1})
    );
    assert_eq!(health["requests"]["decisions"], 1);
}

#[tokio::test]
async fn models_lists_the_local_model() {
    let (status, _, body) = send(&local_app(Config::default()), get("/v1/models")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["models"][0]["name"], "fixed-test-model");
}

#[tokio::test]
async fn schema_errors_are_fastapi_422_lists_naming_the_question() {
    let body = json!({"state": 5, "questions": {"q1": {"type": "choice", "criteria": "billing"}}});
    let (status, _, reply) = send(
        &local_app(Config::default()),
        post_json("/v1/systemone", &body),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let locs: Vec<String> = reply["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["loc"].to_string())
        .collect();
    assert_eq!(
        locs,
        [
            r#"["body","state","str"]"#,
            r#"["body","state","dict[str,any]"]"#,
            r#"["body","state","list[any]"]"#,
            r#"["body","questions","q1","choice","criteria"]"#,
        ]
    );
}

#[tokio::test]
async fn too_many_choices_is_a_plain_string_400() {
    let criteria: serde_json::Map<String, serde_json::Value> =
        (0..256).map(|i| (format!("o{i}"), json!(null))).collect();
    let body = json!({"state": "s", "questions": {"q": {"type": "choice", "criteria": criteria}}});
    let (status, _, reply) = send(
        &local_app(Config::default()),
        post_json("/v1/systemone", &body),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        reply,
        json!({"detail": "Too many choices. Must have at most 255 choices."})
    );
}

#[tokio::test]
async fn a_choice_without_options_is_a_422_too_short_item() {
    let body = json!({"state": "s", "questions": {"team": {"type": "choice", "criteria": {}}}});
    let (status, _, reply) = send(
        &local_app(Config::default()),
        post_json("/v1/systemone", &body),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        reply,
        json!({"detail": [{
            "type": "too_short",
            "loc": ["body", "questions", "team", "choice", "criteria"],
            "msg": "Dictionary should have at least 1 item after validation, not 0",
            "input": {},
            "ctx": {"field_type": "Dictionary", "min_length": 1, "actual_length": 0}
        }]})
    );
}

#[tokio::test]
async fn malformed_json_is_a_json_invalid_422() {
    let request = Request::post("/v1/systemone")
        .body(Body::from("{\"state\": "))
        .unwrap();
    let (status, _, reply) = send(&local_app(Config::default()), request).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reply["detail"][0]["type"], "json_invalid");
    assert_eq!(reply["detail"][0]["loc"], json!(["body", 1, 10]));
}

#[tokio::test]
async fn bodies_over_one_mebibyte_get_413_declared_or_streamed() {
    let app = local_app(Config::default());
    let big = json!({"state": "x".repeat(1 << 20), "questions": {"q": {"type": "noul", "instructions": "?"}}});
    let (status, _, reply) = send(&app, post_json("/v1/systemone", &big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        reply,
        json!({"detail": "request body exceeds 1048576 bytes"})
    );
    // Without Content-Length (a stream), the cap applies while reading.
    let chunks = vec![
        Ok::<_, std::io::Error>(vec![b' '; 700_000]),
        Ok(vec![b' '; 700_000]),
    ];
    let stream = Body::from_stream(futures_util::stream::iter(chunks));
    let (status, _, _) = send(&app, Request::post("/v1/systemone").body(stream).unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn gzip_request_bodies_are_accepted() {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder
        .write_all(three_questions().to_string().as_bytes())
        .unwrap();
    let request = Request::post("/v1/systemone")
        .header("content-type", "application/json")
        .header("content-encoding", "gzip")
        .body(Body::from(encoder.finish().unwrap()))
        .unwrap();
    let (status, _, body) = send(&local_app(Config::default()), request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["answers"]["billing"]["noul"], 0.75);
}

#[tokio::test]
async fn a_client_over_its_burst_gets_429_with_retry_after() {
    let limits = Limits {
        rate_per_minute: 60,
        burst: 2,
        ..Limits::default()
    };
    let app = local_app(Config {
        limits,
        ..Config::default()
    });
    for _ in 0..2 {
        assert_eq!(
            send(&app, post_json("/v1/systemone", &three_questions()))
                .await
                .0,
            StatusCode::OK
        );
    }
    let (status, headers, body) = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(headers["retry-after"], "1"); // 60/min refills one token per second
    assert_eq!(body["detail"]["error_type"], "rate_limit_error");
}

#[tokio::test]
async fn cors_answers_only_listed_origins() {
    let config = Config {
        allow_origins: vec!["http://localhost:5173".into()],
        ..Config::default()
    };
    let app = local_app(config);
    let from = |origin: &str| {
        Request::get("/healthz")
            .header("origin", origin)
            .body(Body::empty())
            .unwrap()
    };
    let (_, allowed, _) = send(&app, from("http://localhost:5173")).await;
    assert_eq!(
        allowed["access-control-allow-origin"],
        "http://localhost:5173"
    );
    let (_, other, _) = send(&app, from("https://evil.example")).await;
    assert!(other.get("access-control-allow-origin").is_none());
    let (_, none, _) = send(&local_app(Config::default()), from("http://localhost:5173")).await;
    assert!(none.get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn dashboard_files_get_mime_types_cache_headers_and_spa_fallback() {
    let dist = temp_dist("files");
    let app = local_app(Config {
        dist: dist.clone(),
        ..Config::default()
    });
    let (status, headers, _) = send(&app, get("/runlens-web-0123456789abcdef_bg.wasm")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/wasm");
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let (status, headers, body) = send(&app, get("/runs/compare")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(body, "<!doctype html><title>runlens</title>");
    assert_eq!(
        send(&app, get("/missing.js")).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send(&app, get("/v1/unknown")).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send(&app, get("/../Cargo.toml")).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn bundles_overlay_dist_and_revalidate_with_etags() {
    let dist = temp_dist("bundles");
    let overlay = dist.join("overlay");
    std::fs::create_dir_all(&overlay).unwrap();
    std::fs::write(overlay.join("extra.json"), r#"{"from":"overlay"}"#).unwrap();
    let app = local_app(Config {
        dist: dist.clone(),
        bundles: Some(overlay),
        ..Config::default()
    });
    assert_eq!(
        send(&app, get("/bundles/extra.json")).await.2,
        json!({"from": "overlay"})
    );
    let (status, headers, body) = send(&app, get("/bundles/sample.json")).await;
    assert_eq!((status, body), (StatusCode::OK, json!({"from": "dist"})));
    assert_eq!(headers["cache-control"], "no-cache");
    let etag = headers["etag"].clone();
    let again = Request::get("/bundles/sample.json")
        .header("if-none-match", etag)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, again).await.0, StatusCode::NOT_MODIFIED);
    assert_eq!(
        send(&app, get("/bundles/none.json")).await.0,
        StatusCode::NOT_FOUND
    );
}

fn ranged(path: &str, range: &str) -> Request<Body> {
    Request::get(path)
        .header("range", range)
        .header("accept-encoding", "gzip")
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn bundle_files_answer_range_requests_byte_exactly_and_never_sniff() {
    let dist = temp_dist("range");
    // A v2 directory bundle's entry, with a space in its folder's name, and a zip.
    let entry: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    std::fs::create_dir_all(dist.join("bundles/my run")).unwrap();
    std::fs::write(dist.join("bundles/my run/cells.arrows"), &entry).unwrap();
    std::fs::write(dist.join("bundles/run.zip"), &entry).unwrap();
    let app = local_app(Config {
        dist,
        ..Config::default()
    });
    let path = "/bundles/my%20run/cells.arrows";
    let (status, headers, bytes) = send_raw(&app, ranged(path, "bytes=100-199")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(headers["content-range"], "bytes 100-199/10000");
    assert_eq!(bytes, entry[100..200]);
    assert!(headers.get("content-encoding").is_none()); // a byte range is never gzipped
    assert_eq!(headers["x-content-type-options"], "nosniff");
    // The same ETag as the whole file's (the file's, not the range's).
    let (status, whole, bytes) = send_raw(&app, get(path)).await;
    assert_eq!((status, bytes.len()), (StatusCode::OK, 10_000));
    assert_eq!(whole["etag"], headers["etag"]);
    assert_eq!(whole["accept-ranges"], "bytes");
    // The last 22 bytes (a zip's end-of-central-directory read) from the zip.
    let (status, headers, bytes) = send_raw(&app, ranged("/bundles/run.zip", "bytes=-22")).await;
    assert_eq!(status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(headers["content-type"], "application/zip");
    assert_eq!(headers["content-range"], "bytes 9978-9999/10000");
    assert_eq!(bytes, entry[9978..]);
    // Past the end: 416 with the size.
    let (status, headers, _) = send_raw(&app, ranged(path, "bytes=20000-20010")).await;
    assert_eq!(status, StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(headers["content-range"], "bytes */10000");
    // The API's answers say nosniff too.
    assert_eq!(
        send(&app, get("/healthz")).await.1["x-content-type-options"],
        "nosniff"
    );
}

/// A model that takes `0.6 s` per request, to hold the single in-flight slot.
struct SlowModel;

impl LocalModel for SlowModel {
    fn model_id(&self) -> &str {
        "slow-test-model"
    }

    fn answer(
        &self,
        state: &serde_json::Value,
        questions: &indexmap::IndexMap<String, serde_json::Value>,
    ) -> Result<indexmap::IndexMap<String, serde_json::Value>, String> {
        std::thread::sleep(std::time::Duration::from_millis(600));
        FixedModel.answer(state, questions)
    }
}

#[tokio::test]
async fn a_second_request_past_the_in_flight_cap_gets_503_after_the_queue_timeout() {
    use std::time::{Duration, Instant};
    let limits = Limits {
        max_in_flight: 1,
        queue_timeout: Duration::from_millis(150),
        ..Limits::default()
    };
    let config = Config {
        limits,
        ..Config::default()
    };
    let app = runlens_proxy::app(config, Backend::Local(Arc::new(SlowModel))).unwrap();
    let first = tokio::spawn({
        let app = app.clone();
        async move { send(&app, post_json("/v1/systemone", &three_questions())).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await; // the first holds the slot
    let (_, _, health) = send(&app, get("/healthz")).await;
    assert_eq!(health["requests"]["in_flight"], 1);
    assert_eq!(health["limits"]["max_in_flight"], 1);
    // A different question (no cache hit possible) waits 150 ms in the queue, then 503.
    let mut other = three_questions();
    other["state"] = json!("another state");
    let started = Instant::now();
    let (status, headers, body) = send(&app, post_json("/v1/systemone", &other)).await;
    let waited = started.elapsed();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        body,
        json!({"detail": {"error_type": "overloaded_error", "message": "The server is busy; try again shortly."}})
    );
    assert!(waited >= Duration::from_millis(150), "queued {waited:?}");
    // The first one still completes.
    let (status, _, body) = first.await.unwrap();
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["model"], "slow-test-model");
    let (_, _, health) = send(&app, get("/healthz")).await;
    assert_eq!(health["requests"]["in_flight"], 0);
    assert_eq!(health["requests"]["decisions"], 1);
    assert_eq!(health["requests"]["refused"], 1);
}

/// Status, headers and raw body bytes of one request.
async fn send_raw(
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    use tower::ServiceExt;
    let response = app.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, headers, bytes.to_vec())
}

fn get_gzip(path: &str) -> Request<Body> {
    Request::get(path)
        .header("accept-encoding", "gzip")
        .body(Body::empty())
        .unwrap()
}

#[tokio::test]
async fn dashboard_files_are_gzipped_on_request_but_gz_bundles_are_not() {
    use std::io::Read;
    let dist = temp_dist("gzip");
    let script = "export const answer = 42;\n".repeat(400); // 10,400 bytes
    std::fs::write(dist.join("app.js"), &script).unwrap();
    let bundle = {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&br#"{"bundle": 1}"#.repeat(200)).unwrap();
        encoder.finish().unwrap()
    };
    std::fs::write(dist.join("bundles/run.json.gz"), &bundle).unwrap();
    let app = local_app(Config {
        dist,
        ..Config::default()
    });
    let (status, headers, bytes) = send_raw(&app, get_gzip("/app.js")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-encoding"], "gzip");
    assert_eq!(headers["content-type"], "text/javascript; charset=utf-8");
    assert!(bytes.len() < script.len() / 10, "{} bytes", bytes.len());
    let mut unzipped = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, script);
    // Without Accept-Encoding the file goes as is.
    let (_, plain_headers, plain) = send_raw(&app, get("/app.js")).await;
    assert!(plain_headers.get("content-encoding").is_none());
    assert_eq!(plain, script.as_bytes());
    // An already gzipped bundle is sent byte for byte, never gzipped twice.
    let (status, headers, bytes) = send_raw(&app, get_gzip("/bundles/run.json.gz")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/gzip");
    assert!(headers.get("content-encoding").is_none());
    assert_eq!(bytes, bundle);
}

#[tokio::test]
async fn healthz_reports_a_numeric_uptime_and_the_limits() {
    let app = local_app(Config::default());
    let (status, headers, first) = send(&app, get("/healthz")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["cache-control"], "no-store");
    let uptime = first["uptime_s"].as_f64().expect("uptime_s is a number");
    assert!((0.0..5.0).contains(&uptime), "uptime_s {uptime}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, _, second) = send(&app, get("/healthz")).await;
    let later = second["uptime_s"].as_f64().unwrap();
    assert!(later >= uptime + 0.02, "{uptime} then {later}");
    assert_eq!(first["status"], "ok");
    assert_eq!(
        first["limits"],
        json!({"max_body_bytes": 1048576, "rate_per_minute": 600, "burst": 60, "max_in_flight": 8})
    );
    assert_eq!(first["upstream"], json!(null));
}
