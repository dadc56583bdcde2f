//! Times `Decider::answer` on the harness's failure-label request (harness-formats.md §7.4/§7.5:
//! a 16-option choice, a 5-option choice and two nouls over a ~2,000-character state).
//!
//! `cargo run --profile native -p runlens-sparrow --example bench_answer [-- ITERATIONS]`

use indexmap::IndexMap;
use runlens_sparrow::{Decider, text::content_text};
use serde_json::{Value, json};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let iterations: usize = std::env::args().nth(1).map_or(Ok(5_000), |a| a.parse())?;
    let started = Instant::now();
    let decider = Decider::load_embedded()?;
    let load = started.elapsed();

    let reference: Value = serde_json::from_str(include_str!("../tests/data/reference.json"))?;
    let case = reference["cases"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "failure_cell_error"))
        .ok_or("reference.json has no failure_cell_error case")?;
    let questions: IndexMap<String, Value> = serde_json::from_value(case["questions"].clone())?;
    let mut state = case["state"].clone();
    // Clip the first result so the whole state is about 2,000 characters of text.
    let first = state["candidate_results"][0]
        .as_str()
        .unwrap_or("")
        .to_owned();
    state["candidate_results"][0] = json!(first.chars().take(750).collect::<String>());
    let state_chars = content_text(&state).chars().count();

    let mut times = Vec::with_capacity(iterations);
    let cpu_start = thread_cpu_ns();
    for _ in 0..iterations {
        let t = Instant::now();
        let answers = decider.answer(&state, &questions)?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(answers);
    }
    let cpu_us = match (cpu_start, thread_cpu_ns()) {
        (Some(a), Some(b)) => format!("{:.1} µs", (b - a) as f64 / 1e3 / iterations as f64),
        _ => "n/a".to_owned(),
    };
    times.sort_by(f64::total_cmp);
    // Share of the call spent reading the state (JSON text + WordPiece), for context.
    let state_text = content_text(&state);
    let t = Instant::now();
    for _ in 0..iterations {
        std::hint::black_box(decider.tokenize(std::hint::black_box(&state_text)));
    }
    let tokenize_us = t.elapsed().as_secs_f64() * 1e6 / iterations as f64;
    let pct = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "load {:.1} ms; state {state_chars} chars; {} questions; {iterations} calls: \
         mean {mean:.1} µs, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs; on-CPU mean {cpu_us}; tokenizing the state alone {tokenize_us:.1} µs",
        load.as_secs_f64() * 1e3,
        questions.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0),
    );
    Ok(())
}

/// Nanoseconds this thread has spent on a CPU (Linux `schedstat`); wall-clock percentiles on a
/// shared 2-core machine include time spent waiting for other processes, this does not.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
