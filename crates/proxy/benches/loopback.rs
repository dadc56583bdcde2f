//! Loopback benchmark of `runlens serve`'s API (numbers in docs/performance.md, "Proxy").
//!
//! 1. Local backend (embedded sparrow model), the harness's 4-question label request
//!    (§7.4/§7.5 with the example rules config), cache off then on: throughput and latency
//!    under `BENCH_CONCURRENCY` (16) clients for `BENCH_REQUESTS` (20,000) requests.
//! 2. Proxy overhead: sequential requests straight to a fake upstream vs through the
//!    proxy's `typesafe` backend (cache off) to the same fake, `BENCH_OVERHEAD_REQUESTS`
//!    (3,000) each; the difference of medians is the proxy's cost.
//!
//! Server and clients each get their own 2-worker runtime and share the machine's cores.
//! Bounded loops, 127.0.0.1 only.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::post;
use common::label_body;
use indexmap::IndexMap;
use runlens_proxy::{Backend, Config, Limits, Upstream, UpstreamConfig};
use serde_json::{Value, json};

use common::env_usize;

/// Serves `router` on 127.0.0.1:0 in its own 2-worker runtime; returns the address.
fn spawn_server(router: Router) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            tx.send(listener.local_addr().expect("addr"))
                .expect("send addr");
            let service = router.into_make_service_with_connect_info::<SocketAddr>();
            axum::serve(listener, service).await.expect("serve");
        });
    });
    rx.recv().expect("server address")
}

struct Run {
    wall: Duration,
    latencies: Vec<Duration>,
}

impl Run {
    fn quantile(&self, q: f64) -> f64 {
        let index = ((self.latencies.len() - 1) as f64 * q).round() as usize;
        self.latencies[index].as_secs_f64() * 1e3
    }

    fn report(&self, label: &str) {
        let rps = self.latencies.len() as f64 / self.wall.as_secs_f64();
        println!(
            "{label:<44} n={:>6}  {rps:>8.0} req/s  p50 {:.3} ms  p90 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
            self.latencies.len(),
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(0.99),
            self.quantile(1.0),
        );
    }
}

