//! Audit queue order and filters; decision log semantics; JSON and CSV round trips and errors.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{Cell, Corpus, FailureLabel, Outcome, Question, ResultRow, ResultScore, Vote};

fn cell(outcome: &str, answer: &str) -> Option<Cell> {
    Some(Cell {
        final_answer: Some(answer.into()),
        result_score: Some(ResultScore {
            outcome: Some(Outcome::from_str_lossless(outcome)),
            votes: Some(vec![Vote {
                outcome: Some(Outcome::Fail),
                reasoning: Some("numbers differ".into()),
                judge: Some("j1".into()),
                data_equiv: Some("NOT EQUIVALENT".into()),
                ..Vote::default()
            }]),
            ..ResultScore::default()
        }),
        ..Cell::default()
    })
}

fn label(model: &str, trace_id: &str, cdf: Option<f64>) -> FailureLabel {
    FailureLabel {
        trace_id: trace_id.into(),
        model: model.into(),
        sub_mode: Some("wrong_join".into()),
        correct_despite_fail: cdf,
        ..FailureLabel::default()
    }
}

fn corpus() -> Corpus {
    let row = |id: &str, cells: Vec<(&str, Option<Cell>)>| ResultRow {
        trace_id: id.into(),
        nl_question: Some(format!("results copy of {id}")),
        candidates: cells.into_iter().map(|(m, c)| (m.into(), c)).collect(),
        ..ResultRow::default()
    };
    Corpus {
        name: "dev".into(),
        questions: vec![Question {
            trace_id: "q1".into(),
            nl_question: "How many open cases?".into(),
            gt_sql: vec!["SELECT count() FROM crm.c".into()],
            gt_answer: "3".into(),
            ..Question::default()
        }],
        results: vec![
            row(
                "q1",
                vec![("m-b", cell("fail", "three")), ("m-a", cell("fail", "3"))],
            ),
            row(
                "q2",
                vec![("m-a", cell("pass", "ok")), ("m-b", cell("tie", "x"))],
            ),
            row("q3", vec![("m-a", None)]),
        ],
        failure_labels: vec![
            label("m-b", "q1", Some(0.9)),
            label("m-a", "q1", Some(0.9)),
            label("m-a", "q2", Some(0.99)), // cell passes now: left out
            label("m-b", "q2", Some(0.65)), // exactly at the threshold: in
            label("m-a", "q3", Some(0.7)),  // null cell: in, without answer
            label("m-a", "q4", Some(0.6499)),
            label("m-a", "q5", None),
            label("m-a", "q6", Some(f64::NAN)),
            label("m-b", "q1", Some(0.1)), // repeated key: first kept
        ],
        ..Corpus::default()
    }
}

#[test]
fn queue_filters_sorts_and_carries_the_cell() {
    let queue = audit_queue(&corpus(), 0.65);
    let keys: Vec<&str> = queue.iter().map(|i| i.key.as_str()).collect();
    // 0.9 tie broken by model key (m-a < m-b), then 0.7, then 0.65.
    assert_eq!(keys, vec!["m-a/q1", "m-b/q1", "m-a/q3", "m-b/q2"]);
    let first = &queue[0];
    assert_eq!(first.question, "How many open cases?");
    assert_eq!(first.gold_answer.as_deref(), Some("3"));
    assert_eq!(
        first.gold_sql,
        vec!["SELECT count() FROM crm.c".to_string()]
    );
    assert_eq!(first.candidate_answer.as_deref(), Some("3"));
    assert_eq!(first.outcome, Some(Outcome::Fail));
    assert_eq!(first.votes.len(), 1);
    assert_eq!(first.data_equiv.as_deref(), Some("NOT EQUIVALENT"));
    assert_eq!(first.correct_despite_fail, 0.9);
    let null_cell = &queue[2];
    assert_eq!(null_cell.question, "results copy of q3");
    assert_eq!(null_cell.gold_answer, None);
    assert_eq!(null_cell.candidate_answer, None);
    assert!(null_cell.votes.is_empty());
    assert_eq!(queue[3].outcome, Some(Outcome::Tie));
    assert_eq!(audit_queue(&corpus(), 0.95).len(), 0);
}

fn decision(key: &str, verdict: Verdict, note: &str, at: &str) -> AuditDecision {
    AuditDecision {
        key: key.into(),
        verdict,
        note: note.into(),
        decided_at: at.into(),
    }
}

