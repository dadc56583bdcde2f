//! Access tokens on `/v1/*`, the daily spend guard and the trusted-proxy client key, through
//! `runlens_proxy::app` with the fixed local model.

mod common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use common::*;
use runlens_proxy::access::AccessTokens;
use runlens_proxy::budget::BudgetConfig;
use runlens_proxy::{Config, Limits};
use serde_json::{Value, json};

const ALICE: &str = "alice-0123456789abcdef";
const BOB: &str = "bob-fedcba9876543210";

fn tokens() -> AccessTokens {
    AccessTokens::parse(&format!("alice {ALICE}\nbob {BOB}"), "test tokens").unwrap()
}

fn with_token(path: &str, token: &str) -> Request<Body> {
    let mut request = post_json(path, &three_questions());
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

fn authentication_error(message: &str) -> Value {
    json!({"detail": {"error_type": "authentication_error", "message": message}})
}

#[tokio::test]
async fn without_a_token_or_with_a_wrong_one_the_api_answers_401() {
    let app = local_app(Config {
        access_tokens: Some(tokens()),
        ..Config::default()
    });
    let (status, headers, body) = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(headers["www-authenticate"], "Bearer");
    assert_eq!(
        body,
        authentication_error(
            "This server needs an access token: send `Authorization: Bearer <token>`."
        )
    );
    let wrong = format!("{ALICE}x");
    let (status, _, body) = send(&app, with_token("/v1/systemone", &wrong)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body, authentication_error("The access token is not valid."));
    // Basic credentials are not a bearer token, even with the right secret.
    let mut basic = post_json("/v1/systemone", &three_questions());
    basic
        .headers_mut()
        .insert("authorization", format!("Basic {ALICE}").parse().unwrap());
    assert_eq!(send(&app, basic).await.0, StatusCode::UNAUTHORIZED);
    // /v1/models is behind the same door; /healthz and the dashboard are not.
    assert_eq!(
        send(&app, get("/v1/models")).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, _, health) = send(&app, get("/healthz")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(health["access"], "tokens");
}

#[tokio::test]
async fn the_right_bearer_token_is_let_in() {
    let app = local_app(Config {
        access_tokens: Some(tokens()),
        ..Config::default()
    });
    let (status, headers, body) = send(&app, with_token("/v1/systemone", BOB)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["x-runlens-backend"], "local");
    assert_eq!(body["answers"]["billing"]["noul"], 0.75);
    let mut models = get("/v1/models");
    models
        .headers_mut()
        .insert("authorization", format!("bearer {ALICE}").parse().unwrap());
    assert_eq!(send(&app, models).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused_even_when_it_is_right() {
    let app = local_app(Config {
        access_tokens: Some(tokens()),
        ..Config::default()
    });
    for query in [
        format!("token={ALICE}"),
        format!("access_token={ALICE}"),
        format!("x=1&API_KEY={ALICE}"),
    ] {
        let path = format!("/v1/systemone?{query}");
        let (status, _, body) = send(&app, with_token(&path, ALICE)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{query}");
        assert_eq!(
            body,
            authentication_error(
                "Access tokens are not accepted in the URL; send `Authorization: Bearer <token>`."
            )
        );
    }
}

#[tokio::test]
async fn loopback_development_without_tokens_stays_open() {
    let app = local_app(Config::default());
    let (status, _, _) = send(&app, post_json("/v1/systemone", &three_questions())).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(send(&app, get("/healthz")).await.2["access"], "open");
}

#[tokio::test]
async fn a_spent_budget_answers_429_until_midnight_utc_and_cache_hits_stay_free() {
    let file =
        std::env::temp_dir().join(format!("runlens-access-budget-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let budget = BudgetConfig {
        daily: Some(10),
        per_token_daily: Some(1),
        state_file: file.clone(),
    };
    let app = local_app(Config {
        access_tokens: Some(tokens()),
        budget: Some(budget.clone()),
        ..Config::default()
    });
    assert_eq!(
        send(&app, with_token("/v1/systemone", ALICE)).await.0,
        StatusCode::OK
    );
    // The same question again comes from the cache and spends nothing.
    let (status, headers, _) = send(&app, with_token("/v1/systemone", ALICE)).await;
    assert_eq!(
        (status, &headers["x-runlens-cache"]),
        (StatusCode::OK, &"hit".parse().unwrap())
    );
    let mut other = three_questions();
    other["state"] = json!("Another ticket.");
    let ask_other = |token: &str| {
        let mut request = post_json("/v1/systemone", &other);
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        request
    };
    let (status, headers, body) = send(&app, ask_other(ALICE)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        body,
        json!({"detail": {"error_type": "budget_exhausted",
            "message": "The daily budget of 1 decisions for this access token is spent; it starts again at 00:00 UTC."}})
    );
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=86_400).contains(&retry), "Retry-After {retry}");
    // Bob's budget is his own; the state survives a new server on the same file.
    assert_eq!(send(&app, ask_other(BOB)).await.0, StatusCode::OK);
    let restarted = local_app(Config {
        access_tokens: Some(tokens()),
        budget: Some(budget),
        ..Config::default()
    });
    let mut third = three_questions();
    third["state"] = json!("A third ticket.");
    let mut request = post_json("/v1/systemone", &third);
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {BOB}").parse().unwrap());
    assert_eq!(
        send(&restarted, request).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    let (_, _, health) = send(&restarted, get("/healthz")).await;
    assert_eq!(
        health["budget"],
        json!({"daily": 10, "per_token_daily": 1, "spent_today": 2})
    );
    std::fs::remove_file(file).unwrap();
}

fn from_peer(peer: &str, forwarded: Option<&str>) -> Request<Body> {
    let mut request = post_json("/v1/systemone", &three_questions());
    let peer: SocketAddr = peer.parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(peer));
    if let Some(forwarded) = forwarded {
        request
            .headers_mut()
            .insert("x-forwarded-for", forwarded.parse().unwrap());
    }
    request
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_rate_bucket() {
    let limits = Limits {
        rate_per_minute: 1,
        burst: 1,
        ..Limits::default()
    };
    let app = local_app(Config {
        limits,
        trusted_proxies: vec!["10.0.0.2".parse().unwrap()],
        ..Config::default()
    });
    let proxy = "10.0.0.2:5000";
    // Two users behind the trusted proxy: one request each goes through.
    assert_eq!(
        send(&app, from_peer(proxy, Some("198.51.100.7"))).await.0,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, from_peer(proxy, Some("203.0.113.9, 10.0.0.2")))
            .await
            .0,
        StatusCode::OK
    );
    // The first user's second request is over its rate.
    assert_eq!(
        send(&app, from_peer(proxy, Some("198.51.100.7"))).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    // An untrusted peer's X-Forwarded-For is ignored: it counts as itself.
    let liar = "192.0.2.1:6000";
    assert_eq!(
        send(&app, from_peer(liar, Some("192.0.2.50"))).await.0,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, from_peer(liar, Some("192.0.2.51"))).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
}