async fn load(url: String, body: Arc<Vec<u8>>, requests: usize, concurrency: usize) -> Run {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .build()
        .expect("client");
    let started = Instant::now();
    let per_task = requests / concurrency;
    let tasks: Vec<_> = (0..concurrency)
        .map(|_| {
            let (client, url, body) = (client.clone(), url.clone(), body.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(per_task);
                for _ in 0..per_task {
                    let t0 = Instant::now();
                    let response = client
                        .post(&url)
                        .header("content-type", "application/json")
                        .body(body.as_ref().clone())
                        .send()
                        .await
                        .expect("request");
                    assert_eq!(response.status(), 200, "unexpected status");
                    response.bytes().await.expect("body");
                    latencies.push(t0.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(requests);
    for task in tasks {
        latencies.extend(task.await.expect("client task"));
    }
    let wall = started.elapsed();
    latencies.sort();
    Run { wall, latencies }
}

fn open_limits() -> Limits {
    Limits {
        rate_per_minute: 0,
        max_in_flight: 64,
        ..Limits::default()
    }
}

fn local_server(cache_entries: usize) -> SocketAddr {
    let decider = runlens_sparrow::Decider::load_embedded().expect("embedded model");
    let config = Config {
        limits: open_limits(),
        cache_entries,
        ..Config::default()
    };
    spawn_server(runlens_proxy::app(config, Backend::Local(Arc::new(decider))).expect("app"))
}

/// The embedded model alone on the label request (no HTTP, one thread), for comparison.
fn model_only(body: &[u8], iterations: usize) {
    let decider = runlens_sparrow::Decider::load_embedded().expect("embedded model");
    let request: Value = serde_json::from_slice(body).expect("json");
    let questions: IndexMap<String, Value> =
        serde_json::from_value(request["questions"].clone()).expect("questions");
    let mut latencies = Vec::with_capacity(iterations);
    let started = Instant::now();
    for _ in 0..iterations.max(1) {
        let t0 = Instant::now();
        decider
            .answer(&request["state"], &questions)
            .expect("answers");
        latencies.push(t0.elapsed());
    }
    let wall = started.elapsed();
    latencies.sort();
    Run { wall, latencies }.report("sparrow Decider::answer only, 1 thread");
}

fn main() {
    let requests = env_usize("BENCH_REQUESTS", 20_000);
    let concurrency = env_usize("BENCH_CONCURRENCY", 16).max(1);
    let overhead_requests = env_usize("BENCH_OVERHEAD_REQUESTS", 3_000);
    let body = Arc::new(label_body());
    println!(
        "label request: {} bytes, 4 questions (16 + 5 options, 2 nouls)",
        body.len()
    );
    model_only(&body, requests / 10);
    let client_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");

    let no_cache = local_server(0);
    let cached = local_server(1024);
    client_runtime.block_on(async {
        // Warm-up (connections, allocator), not measured.
        load(
            format!("http://{no_cache}/v1/systemone"),
            body.clone(),
            200,
            concurrency,
        )
        .await;
        load(
            format!("http://{no_cache}/v1/systemone"),
            body.clone(),
            requests,
            concurrency,
        )
        .await
        .report(&format!("local backend, cache off, c={concurrency}"));
        load(
            format!("http://{cached}/v1/systemone"),
            body.clone(),
            requests,
            concurrency,
        )
        .await
        .report(&format!("local backend, cache on (hits), c={concurrency}"));
        load(
            format!("http://{no_cache}/v1/systemone"),
            body.clone(),
            requests / 4,
            1,
        )
        .await
        .report("local backend, cache off, c=1");
    });

    let canned = Arc::new(json!({"model": "jev-1.13.0", "answers": {"sub_mode": {"type": "choice", "choice": "wrong_filter", "confidence": 0.4, "probabilities": {"wrong_filter": 0.5, "wrong_grain": 0.5}}, "prevented_by_rule": {"type": "choice", "choice": "none", "confidence": 0.3, "probabilities": {"none": 1.0}}, "schema_hint_would_help": {"type": "noul", "noul": 0.7}, "correct_despite_fail": {"type": "noul", "noul": 0.1}}, "usage": {"input_tokens": 900, "output_tokens": 4}}).to_string());
    let fake = spawn_server(Router::new().route(
        "/v1/systemone",
        post(move || {
            let canned = canned.clone();
            async move {
                (
                    [("content-type", "application/json")],
                    canned.as_ref().clone(),
                )
            }
        }),
    ));
    let env = |name: &str| match name {
        "TYPESAFE_API_KEY" => Some("bench-key".to_owned()),
        "TYPESAFE_BASE_URL" => Some(format!("http://{fake}")),
        _ => None,
    };
    let upstream = UpstreamConfig::from_env(env)
        .expect("config")
        .expect("a key is set");
    let config = Config {
        limits: open_limits(),
        cache_entries: 0,
        ..Config::default()
    };
    let proxy = spawn_server(
        runlens_proxy::app(
            config,
            Backend::TypeSafe(Upstream::new(upstream).expect("client")),
        )
        .expect("app"),
    );
    client_runtime.block_on(async {
        load(format!("http://{fake}/v1/systemone"), body.clone(), 200, 1).await;
        load(format!("http://{proxy}/v1/systemone"), body.clone(), 200, 1).await;
        let direct = load(
            format!("http://{fake}/v1/systemone"),
            body.clone(),
            overhead_requests,
            1,
        )
        .await;
        let proxied = load(
            format!("http://{proxy}/v1/systemone"),
            body.clone(),
            overhead_requests,
            1,
        )
        .await;
        direct.report("fake upstream, direct, c=1");
        proxied.report("fake upstream via proxy (typesafe), c=1");
        println!(
            "proxy overhead: p50 {:+.3} ms, p99 {:+.3} ms",
            proxied.quantile(0.5) - direct.quantile(0.5),
            proxied.quantile(0.99) - direct.quantile(0.99)
        );
    });
}
