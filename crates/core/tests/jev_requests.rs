//! The harness's exact Jev requests: failure labelling (harness-formats.md §7.2, §7.4, §7.5)
//! and schema retrieval (§5.3). Expected strings are copied from the spec text.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use indexmap::IndexMap;
use runlens_core::jev::label_request::{FailedCell, clip_result, label_request};
use runlens_core::jev::retrieval_request::{rank_tables, retrieval_request, schema_text};
use runlens_core::jev::{Answer, Question, validate_request};
use serde_json::{Value, json};

fn rules() -> IndexMap<String, String> {
    IndexMap::from([
        (
            "reference_date".to_owned(),
            "use the snapshot date as today".to_owned(),
        ),
        (
            "crm_join".to_owned(),
            "join CRM facts through dim_account".to_owned(),
        ),
    ])
}

fn instructions(question: &Question) -> &str {
    match question {
        Question::Noul { instructions, .. }
        | Question::Choice { instructions, .. }
        | Question::Score { instructions, .. } => {
            instructions.as_ref().and_then(Value::as_str).unwrap_or("")
        }
    }
}

#[test]
fn label_questions_have_the_exact_wording_and_order() {
    let request = label_request(&FailedCell::default(), 2000, None, &rules());
    let q = &request.questions;
    assert_eq!(
        instructions(&q["sub_mode"]),
        "Given the question, the reference SQL and answer, and the candidate's SQL, results, and final answer, pick the single most specific sub-mode for why the candidate failed. Its family is derived from your choice, so pick the sub-mode that fits best."
    );
    assert_eq!(
        instructions(&q["prevented_by_rule"]),
        "Which of these judgment-call schema-prompt rules best explains why the candidate failed? The mechanically checkable rules are scored separately in code, so they are not listed here; the state field `mechanical_checks` shows what the SQL did. Choose 'none' if no listed rule explains the failure."
    );
    assert_eq!(
        instructions(&q["schema_hint_would_help"]),
        "Would giving the candidate a correct schema-use hint (the right table, column, join, or grain) before it queried most likely have prevented this failure?"
    );
    assert_eq!(
        instructions(&q["correct_despite_fail"]),
        "Does the candidate's final answer actually look correct for the question, despite being scored a failure?"
    );
    assert!(
        !q.contains_key("family"),
        "the harness asks no family question"
    );
    let Question::Choice {
        criteria: sub_modes,
        ..
    } = &q["sub_mode"]
    else {
        panic!("sub_mode is a choice")
    };
    let keys: Vec<&str> = sub_modes.keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 16);
    assert_eq!(
        (keys[0], keys[6], keys[15]),
        ("misread_question", "wrong_join", "correct_but_judged_fail")
    );
    assert_eq!(
        sub_modes["wrong_join"],
        "joined on the wrong key, or missed a join the answer requires"
    );
    let Question::Choice {
        criteria: rule_options,
        ..
    } = &q["prevented_by_rule"]
    else {
        panic!("a choice")
    };
    assert_eq!(
        serde_json::to_value(rule_options).unwrap(),
        json!({"reference_date": "use the snapshot date as today", "crm_join": "join CRM facts through dim_account",
               "none": "no semantic rule explains this failure"})
    );
    assert_eq!(rule_options.keys().last().map(String::as_str), Some("none"));
    // The request passes the proxy's own validation.
    assert!(validate_request(&serde_json::to_value(&request).unwrap()).is_ok());
}

