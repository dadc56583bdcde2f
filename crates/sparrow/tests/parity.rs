//! Parity with the Python package: `tests/data/reference.json` was written by
//! `tests/data/gen_reference.py` with PyPI `sparrow-decider` 0.2.0 (see its `provenance`).
//! Every probability, noul, score and confidence must agree within 1e-4, choices and legends
//! exactly, WordPiece ids exactly, and the GELU/softmax kernels within float32 rounding.

use indexmap::IndexMap;
use runlens_sparrow::{Decider, MODEL_ID};
use serde_json::Value;
use std::sync::OnceLock;

const TOLERANCE: f64 = 1e-4;

fn reference() -> &'static Value {
    static REF: OnceLock<Value> = OnceLock::new();
    REF.get_or_init(|| {
        let text = include_str!("data/reference.json");
        serde_json::from_str(text).expect("tests/data/reference.json is valid JSON")
    })
}

fn decider() -> &'static Decider {
    static D: OnceLock<Decider> = OnceLock::new();
    D.get_or_init(|| Decider::load_embedded().expect("embedded model loads"))
}

fn cases() -> &'static [Value] {
    reference()["cases"].as_array().expect("cases is an array")
}

fn num(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what}: expected a number, found {v}"))
}

fn close(got: &Value, want: &Value, what: &str, max_diff: &mut f64) {
    let diff = (num(got, what) - num(want, what)).abs();
    *max_diff = max_diff.max(diff);
    assert!(
        diff <= TOLERANCE + 1e-12,
        "{what}: got {got}, Python {want}"
    );
}

#[test]
fn reference_covers_at_least_50_questions() {
    let n: usize = cases()
        .iter()
        .map(|c| c["questions"].as_object().map_or(0, |q| q.len()))
        .sum();
    assert_eq!(
        Some(n as u64),
        reference()["provenance"]["n_questions"].as_u64()
    );
    assert!(n >= 50, "only {n} questions");
    assert_eq!(decider().model_name(), MODEL_ID);
}

#[test]
fn answers_match_python_within_1e_4() {
    let mut max_diff = 0.0f64;
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let questions: IndexMap<String, Value> =
            serde_json::from_value(case["questions"].clone()).expect("questions object");
        let answers = decider()
            .answer(&case["state"], &questions)
            .expect("answerable");
        let want = case["answers"].as_object().expect("answers object");
        let ids: Vec<&String> = answers.keys().collect();
        assert_eq!(
            ids,
            want.keys().collect::<Vec<_>>(),
            "{name}: ids and order"
        );
        for (id, w) in want {
            let g = &answers[id];
            let at = format!("{name}/{id}");
            assert_eq!(g["type"], w["type"], "{at}: type");
            match w["type"].as_str() {
                Some("noul") => close(&g["noul"], &w["noul"], &format!("{at}.noul"), &mut max_diff),
                Some("choice") => {
                    assert_eq!(g["choice"], w["choice"], "{at}: choice");
                    close(
                        &g["confidence"],
                        &w["confidence"],
                        &format!("{at}.confidence"),
                        &mut max_diff,
                    );
                }
                Some("score") => {
                    close(
                        &g["score"],
                        &w["score"],
                        &format!("{at}.score"),
                        &mut max_diff,
                    );
                    close(
                        &g["confidence"],
                        &w["confidence"],
                        &format!("{at}.confidence"),
                        &mut max_diff,
                    );
                    assert_eq!(g["legend"], w["legend"], "{at}: legend");
                }
                other => panic!("{at}: unexpected type {other:?}"),
            }
            if let Some(wp) = w.get("probabilities").and_then(Value::as_object) {
                let gp = g["probabilities"]
                    .as_object()
                    .expect("probabilities object");
                assert_eq!(
                    gp.keys().collect::<Vec<_>>(),
                    wp.keys().collect::<Vec<_>>(),
                    "{at}: labels"
                );
                for (label, p) in wp {
                    close(
                        &gp[label],
                        p,
                        &format!("{at}.probabilities.{label}"),
                        &mut max_diff,
                    );
                }
            }
        }
    }
    eprintln!("largest difference in rounded answers: {max_diff:e}");
}

#[test]
fn raw_probabilities_match_python_within_1e_4() {
    let mut max_diff = 0.0f64;
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let questions = case["questions"].as_object().expect("questions object");
        for (id, q) in questions {
            let got = decider()
                .question_probabilities(&case["state"], id, q)
                .expect("answerable");
            let want = case["probabilities"][id]
                .as_array()
                .expect("probabilities list");
            assert_eq!(got.len(), want.len(), "{name}/{id}: option count");
            for (i, (g, w)) in got.iter().zip(want).enumerate() {
                let diff = (f64::from(*g) - num(w, "probability")).abs();
                max_diff = max_diff.max(diff);
                assert!(diff <= TOLERANCE, "{name}/{id}[{i}]: got {g}, Python {w}");
            }
        }
    }
    eprintln!("largest difference in raw probabilities: {max_diff:e}");
}

#[test]
fn wordpiece_ids_match_python_exactly() {
    let tokenizer_cases = reference()["tokenizer_cases"]
        .as_array()
        .expect("tokenizer_cases");
    assert!(tokenizer_cases.len() >= 8);
    for case in tokenizer_cases {
        let text = case["text"].as_str().expect("text");
        let want: Vec<u32> = serde_json::from_value(case["ids"].clone()).expect("ids");
        assert_eq!(decider().tokenize(text), want, "text {text:?}");
    }
}

#[test]
fn gelu_and_softmax_match_the_package_kernels() {
    use runlens_sparrow::kernels::{gelu, softmax_in_place};
    let kernels = &reference()["kernel_cases"];
    let xs = kernels["gelu"]["x"].as_array().expect("gelu x");
    let ys = kernels["gelu"]["y"].as_array().expect("gelu y");
    assert_eq!(xs.len(), ys.len());
    for (x, y) in xs.iter().zip(ys) {
        let (x, y) = (num(x, "x") as f32, num(y, "y"));
        let got = f64::from(gelu(x));
        assert!(
            (got - y).abs() <= 1e-6 * y.abs().max(1.0),
            "gelu({x}) = {got}, Python {y}"
        );
    }
    for case in kernels["softmax"].as_array().expect("softmax cases") {
        let mut v: Vec<f32> = serde_json::from_value(case["x"].clone()).expect("x");
        let want: Vec<f64> = serde_json::from_value(case["y"].clone()).expect("y");
        softmax_in_place(&mut v);
        for (g, w) in v.iter().zip(&want) {
            assert!(
                (f64::from(*g) - w).abs() <= 1e-7,
                "softmax {:?}: {g} vs {w}",
                case["x"]
            );
        }
    }
}
