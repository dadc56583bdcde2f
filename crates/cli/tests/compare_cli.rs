//! `runlens compare` end to end on two small hand-built runs (A as v1 JSON, B as a v2 zip);
//! expected values as arithmetic.

// Expected values are written as arithmetic (e.g. `2.0 / 3.0`).
#![allow(clippy::eq_op)]

mod common;

use std::path::{Path, PathBuf};

use common::{body, runlens, write};
use serde_json::{Value, json};

/// A: m1, m2, gone on q1..q4. B (a v2 zip): new, m2, m1 on q4, q2, q1, q5 (q3 dropped).
fn runs(dir: &Path) -> (PathBuf, PathBuf) {
    let a = write(
        dir,
        "a.json",
        body(
            "dev",
            &["m1", "m2", "gone"],
            &[
                ("q1", &["pass", "fail", "pass"]),
                ("q2", &["fail", "fail", "pass"]),
                ("q3", &["pass", "pass", "pass"]),
                ("q4", &["tie", "error", "fail"]),
            ],
        ),
    );
    let b_json = write(
        dir,
        "b.json",
        body(
            "dev",
            &["new", "m2", "m1"],
            &[
                ("q4", &["pass", "pass", "pass"]),
                ("q2", &["pass", "pass", "pass"]),
                ("q1", &["pass", "pass", "fail"]),
                ("q5", &["pass", "pass", "pass"]),
            ],
        ),
    );
    let b = dir.join("b.zip");
    let (ok, _, err) = runlens(&[
        "convert",
        b_json.to_str().unwrap(),
        b.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(ok, "{err}");
    (a, b)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn the_json_has_each_models_paired_difference() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = runs(dir.path());
    let (ok, stdout, stderr) = runlens(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--json",
    ]);
    assert!(ok, "{stderr}");
    let out: Value = serde_json::from_str(&stdout).unwrap();
    let dev = &out["corpora"][0];
    assert_eq!(out["corpora"].as_array().unwrap().len(), 1);
    assert_eq!(dev["name"], "dev");
    assert_eq!(dev["questions"], 3);
    assert_eq!(dev["only_in_a"], json!(["gone"]));
    assert_eq!(dev["only_in_b"], json!(["new"]));
    let models = dev["models"].as_array().unwrap();
    assert_eq!(
        models
            .iter()
            .map(|m| m["model"].clone())
            .collect::<Vec<_>>(),
        [json!("m1"), json!("m2")]
    );
    // m1 on q1, q2, q4: A = (1, 0, 0.5), B = (0, 1, 1); d = (−1, 1, 0.5).
    let m1 = &models[0];
    assert_eq!(m1["n"], 3);
    assert_eq!(f(&m1["pass_a"]), 1.5 / 3.0);
    assert_eq!(f(&m1["pass_b"]), 2.0 / 3.0);
    assert!((f(&m1["delta"]) - 0.5 / 3.0).abs() < 1e-15);
    // Squared deviations from 1/6: (7/6)² + (5/6)² + (1/3)² = 49/36 + 25/36 + 4/36 = 78/36;
    // se = √(78/36 / 2) / √3.
    let se = (78.0_f64 / 36.0 / 2.0).sqrt() / 3.0_f64.sqrt();
    assert!((f(&m1["se"]) - se).abs() < 1e-15);
    // Python: d = [-1, 1, 0.5]; se = stdev(d) / sqrt(3) -> 0.6009252125773317;
    // math.erfc(abs(mean(d) / se) / sqrt(2)) -> 0.7815112949987134.
    assert!((f(&m1["se"]) - 0.600_925_212_577_331_7).abs() < 1e-15);
    assert!(
        (f(&m1["p"]) - 0.781_511_294_998_713_4).abs() < 1e-12,
        "{}",
        m1["p"]
    );
    assert_eq!(
        (m1["improved"].clone(), m1["regressed"].clone()),
        (json!(2), json!(1))
    );
    // m2: q4 is an error in A (no score); q1, q2: (0, 0) → (1, 1), every d = 1, se 0, p 0.
    let m2 = &models[1];
    assert_eq!(m2["n"], 2);
    assert_eq!(
        (f(&m2["pass_a"]), f(&m2["pass_b"]), f(&m2["delta"])),
        (0.0, 1.0, 1.0)
    );
    assert_eq!((f(&m2["se"]), f(&m2["p"])), (0.0, 0.0));
}

#[test]
fn the_table_is_aligned_and_names_the_models_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = runs(dir.path());
    let (ok, stdout, stderr) = runlens(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("model")).unwrap();
    assert!(lines[header - 1].starts_with("## dev (3 questions in both"));
    // m1: 50.0 → 66.7, +16.7, interval 1/6 ± 1.96 · 0.6009… = −1.0111… .. +1.3445….
    assert_eq!(
        lines[header + 1],
        "m1         3    50.0    66.7   +16.7 -101.1 .. +134.4   0.782        2         1"
    );
    assert_eq!(
        lines[header + 2],
        "m2         2     0.0   100.0  +100.0 +100.0 .. +100.0  <0.001        2         0"
    );
    assert!(
        stdout.contains("only in A: gone\nonly in B: new\n"),
        "{stdout}"
    );
}

#[test]
fn runs_that_cannot_be_compared_exit_1_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = runs(dir.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (ok, _, stderr) = runlens(&["compare", a, a]);
    assert!(!ok);
    assert!(
        stderr.contains("both bundles are the same run (content hash "),
        "{stderr}"
    );
    let other = write(
        dir.path(),
        "other.json",
        body("test", &["m1"], &[("q1", &["pass"])]),
    );
    let (ok, _, stderr) = runlens(&["compare", a, other.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!(
            "error: cannot compare {a} with {}: the runs have no corpus in common (A: dev; B: test)",
            other.display()
        )),
        "{stderr}"
    );
    let (ok, _, stderr) = runlens(&["compare", a, b, "--corpus", "prod"]);
    assert!(!ok);
    assert!(
        stderr.contains("run A has no corpus `prod` (it has: dev)"),
        "{stderr}"
    );
}
