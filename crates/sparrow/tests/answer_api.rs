//! Behaviour of `Decider::answer` beyond what the Python package covers: single-option choices,
//! errors instead of panics, id order, independence of questions, thread sharing.

use indexmap::IndexMap;
use runlens_sparrow::{Decider, MODEL_ID, SparrowError};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

fn decider() -> &'static Decider {
    static D: OnceLock<Decider> = OnceLock::new();
    D.get_or_init(|| Decider::load_embedded().expect("embedded model loads"))
}

fn questions(v: Value) -> IndexMap<String, Value> {
    serde_json::from_value(v).expect("an object of questions")
}

#[test]
fn decider_is_send_sync_and_shareable() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Decider>();
    let shared = Arc::new(decider().clone());
    let q = questions(json!({"on": {"type": "noul", "instructions": "Is the light on?"}}));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let (d, q) = (Arc::clone(&shared), q.clone());
            std::thread::spawn(move || {
                d.answer(&json!("The light is on."), &q)
                    .map(|a| a["on"].clone())
            })
        })
        .collect();
    let answers: Vec<Value> = handles
        .into_iter()
        .map(|h| h.join().unwrap().unwrap())
        .collect();
    // sparrow-decider 0.2.0 answers 0.6644 here (tests/data/reference.json, case light_on).
    assert_eq!(answers, vec![json!({"type": "noul", "noul": 0.6644}); 2]);
    assert_eq!(shared.model_name(), MODEL_ID);
}

#[test]
fn single_option_choice_is_certain() {
    let q = questions(
        json!({"only": {"type": "choice", "instructions": "Pick", "criteria": {"yes": null}}}),
    );
    let a = decider().answer(&json!("anything"), &q).unwrap();
    assert_eq!(
        a["only"],
        json!({"type": "choice", "choice": "yes", "confidence": 1.0, "probabilities": {"yes": 1.0}})
    );
}

#[test]
fn answers_keep_request_order_and_ignore_other_questions() {
    let one = questions(json!({"z": {"type": "noul", "instructions": "Is it late?"}}));
    let many = questions(json!({
        "z": {"type": "noul", "instructions": "Is it late?"},
        "a": {"type": "score", "instructions": "How late?", "criteria": ["early", "on time", "late"]},
        "m": {"type": "choice", "instructions": "Which?", "criteria": {"x": "first", "y": "second"}}
    }));
    let state = json!({"time": "23:55", "meeting": "22:00"});
    let alone = decider().answer(&state, &one).unwrap();
    let together = decider().answer(&state, &many).unwrap();
    assert_eq!(together.keys().collect::<Vec<_>>(), vec!["z", "a", "m"]);
    assert_eq!(alone["z"], together["z"]);
    let probs = together["m"]["probabilities"].as_object().unwrap();
    let sum: f64 = probs.values().filter_map(Value::as_f64).sum();
    assert!(
        (sum - 1.0).abs() <= 2e-4,
        "rounded probabilities sum to {sum}"
    );
}

#[test]
fn bad_questions_are_errors_not_panics() {
    let cases = [
        json!({"q": {"type": "box", "instructions": "the dog"}}),
        json!({"q": {"type": "score", "criteria": ["one"]}}),
        json!({"q": {"type": "score", "criteria": (0..11).map(|i| i.to_string()).collect::<Vec<_>>()}}),
        json!({"q": {"type": "choice", "criteria": ["a", "b"]}}),
        json!({"q": 7}),
    ];
    for case in cases {
        match decider().answer(&json!("state"), &questions(case.clone())) {
            Err(SparrowError::Question { id, .. }) => assert_eq!(id, "q"),
            other => panic!("{case}: expected a question error, got {other:?}"),
        }
    }
}

#[test]
fn odd_states_are_answered() {
    let q = questions(json!({"n": {"type": "noul", "instructions": "Is there content?"}}));
    for state in [
        json!(null),
        json!(42),
        json!([]),
        json!({}),
        json!(""),
        json!("\u{0}\u{fffd}"),
    ] {
        let a = decider().answer(&state, &q).unwrap();
        let p = a["n"]["noul"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{state}: {p}");
    }
}

#[test]
fn a_corrupt_archive_is_an_error() {
    let mut bytes = runlens_sparrow::EMBEDDED_MODEL.to_vec();
    bytes.truncate(bytes.len() / 2);
    let err = Decider::from_sparrow_bytes("half.sparrow", &bytes).unwrap_err();
    assert!(
        err.to_string().starts_with("model archive `half.sparrow`"),
        "{err}"
    );
}
