//! Overrides file round trip and errors; applying with exact counts; what changed.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{BundleBody, Corpus, FailureLabel};

fn label(model: &str, trace_id: &str, sub_mode: Option<&str>) -> FailureLabel {
    FailureLabel {
        trace_id: trace_id.into(),
        model: model.into(),
        sub_mode: sub_mode.map(Into::into),
        correct_despite_fail: Some(0.2),
        ..FailureLabel::default()
    }
}

fn body() -> BundleBody {
    BundleBody {
        corpora: vec![Corpus {
            name: "dev".into(),
            failure_labels: vec![
                label("m-a", "q1", Some("wrong_join")),
                label("m-a", "q2", Some("wrong_join")),
                label("m-b", "q1", Some("wrong_table")),
                label("m-b", "q2", None),
            ],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    }
}

const HASH: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

fn relabel(model: &str, trace_id: &str, from: Option<&str>, to: &str) -> LabelOverride {
    let mut new = label(model, trace_id, Some(to));
    new.correct_despite_fail = Some(0.9);
    LabelOverride {
        key: format!("{model}/{trace_id}"),
        corpus: "dev".into(),
        original: from.map(|f| label(model, trace_id, Some(f))),
        new,
        model_id: "sparrow-nano-general-v1.1".into(),
        request_hash: request_hash(b""),
        applied_at: "2026-12-02T18:00:00Z".into(),
        answers: None,
    }
}

fn file() -> OverridesFile {
    let mut f = OverridesFile::new("bundlehash");
    f.overrides = vec![
        relabel("m-a", "q1", Some("wrong_join"), "correct_but_judged_fail"),
        relabel("m-b", "q2", None, "wrong_filter"), // original differs (label has no sub-mode)
        relabel("m-c", "q9", None, "tool_loop"),    // no label yet: inserted
    ];
    f.overrides[1].original = Some(label("m-b", "q2", None));
    f
}

#[test]
fn request_hash_is_sha256_hex() {
    assert_eq!(request_hash(b""), HASH);
    assert_eq!(
        request_hash(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn apply_replaces_inserts_and_summarises_exactly() {
    let mut b = body();
    let summary = apply_overrides(&mut b, &file()).unwrap();
    assert_eq!(
        (summary.replaced, summary.inserted, summary.unchanged),
        (2, 1, 0)
    );
    assert!(summary.stale.is_empty());
    let labels = &b.corpora[0].failure_labels;
    let subs: Vec<Option<&str>> = labels.iter().map(|l| l.sub_mode.as_deref()).collect();
    assert_eq!(
        subs,
        vec![
            Some("correct_but_judged_fail"),
            Some("wrong_join"),
            Some("wrong_table"),
            Some("wrong_filter"),
            Some("tool_loop"),
        ]
    );
    let c = &summary.changes["dev"];
    let ch = |key: &str, before, after| CountChange {
        key: key.into(),
        before,
        after,
    };
    assert_eq!(c.labels_changed, 3);
    // Before: wrong_join 2, wrong_table 1, missing 1. After: one of each of five sub-modes.
    assert_eq!(
        c.sub_mode,
        vec![
            ch("wrong_join", 2, 1),
            ch("wrong_filter", 0, 1),
            ch("tool_loop", 0, 1),
            ch("correct_but_judged_fail", 0, 1),
            ch("(missing)", 1, 0),
        ]
    );
    // query_construction: wrong_join ×2 → wrong_join + wrong_filter; (none) lost the missing.
    assert_eq!(
        c.family,
        vec![ch("process", 0, 1), ch("grading", 0, 1), ch("(none)", 1, 0)]
    );
    // FM4 2 → 1 (wrong_join), FM2 0 → 1 (wrong_filter), budget 0 → 1, grey 1 → 1.
    assert_eq!(
        c.fm_bucket,
        vec![
            ch("FM2 wrong plan", 0, 1),
            ch("FM4 wrong impl", 2, 1),
            ch("budget", 0, 1),
        ]
    );
    assert_eq!(
        c.summary_line(),
        "3 labels changed; sub-mode: wrong_join 2→1, wrong_filter 0→1, tool_loop 0→1, \
         correct_but_judged_fail 0→1, (missing) 1→0; family: process 0→1, grading 0→1, \
         (none) 1→0; FM bucket: FM2 wrong plan 0→1, FM4 wrong impl 2→1, budget 0→1"
    );
    // Applying again changes nothing.
    let again = apply_overrides(&mut b, &file()).unwrap();
    assert_eq!((again.replaced, again.inserted, again.unchanged), (0, 0, 3));
    assert_eq!(again.changes["dev"].summary_line(), "no label changed");
}

#[test]
fn stale_original_is_reported_and_errors_change_nothing() {
    let mut b = body();
    let mut f = OverridesFile::new("h");
    f.overrides = vec![relabel("m-b", "q1", Some("wrong_join"), "wrong_column")];
    let summary = apply_overrides(&mut b, &f).unwrap();
    assert_eq!(summary.stale, vec!["m-b/q1".to_string()]);

    let mut b = body();
    let mut f = file();
    f.overrides[2].corpus = "test".into();
    assert_eq!(
        apply_overrides(&mut b, &f).unwrap_err().to_string(),
        "overrides[2] (m-c/q9): corpus \"test\" is not in the bundle"
    );
    assert_eq!(b, body(), "nothing applied on error");
    let mut f = file();
    f.overrides[0].key = "m-a/q2".into();
    assert_eq!(
        apply_overrides(&mut b, &f).unwrap_err(),
        ApplyError::KeyMismatch {
            index: 0,
            key: "m-a/q2".into(),
            expected: "m-a/q1".into()
        }
    );
}

#[test]
fn file_round_trip() {
    let f = file();
    assert!(f.matches_bundle("bundlehash"));
    assert_eq!(OverridesFile::from_json(&f.to_json()), Ok(f));
}

/// The raw answers travel with the override (exact floats and order), and a file written
/// before `answers` existed still loads (as `None`) and is written back without the field.
#[test]
fn raw_answers_round_trip_and_old_files_still_load() {
    use crate::jev::Answer;
    use indexmap::IndexMap;
    let mut f = file();
    let probabilities: IndexMap<String, f64> = [
        ("correct_but_judged_fail".to_owned(), 0.55),
        ("wrong_join".to_owned(), 0.3),
        ("tool_loop".to_owned(), 0.15),
    ]
    .into_iter()
    .collect();
    f.overrides[0].answers = Some(
        [
            (
                "sub_mode".to_owned(),
                Answer::Choice {
                    choice: "correct_but_judged_fail".into(),
                    confidence: 0.325,
                    probabilities,
                },
            ),
            (
                "correct_despite_fail".to_owned(),
                Answer::Noul { noul: 0.9 },
            ),
        ]
        .into_iter()
        .collect(),
    );
    let text = f.to_json();
    let back = OverridesFile::from_json(&text).unwrap();
    assert_eq!(back, f);
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        raw["overrides"][0]["answers"],
        serde_json::json!({
            "sub_mode": {"type": "choice", "choice": "correct_but_judged_fail", "confidence": 0.325,
                "probabilities": {"correct_but_judged_fail": 0.55, "wrong_join": 0.3, "tool_loop": 0.15}},
            "correct_despite_fail": {"type": "noul", "noul": 0.9}
        })
    );
    let keys: Vec<&String> = raw["overrides"][0]["answers"]["sub_mode"]["probabilities"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["correct_but_judged_fail", "wrong_join", "tool_loop"]);
    // Overrides without answers write no field at all.
    assert!(raw["overrides"][1].get("answers").is_none());
    // An old file (no "answers" anywhere) loads.
    let old = r#"{"format": "runlens-overrides", "version": 1, "bundle_hash": "h", "overrides": [
        {"key": "m-a/q1", "corpus": "dev", "original": null,
         "new": {"trace_id": "q1", "model": "m-a", "sub_mode": "tool_loop"},
         "model_id": "jev-1.13.0", "request_hash": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
         "applied_at": "2026-12-02T18:00:00Z"}]}"#;
    let loaded = OverridesFile::from_json(old).unwrap();
    assert_eq!(loaded.overrides[0].answers, None);
    assert_eq!(
        loaded.overrides[0].new.sub_mode.as_deref(),
        Some("tool_loop")
    );
    // A damaged answers object is refused, naming the field.
    let bad = old.replace(
        r#""applied_at": "2026-12-02T18:00:00Z"}"#,
        r#""applied_at": "2026-12-02T18:00:00Z", "answers": {"q": 5}}"#,
    );
    let e = OverridesFile::from_json(&bad).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("overrides[0].answers"));
}

#[test]
fn file_errors_name_line_and_field() {
    let mut f = file();
    f.overrides[1].request_hash = "XYZ".into();
    let text = f.to_json();
    let e = OverridesFile::from_json(&text).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("overrides[1].request_hash"));
    assert_eq!(e.expected, "64 lower-case hex digits (SHA-256)");
    assert_eq!(e.found, "\"XYZ\"");

    let bad = "{\n\"format\": \"runlens-overrides\",\n\"version\": 1,\n\"bundle_hash\": \"h\",\n\"overrides\": [\n {\"key\": \"m/q\", \"corpus\": \"dev\",\n  \"new\": {\"trace_id\": 7}}]}";
    let e = OverridesFile::from_json(bad).unwrap_err();
    assert_eq!(e.line, Some(7));
    assert_eq!(e.field.as_deref(), Some("overrides[0].new"));
    assert!(
        e.found
            .starts_with("invalid type: integer `7`, expected a string"),
        "{}",
        e.found
    );

    let e = OverridesFile::from_json("{\"format\": \"runlens-overrides\", \"version\": 2}")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "overrides file: line 1: field version: expected 1, found number 2"
    );
}

