//! Bundle parse benchmark: throughput of `Bundle::from_slice` on a large generated bundle,
//! and the peak memory of loading it (measured in a child process from /proc/self/status).
//!
//! Run: `cargo bench -p runlens-core --bench bundle_parse` (optionally `-- QUESTIONS MODELS`).
//! Numbers are recorded in docs/performance.md, "Bundle parse".

use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use indexmap::IndexMap;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, Outcome, Provenance, Question, ResultRow, ResultScore, Usage,
    UsageCounts, Vote,
};

/// Deterministic xorshift so the bundle is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn sql(rng: &mut Rng) -> String {
    format!(
        "SELECT tenant_id, sum(daily_spend) AS spend, count() AS days FROM marts.usage_daily u JOIN crm.dim_account a ON a.tenant_id = u.tenant_id WHERE day >= toDate('2026-06-30') - INTERVAL {} DAY GROUP BY tenant_id ORDER BY spend DESC LIMIT {}",
        rng.below(365),
        rng.below(50) + 1
    )
}

fn result(rng: &mut Rng) -> String {
    let rows = 1 + rng.below(8);
    (0..rows)
        .map(|i| {
            format!(
                r#"{{"tenant_id":"t{:04}","spend":{}.{:02},"days":{}}}"#,
                rng.below(9999),
                rng.below(100_000),
                i,
                rng.below(31)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn cell(rng: &mut Rng) -> Cell {
    let n = 1 + rng.below(8) as usize;
    let outcome =
        [Outcome::Pass, Outcome::Fail, Outcome::Tie, Outcome::Error][rng.below(4) as usize].clone();
    let votes = (0..3)
        .map(|j| Vote {
            outcome: Some(outcome.clone()),
            verdict: Some("equivalent".into()),
            reasoning: Some(
                "The candidate's totals match the reference within tolerance for every tenant."
                    .into(),
            ),
            judge: Some(format!("judge-{j}")),
            data_equiv: Some("EQUIVALENT".into()),
            ..Vote::default()
        })
        .collect();
    Cell {
        sqls: (0..n).map(|_| sql(rng)).collect(),
        sql_results: (0..n).map(|_| result(rng)).collect(),
        final_answer: Some("The top tenant by spend over the window is t0042 with 98,311.20; the full ranking is in the last query.".into()),
        turns: Some(n as u32 + 1),
        latency: Some(rng.below(100_000) as f64 / 997.0),
        result_score: Some(ResultScore {
            outcome: Some(outcome),
            panel: Some(vec!["judge-0".into(), "judge-1".into(), "judge-2".into()]),
            tally: Some(Box::new(IndexMap::from([("pass".to_owned(), 2), ("fail".to_owned(), 1)]))),
            votes: Some(votes),
            ..ResultScore::default()
        }),
        served_model: Some("provider-model-2026-01-01".into()),
        error: None,
        usage: Some(Usage::from(UsageCounts {
            prompt_tokens: Some(rng.below(90_000)),
            completion_tokens: Some(rng.below(9_000)),
            reasoning_tokens: Some(0),
            cache_read_tokens: Some(rng.below(50_000)),
            cache_write_tokens: Some(3673),
            total_tokens: Some(rng.below(150_000)),
            api_calls: Some(n as u64 + 1),
            calls_missing_usage: Some(0),
        })
        .with_per_turn((0..=n).map(|_| [rng.below(9000), rng.below(900), 0, rng.below(4000), 0]).collect())),
        ..Cell::default()
    }
}

fn big_bundle(questions: usize, models: usize) -> Bundle {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let model_keys: Vec<String> = (0..models).map(|m| format!("model-{m:02}")).collect();
    let mut corpus = Corpus {
        name: "bench".into(),
        models: model_keys.clone(),
        ..Corpus::default()
    };
    for q in 0..questions {
        let trace_id = format!("{:032x}", rng.next() as u128 * 7919 + q as u128);
        corpus.questions.push(Question {
            trace_id: trace_id.clone(),
            nl_question: "Which tenants spent the most over the last quarter, and how many active days did each have?".into(),
            gt_sql: (0..3).map(|_| sql(&mut rng)).collect(),
            gt_results: (0..3).map(|_| result(&mut rng)).collect(),
            gt_answer: "t0042 spent the most.".into(),
            ..Question::default()
        });
        let candidates = model_keys
            .iter()
            .map(|k| (k.as_str().into(), Some(cell(&mut rng))))
            .collect();
        corpus.results.push(ResultRow {
            trace_id,
            candidates,
            ..ResultRow::default()
        });
    }
    Bundle::new(
        Provenance::default(),
        BundleBody {
            corpora: vec![corpus],
            ..BundleBody::default()
        },
    )
}

fn kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Child mode: read FILE, parse it, print `baseline_kib peak_kib`.
fn measure_memory(path: &str) {
    let baseline = kib("VmRSS:");
    let bytes = std::fs::read(path).expect("bench file");
    let bundle = Bundle::from_slice(&bytes).expect("bench bundle parses");
    black_box(&bundle);
    println!("{baseline} {}", kib("VmHWM:"));
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--measure-memory") {
        measure_memory(&args[1]);
        return;
    }
    let questions = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let models = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    let bundle = big_bundle(questions, models);
    let json = bundle.to_json_vec();
    let mb = json.len() as f64 / 1e6;
    println!("bundle: {questions} questions x {models} models, {mb:.1} MB JSON");

    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let parsed = Bundle::from_slice(black_box(&json)).expect("parses");
        times.push(t.elapsed().as_secs_f64());
        black_box(parsed);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "parse (JSON): median {:.1} MB/s, best {:.1} MB/s",
        mb / times[2],
        mb / times[0]
    );

    let gz = bundle.to_json_gz_vec();
    let t = Instant::now();
    black_box(Bundle::from_slice(&gz).expect("parses"));
    println!(
        "parse (gzip, {:.1} MB): {:.1} MB/s of JSON",
        gz.len() as f64 / 1e6,
        mb / t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    black_box(bundle.body.content_hash());
    println!("content hash: {:.1} MB/s", mb / t.elapsed().as_secs_f64());
    let t = Instant::now();
    black_box(bundle.to_json_vec());
    println!("serialise: {:.1} MB/s", mb / t.elapsed().as_secs_f64());

    let exe = std::env::current_exe().expect("own path");
    for (label, bytes) in [("JSON", &json), ("gzip", &gz)] {
        let path = std::env::temp_dir().join(format!(
            "runlens-bundle-bench-{}.{label}",
            std::process::id()
        ));
        std::fs::write(&path, bytes).expect("write bench file");
        let out = Command::new(&exe)
            .arg("--measure-memory")
            .arg(&path)
            .output()
            .expect("child runs");
        let _ = std::fs::remove_file(&path);
        let text = String::from_utf8_lossy(&out.stdout);
        let nums: Vec<f64> = text
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        if let [baseline, peak] = nums[..] {
            let used_mb = (peak - baseline) * 1024.0 / 1e6;
            println!(
                "peak memory of read + parse ({label} file): {used_mb:.1} MB = {:.2}x the JSON size",
                used_mb / mb
            );
        }
    }
}