fn sample_log() -> AuditLog {
    let mut log = AuditLog::new();
    log.record(decision(
        "m-a/q1",
        Verdict::GraderWrong,
        "",
        "2026-12-02T18:00:00Z",
    ));
    log.record(decision(
        "org/model,x/q2",
        Verdict::Unsure,
        "says \"3\",\nnot 4; ü <b>",
        "2026-12-02T18:01:00Z",
    ));
    log.record(decision(
        "m-b/q3",
        Verdict::GraderRight,
        "x",
        "2026-12-02T18:02:00Z",
    ));
    log
}

#[test]
fn latest_decision_wins_and_counts_follow() {
    let mut log = sample_log();
    assert!(!log.record(decision(
        "m-a/q1",
        Verdict::Unsure,
        "old",
        "2026-12-02T17:00:00Z"
    )));
    assert!(log.record(decision(
        "m-a/q1",
        Verdict::GraderRight,
        "",
        "2026-12-02T19:00:00Z"
    )));
    assert_eq!(
        log.get("m-a/q1").map(|d| d.verdict),
        Some(Verdict::GraderRight)
    );
    let keys: Vec<&str> = log.decisions().map(|d| d.key.as_str()).collect();
    assert_eq!(keys, vec!["m-a/q1", "org/model,x/q2", "m-b/q3"]);
    assert_eq!(
        log.counts(),
        AuditCounts {
            total: 3,
            grader_wrong: 0,
            grader_right: 2,
            unsure: 1
        }
    );
    assert!(log.remove("m-b/q3").is_some());
    assert_eq!(log.counts().total, 2);
}

#[test]
fn json_round_trip_and_exact_shape() {
    let log = sample_log();
    let json = log.to_json();
    assert_eq!(AuditLog::from_json(&json), Ok(log.clone()));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["format"], "runlens-audit");
    assert_eq!(value["version"], 1);
    assert_eq!(value["decisions"][0]["verdict"], "grader_wrong");
    assert_eq!(value["decisions"][1]["note"], "says \"3\",\nnot 4; ü <b>");
}

#[test]
fn csv_round_trip_and_exact_text() {
    let log = sample_log();
    let csv = log.to_csv();
    assert_eq!(
        csv,
        "key,verdict,note,decided_at\n\
         m-a/q1,grader_wrong,,2026-12-02T18:00:00Z\n\
         \"org/model,x/q2\",unsure,\"says \"\"3\"\",\nnot 4; ü <b>\",2026-12-02T18:01:00Z\n\
         m-b/q3,grader_right,x,2026-12-02T18:02:00Z\n"
    );
    assert_eq!(AuditLog::from_csv(&csv), Ok(log.clone()));
    // CRLF line ends, a byte-order mark and a blank last line read the same.
    let crlf = format!("\u{feff}{}\r\n", csv.replace("Z\n", "Z\r\n"));
    assert_eq!(AuditLog::from_csv(&crlf), Ok(log));
}

#[test]
fn csv_errors_name_line_and_field() {
    let bad =
        "key,verdict,note,decided_at\na/q1,grader_wrong,,t\n\"b/q2\",maybe,\"two\nlines\",t\n";
    let e = AuditLog::from_csv(bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "audit CSV: line 3: field verdict: expected one of grader_wrong, grader_right, unsure, found \"maybe\""
    );
    let e = AuditLog::from_csv("key,verdict,note,decided_at\na/q1,unsure,t\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "audit CSV: line 2: expected 4 fields (key,verdict,note,decided_at), found 3 fields"
    );
    let e = AuditLog::from_csv("key;verdict\n").unwrap_err();
    assert_eq!(e.line, Some(1));
    assert_eq!(AuditLog::from_csv("").unwrap_err().line, Some(1));
}