#[test]
fn label_state_keeps_the_harness_key_order_and_clips_results() {
    let cell = FailedCell {
        question: "How many seats?".into(),
        reference_sql: vec!["SELECT 1".into()],
        reference_answer: "1".into(),
        candidate_sqls: vec!["SELECT 2".into(), "SELECT 3".into()],
        candidate_results: vec![
            json!("x".repeat(2001)),
            json!([{"seats": 2, "name": "Åsa"}]),
        ],
        candidate_final_answer: json!("2"),
        candidate_turns: json!(7),
        candidate_error: Value::Null,
    };
    let checks = json!({"decidable": {"reference_date": "violation"}, "n_queries": 2, "has_repeated_query": false});
    let request = label_request(&cell, 2000, Some(&checks), &rules());
    let keys: Vec<&str> = request
        .state
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "question",
            "reference_sql",
            "reference_answer",
            "candidate_sqls",
            "candidate_results",
            "candidate_final_answer",
            "candidate_turns",
            "candidate_error",
            "mechanical_checks"
        ]
    );
    let results = request.state["candidate_results"].as_array().unwrap();
    assert_eq!(
        results[0],
        json!(format!("{} ...(truncated)", "x".repeat(2000)))
    );
    assert_eq!(results[1], json!(r#"[{"seats": 2, "name": "Åsa"}]"#));
    assert_eq!(request.state["candidate_error"], Value::Null);
    let without = label_request(&cell, 2000, None, &rules());
    assert!(without.state.get("mechanical_checks").is_none());
}

#[test]
fn clipping_counts_characters_not_bytes() {
    // 3 characters of 2 bytes each, cut at 2 characters.
    assert_eq!(clip_result(&json!("ééé"), 2), "éé ...(truncated)");
    assert_eq!(clip_result(&json!("ééé"), 3), "ééé");
    assert_eq!(
        clip_result(&json!({"a": null, "b": [1.5, true]}), 100),
        r#"{"a": null, "b": [1.5, true]}"#
    );
}

#[test]
fn retrieval_questions_are_positional_nouls_with_the_exact_instruction() {
    let universe = vec![
        "crm.dim_account".to_owned(),
        "crm.fct_opportunity".to_owned(),
        "marts.usage_daily".to_owned(),
    ];
    let request = retrieval_request("Which accounts churned?", "SCHEMA", &universe);
    assert_eq!(
        request.state,
        json!({"question": "Which accounts churned?", "schema": "SCHEMA"})
    );
    assert_eq!(
        request.questions.keys().collect::<Vec<_>>(),
        ["t0", "t1", "t2"]
    );
    assert_eq!(
        instructions(&request.questions["t1"]),
        "Is the table `crm.fct_opportunity` needed to answer the question? The full warehouse schema is in the state."
    );
}

#[test]
fn ranking_is_by_probability_with_ties_in_universe_order_and_missing_as_zero() {
    let universe: Vec<String> = ["a.x", "a.y", "b.z", "c.w"].map(String::from).to_vec();
    let answers = IndexMap::from([
        ("t0".to_owned(), Answer::Noul { noul: 0.3 }),
        ("t1".to_owned(), Answer::Noul { noul: 0.9 }),
        ("t2".to_owned(), Answer::Noul { noul: 0.3 }),
        // t3 missing → 0.0
    ]);
    let ranked = rank_tables(&universe, &answers);
    assert_eq!(
        ranked,
        [
            ("a.y".to_owned(), 0.9),
            ("a.x".to_owned(), 0.3),
            ("b.z".to_owned(), 0.3),
            ("c.w".to_owned(), 0.0)
        ]
    );
}

#[test]
fn schema_text_cuts_the_full_prompt_or_keeps_only_table_definitions() {
    let prompt = "You are an analyst.\nTo get revenue, sum.\nTable `crm.dim_account`\n- account_id\nTo get a count, use uniq.\n```sql\nSELECT 1\n```\n  Table `marts.usage_daily`\n- day\n**MRR guidance** below\nTable `x.after_end`\n";
    assert_eq!(
        schema_text(prompt, 16_000, true),
        "Table `crm.dim_account`\n- account_id\n  Table `marts.usage_daily`\n- day"
    );
    assert_eq!(schema_text(prompt, 8, false), "You are ");
    assert_eq!(schema_text(prompt, 16_000, false), prompt);
}