#[test]
fn what_changed_between_two_sets_of_new_labels() {
    let own = vec![
        label("m", "q", Some("wrong_join")),
        label("m", "q2", Some("tool_loop")),
    ];
    let fixed = label("m", "q", Some("correct_but_judged_fail"));
    // Nothing in force, then one re-label: the doc example's change.
    assert_eq!(
        what_changed_between(&own, &[], std::slice::from_ref(&fixed)).summary_line(),
        "1 label changed; sub-mode: wrong_join 1→0, correct_but_judged_fail 0→1; \
         family: query_construction 1→0, grading 0→1; \
         FM bucket: FM4 wrong impl 1→0, not a model failure 0→1"
    );
    // The same re-label in force before and after: nothing changed.
    let same = std::slice::from_ref(&fixed);
    assert_eq!(
        what_changed_between(&own, same, same),
        WhatChanged::default()
    );
}

#[test]
fn what_changed_doc_example_and_net_effect_of_two_overrides() {
    let before = vec![label("m", "q", Some("wrong_join"))];
    let after = vec![label("m", "q", Some("correct_but_judged_fail"))];
    assert_eq!(
        what_changed(&before, &after).summary_line(),
        "1 label changed; sub-mode: wrong_join 1→0, correct_but_judged_fail 0→1; \
         family: query_construction 1→0, grading 0→1; \
         FM bucket: FM4 wrong impl 1→0, not a model failure 0→1"
    );
    // The same key re-labelled and then put back: nothing changed overall.
    let mut b = body();
    let mut f = OverridesFile::new("h");
    f.overrides = vec![
        relabel("m-a", "q2", Some("wrong_join"), "tool_loop"),
        relabel("m-a", "q2", Some("tool_loop"), "wrong_join"),
    ];
    f.overrides[1].new.correct_despite_fail = Some(0.2);
    let summary = apply_overrides(&mut b, &f).unwrap();
    assert_eq!(summary.replaced, 2);
    assert_eq!(summary.stale, vec!["m-a/q2".to_string()]); // 2nd original has cdf 0.2, not 0.9
    assert_eq!(summary.changes["dev"], WhatChanged::default());
    assert_eq!(b, body());
}