#[test]
fn json_errors_name_line_and_field() {
    let bad = "{\n  \"format\": \"runlens-audit\",\n  \"version\": 1,\n  \"decisions\": [\n    {\"key\": \"a\", \"verdict\": \"grader_wrong\", \"note\": \"\", \"decided_at\": \"t\"},\n    {\"key\": \"b\",\n     \"verdict\": \"yes\", \"note\": \"\", \"decided_at\": \"t\"}\n  ]\n}";
    let e = AuditLog::from_json(bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "audit JSON: line 7: field decisions[1].verdict: expected one of grader_wrong, grader_right, unsure, found \"yes\""
    );
    let e = AuditLog::from_json(
        "{\"format\": \"runlens-audit\", \"version\": 1, \"decisions\": [{\"key\": 5}]}",
    )
    .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("decisions[0].key"));
    assert_eq!(e.found, "number 5");
    let e = AuditLog::from_json("{\"format\": \"other\"}").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("format"));
    let e = AuditLog::from_json("{\n\"format\": ").unwrap_err();
    assert_eq!((e.line, e.field), (Some(2), None));
}

#[test]
fn amend_keeps_the_earlier_verdict_or_note() {
    let mut log = AuditLog::new();
    // First decision with a note only: unsure.
    assert!(log.amend(
        "m/q",
        None,
        Some("looks right".into()),
        "2026-12-05T08:00:00Z".into()
    ));
    let d = log.get("m/q").unwrap();
    assert_eq!(
        (d.verdict, d.note.as_str()),
        (Verdict::Unsure, "looks right")
    );
    // A verdict keeps the note; a note keeps the verdict.
    log.amend(
        "m/q",
        Some(Verdict::GraderWrong),
        None,
        "2026-12-05T08:01:00Z".into(),
    );
    let d = log.get("m/q").unwrap();
    assert_eq!(
        (d.verdict, d.note.as_str()),
        (Verdict::GraderWrong, "looks right")
    );
    log.amend(
        "m/q",
        None,
        Some("rows match".into()),
        "2026-12-05T08:02:00Z".into(),
    );
    let d = log.get("m/q").unwrap();
    assert_eq!(
        (d.verdict, d.note.as_str()),
        (Verdict::GraderWrong, "rows match")
    );
    // An older amendment is not recorded.
    assert!(!log.amend(
        "m/q",
        Some(Verdict::GraderRight),
        None,
        "2026-12-05T07:00:00Z".into()
    ));
    assert_eq!(log.len(), 1);
}

/// The view's answer: the same queue as `audit_queue` for one corpus, a corpus the bundle
/// lacks counts as every corpus, the model selection, re-labels in force, and no vote
/// reasoning in the answer.
#[test]
fn the_views_answer_is_the_queue_with_relabels_in_force_and_without_vote_reasons() {
    use crate::bundle::BundleBody;
    use crate::overrides::Relabel;
    let body = BundleBody {
        corpora: vec![
            corpus(),
            Corpus {
                name: "empty".into(),
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    };
    let mut answerer = AuditAnswerer::default();
    let mut q = AuditQuery {
        corpus: Some("nowhere".into()),
        threshold: 0.65,
        models: Vec::new(),
        relabels: Vec::new(),
    };
    let a = answerer.answer(&body, &q);
    assert_eq!(a.corpora, ["dev"]);
    let keys: Vec<&str> = a.entries.iter().map(|e| e.item.key.as_str()).collect();
    // As `audit_queue` of dev: 0.9 (m-a before m-b), 0.7, 0.65.
    assert_eq!(keys, ["m-a/q1", "m-b/q1", "m-a/q3", "m-b/q2"]);
    assert!(a.entries.iter().all(|e| e.corpus == "dev"));
    assert!(
        a.entries
            .iter()
            .flat_map(|e| &e.item.votes)
            .all(|v| v.reasoning.is_none() && v.judge.as_deref() == Some("j1"))
    );
    q.models = vec!["m-b".into()];
    let keys: Vec<String> = answerer
        .answer(&body, &q)
        .entries
        .into_iter()
        .map(|e| e.item.key)
        .collect();
    assert_eq!(keys, ["m-b/q1", "m-b/q2"]);
    // m-b/q2 re-labelled below the threshold; m-b/q3 (no cell in the results) added above.
    q.relabels = vec![
        Relabel {
            corpus: "dev".into(),
            label: label("m-b", "q2", Some(0.2)),
        },
        Relabel {
            corpus: "dev".into(),
            label: label("m-b", "q3", Some(0.8)),
        },
    ];
    let keys: Vec<String> = answerer
        .answer(&body, &q)
        .entries
        .into_iter()
        .map(|e| e.item.key)
        .collect();
    assert_eq!(keys, ["m-b/q1", "m-b/q3"]);
}
