//! The access log: one INFO line per request with its id, never the query string or a token.
//! Its own test binary: `tracing`'s per-callsite interest cache makes a thread-local log
//! capture miss events when other tests run the same callsites at the same time.

mod common;

use axum::http::StatusCode;
use common::*;
use runlens_proxy::Config;
use runlens_proxy::access::AccessTokens;

const ALICE: &str = "alice-0123456789abcdef";

fn with_token(path: &str, token: &str) -> axum::http::Request<axum::body::Body> {
    let mut request = post_json(path, &three_questions());
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

#[tokio::test]
async fn every_request_gets_one_access_log_line_with_its_id_and_no_query_or_token_ever() {
    let (logs, _guard) = capture_logs();
    let app = local_app(Config {
        access_tokens: Some(AccessTokens::parse(&format!("alice {ALICE}"), "test").unwrap()),
        ..Config::default()
    });
    let (status, headers, _) = send(&app, with_token("/v1/systemone?trace=abc", ALICE)).await;
    assert_eq!(status, StatusCode::OK);
    let id = headers["x-request-id"].to_str().unwrap().to_owned();
    assert!(id.starts_with("rl-"), "{id}");
    // A client's own id is kept and echoed.
    let mut mine = get("/healthz");
    mine.headers_mut()
        .insert("x-request-id", "client-7".parse().unwrap());
    let (_, headers, _) = send(&app, mine).await;
    assert_eq!(headers["x-request-id"], "client-7");
    let text = logs.text();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("runlens::access"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    let decision = lines[0];
    assert!(decision.contains(" INFO "), "{decision}");
    for field in [
        "method=POST".to_owned(),
        "path=\"/v1/systemone\"".to_owned(),
        "status=200".to_owned(),
        format!("request_id=\"{id}\""),
        "latency_ms=".to_owned(),
    ] {
        assert!(decision.contains(&field), "no {field} in {decision}");
    }
    assert!(lines[1].contains("path=\"/healthz\"") && lines[1].contains("request_id=\"client-7\""));
    assert!(
        !text.contains("trace=abc") && !text.contains(ALICE),
        "{text}"
    );
}
