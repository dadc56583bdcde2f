//! Soak benchmark of the `runlens serve` process (numbers in docs/performance.md, "Proxy
//! soak"): the built binary on the local backend (cache off, rate limit off), loaded over
//! 127.0.0.1 at a fixed rate with the harness's 4-question label request for a fixed time.
//! Every `SOAK_WINDOW_S` seconds it prints the window's requests, errors, p50/p99 and the
//! server process's RSS (from `/proc/<pid>/status`), then a verdict: 0 errors, and RSS after
//! the first window (warm-up) growing by at most `SOAK_MAX_GROWTH_PCT` percent. Exits 1
//! otherwise. Stops by itself; the server is killed at the end.
//!
//! `cargo build --profile native -p runlens-cli && cargo bench --profile native -p runlens-proxy
//! --bench soak` (`RUNLENS_BIN` names another binary, as an absolute path).
//! Options: `SOAK_SECONDS` (60), `SOAK_RATE` (requests/s, 1000: the loopback goal),
//! `SOAK_CLIENTS` (16), `SOAK_WINDOW_S` (10), `SOAK_MAX_GROWTH_PCT` (10).

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use common::{env_usize, label_body};
use tokio::sync::Mutex;

/// Starts `runlens serve` and returns it with its base URL.
fn start_server() -> (Child, String) {
    // Benches run in the crate's folder: the default is the workspace's native build.
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/native/runlens");
    let bin = std::env::var("RUNLENS_BIN").unwrap_or_else(|_| default.into());
    let mut child = Command::new(&bin)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--backend",
            "local",
            "--cache-entries",
            "0",
            "--rate-limit",
            "0",
            "--dist",
            "/nonexistent-runlens-dist",
        ])
        .env_remove("TYPESAFE_API_KEY")
        .env_remove("RUNLENS_ACCESS_TOKENS")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {bin}: {e} (set RUNLENS_BIN)"));
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("start-up line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    (child, url)
}

/// Resident set size of `pid` in MB (VmRSS).
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[derive(Default)]
struct Window {
    latencies: Vec<Duration>,
    errors: u64,
}

fn quantile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3
}

fn main() {
    let seconds = env_usize("SOAK_SECONDS", 60) as u64;
    let rate = env_usize("SOAK_RATE", 1000).max(1) as f64;
    let clients = env_usize("SOAK_CLIENTS", 16).max(1);
    let window_s = env_usize("SOAK_WINDOW_S", 10).max(1) as u64;
    let max_growth = env_usize("SOAK_MAX_GROWTH_PCT", 10) as f64;
    let (mut server, url) = start_server();
    let pid = server.id();
    let body = Arc::new(label_body());
    println!(
        "soak: {url} (pid {pid}), {rate} req/s from {clients} clients for {seconds} s, label request {} bytes",
        body.len()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let window = Arc::new(Mutex::new(Window::default()));
    let sent = Arc::new(AtomicU64::new(0));
    let verdict = runtime.block_on(async {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(clients)
            .timeout(Duration::from_secs(10))
            .build()
            .expect("client");
        let started = Instant::now();
        let end = started + Duration::from_secs(seconds);
        let period = Duration::from_secs_f64(clients as f64 / rate);
        let tasks: Vec<_> = (0..clients)
            .map(|i| {
                let (client, body, window, sent) =
                    (client.clone(), body.clone(), window.clone(), sent.clone());
                let url = format!("{url}/v1/systemone");
                tokio::spawn(async move {
                    // Spread the clients' ticks over one period.
                    let offset = period.mul_f64(i as f64 / clients as f64);
                    let first = tokio::time::Instant::now() + offset;
                    let mut ticks = tokio::time::interval_at(first, period);
                    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                    while Instant::now() < end {
                        ticks.tick().await;
                        let t0 = Instant::now();
                        let ok = match client
                            .post(&url)
                            .header("content-type", "application/json")
                            .body(body.as_ref().clone())
                            .send()
                            .await
                        {
                            Ok(r) => r.status() == 200 && r.bytes().await.is_ok(),
                            Err(_) => false,
                        };
                        sent.fetch_add(1, Ordering::Relaxed);
                        let mut w = window.lock().await;
                        if ok {
                            w.latencies.push(t0.elapsed());
                        } else {
                            w.errors += 1;
                        }
                    }
                })
            })
            .collect();
        let mut rss = Vec::new();
        let mut errors = 0;
        let mut total = 0;
        println!(
            "{:>6} {:>8} {:>7} {:>9} {:>9} {:>9}",
            "t (s)", "requests", "errors", "p50 ms", "p99 ms", "RSS MB"
        );
        for n in 1..=seconds.div_ceil(window_s) {
            tokio::time::sleep_until((started + Duration::from_secs(n * window_s)).into()).await;
            let mut w = std::mem::take(&mut *window.lock().await);
            w.latencies.sort();
            let mb = rss_mb(pid);
            rss.push(mb);
            errors += w.errors;
            total += w.latencies.len() as u64 + w.errors;
            println!(
                "{:>6} {:>8} {:>7} {:>9.3} {:>9.3} {:>9.1}",
                n * window_s,
                w.latencies.len() as u64 + w.errors,
                w.errors,
                quantile(&w.latencies, 0.5),
                quantile(&w.latencies, 0.99),
                mb
            );
        }
        for task in tasks {
            let _ = task.await;
        }
        let elapsed = started.elapsed().as_secs_f64();
        let (first, last) = (rss[0], *rss.last().unwrap_or(&rss[0]));
        let growth = (last - first) / first * 100.0;
        let peak = rss.iter().copied().fold(0.0, f64::max);
        println!(
            "total {total} requests in {elapsed:.1} s ({:.0}/s), {errors} errors; RSS {first:.1} MB after the first window, {last:.1} MB at the end ({growth:+.1} %), peak {peak:.1} MB",
            sent.load(Ordering::Relaxed) as f64 / elapsed
        );
        errors == 0 && growth <= max_growth
    });
    let _ = server.kill();
    let _ = server.wait();
    if verdict {
        println!("soak: passed (0 errors, RSS growth within {max_growth} %)");
    } else {
        println!("soak: FAILED");
        std::process::exit(1);
    }
}
