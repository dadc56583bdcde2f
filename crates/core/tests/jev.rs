//! runlens_core::jev: validation bodies (422 items / 400 strings), the official SDK's
//! error-message order, and tolerant response parsing. Expected bodies follow the API's
//! OpenAPI (typesafe-sdk 0.7.5 `_schemas/models.py`) and jev-api.md §4, §7.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use runlens_core::jev::{
    Answer, Question, RequestError, SystemOneResponse, error_message, validate_request,
};
use serde_json::{Value, json};

fn detail(body: Value) -> Value {
    validate_request(&body).unwrap_err().body()["detail"].clone()
}

fn locs(body: Value) -> Vec<String> {
    detail(body)
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["loc"].to_string())
        .collect()
}

#[test]
fn a_full_valid_request_is_typed_and_unknown_fields_are_dropped() {
    let body = json!({
        "model": "jev-1.13.0", "extra": true,
        "state": {"message": "I was charged twice"},
        "questions": {
            "billing": {"type": "noul", "criteria": {"true": "a charge"}},
            "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": null, "tech": {"k": 1}}},
            "urgency": {"type": "score", "criteria": ["Can wait", "Today"], "note": "ignored"}
        }
    });
    let request = validate_request(&body).unwrap();
    assert_eq!(request.model.as_deref(), Some("jev-1.13.0"));
    let kinds: Vec<&str> = request.questions.values().map(Question::kind).collect();
    assert_eq!(kinds, ["noul", "choice", "score"]);
    let forwarded = serde_json::to_value(&request).unwrap();
    assert!(forwarded.get("extra").is_none());
    assert!(forwarded["questions"]["urgency"].get("note").is_none());
    assert_eq!(
        forwarded["questions"]["team"]["criteria"]["billing"],
        Value::Null
    );
}

#[test]
fn missing_state_and_questions_are_reported_together() {
    let items = detail(json!({"model": "jev-1.13.0"}));
    assert_eq!(
        items,
        json!([
            {"type": "missing", "loc": ["body", "state"], "msg": "Field required", "input": {"model": "jev-1.13.0"}},
            {"type": "missing", "loc": ["body", "questions"], "msg": "Field required", "input": {"model": "jev-1.13.0"}}
        ])
    );
}

#[test]
fn a_body_that_is_not_an_object_is_model_attributes_type() {
    assert_eq!(detail(json!([1]))[0]["type"], "model_attributes_type");
    assert_eq!(detail(json!([1]))[0]["loc"], json!(["body"]));
}

#[test]
fn a_number_or_null_state_fails_each_union_member() {
    // pydantic reports a failed `str | dict[str, Any] | list[Any]` once per member.
    for state in [json!(5), Value::Null] {
        let items = detail(
            json!({"state": state, "questions": {"q": {"type": "noul", "instructions": "?"}}}),
        );
        let kinds: Vec<&str> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["type"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["string_type", "dict_type", "list_type"]);
        assert_eq!(items[1]["loc"], json!(["body", "state", "dict[str,any]"]));
    }
}

#[test]
fn empty_questions_is_too_short() {
    let items = detail(json!({"state": "s", "questions": {}}));
    assert_eq!(items[0]["type"], "too_short");
    assert_eq!(
        items[0]["msg"],
        "Dictionary should have at least 1 item after validation, not 0"
    );
    assert_eq!(
        items[0]["ctx"],
        json!({"field_type": "Dictionary", "min_length": 1, "actual_length": 0})
    );
}

#[test]
fn question_tags_are_checked_like_a_discriminated_union() {
    let body = json!({"state": "s", "questions": {"a": {"instructions": "?"}, "b": {"type": "box"}, "c": "text"}});
    let items = detail(body);
    assert_eq!(items[0]["type"], "union_tag_not_found");
    assert_eq!(
        items[0]["msg"],
        "Unable to extract tag using discriminator 'type'"
    );
    assert_eq!(items[1]["type"], "union_tag_invalid");
    assert_eq!(
        items[1]["msg"],
        "Input tag 'box' found using 'type' does not match any of the expected tags: 'noul', 'choice', 'score'"
    );
    assert_eq!(items[2]["type"], "model_attributes_type");
    assert_eq!(items[2]["loc"], json!(["body", "questions", "c"]));
}

#[test]
fn locations_name_the_question_id_and_tag() {
    let body = json!({"state": "s", "questions": {
        "t.0": {"type": "choice"},
        "lvl": {"type": "score", "criteria": ["ok", null]},
        "yn": {"type": "noul", "criteria": {"true": 3}},
    }});
    assert_eq!(
        locs(body),
        [
            r#"["body","questions","t.0","choice","criteria"]"#,
            r#"["body","questions","lvl","score","criteria",1,"str"]"#,
            r#"["body","questions","lvl","score","criteria",1,"dict[str,any]"]"#,
            r#"["body","questions","lvl","score","criteria",1,"list[any]"]"#,
            r#"["body","questions","yn","noul","criteria","true","str"]"#,
            r#"["body","questions","yn","noul","criteria","true","dict[str,any]"]"#,
            r#"["body","questions","yn","noul","criteria","true","list[any]"]"#,
        ]
    );
}

#[test]
fn a_noul_with_neither_instructions_nor_criteria_is_refused() {
    let items = detail(
        json!({"state": "s", "questions": {"q": {"type": "noul", "criteria": {"true": null}}}}),
    );
    assert_eq!(items[0]["type"], "value_error");
    assert_eq!(items[0]["loc"], json!(["body", "questions", "q", "noul"]));
}

#[test]
fn image_assets_are_refused_without_echoing_them() {
    let items = detail(
        json!({"state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}, "assets": {"a": {}}}),
    );
    assert_eq!(items[0]["loc"], json!(["body", "assets"]));
    assert!(items[0].get("input").is_none());
}

#[test]
fn semantic_limits_are_plain_string_400s() {
    let choices = |n: usize| -> serde_json::Map<String, Value> {
        (0..n).map(|i| (format!("c{i}"), Value::Null)).collect()
    };
    let levels = |n: usize| -> Vec<String> { (0..n).map(|i| format!("level {i}")).collect() };
    let ask =
        |question: Value| validate_request(&json!({"state": "s", "questions": {"q7": question}}));
    let limit = |question: Value| match ask(question) {
        Err(RequestError::Limit(text)) => text,
        other => panic!("expected a 400, got {other:?}"),
    };
    assert_eq!(
        limit(json!({"type": "choice", "criteria": choices(256)})),
        "Too many choices. Must have at most 255 choices."
    );
    assert!(ask(json!({"type": "choice", "criteria": choices(255)})).is_ok());
    assert_eq!(
        limit(json!({"type": "score", "criteria": levels(11)})),
        "Too many score levels. Must have at most 10 levels."
    );
    assert!(ask(json!({"type": "score", "criteria": levels(10)})).is_ok());
    assert_eq!(
        ask(json!({"type": "score", "criteria": levels(11)}))
            .unwrap_err()
            .status(),
        400
    );
}

/// jev-api.md §9.2: "choice has 1 to 255 options", "score has 2 to 10 non-null levels" are
/// schema checks (422, FastAPI items naming the question); only *too many* is a 400 (§7).
#[test]
fn too_few_options_or_levels_are_422_too_short_items() {
    let ask = |question: Value| {
        let body = json!({"state": "s", "questions": {"q7": question}});
        let error = validate_request(&body).unwrap_err();
        (error.status(), error.body())
    };
    assert_eq!(
        ask(json!({"type": "choice", "criteria": {}})),
        (
            422,
            json!({"detail": [{
                "type": "too_short",
                "loc": ["body", "questions", "q7", "choice", "criteria"],
                "msg": "Dictionary should have at least 1 item after validation, not 0",
                "input": {},
                "ctx": {"field_type": "Dictionary", "min_length": 1, "actual_length": 0}
            }]})
        )
    );
    assert_eq!(
        ask(json!({"type": "score", "criteria": ["only one"]})),
        (
            422,
            json!({"detail": [{
                "type": "too_short",
                "loc": ["body", "questions", "q7", "score", "criteria"],
                "msg": "List should have at least 2 items after validation, not 1",
                "input": ["only one"],
                "ctx": {"field_type": "List", "min_length": 2, "actual_length": 1}
            }]})
        )
    );
    assert_eq!(
        ask(json!({"type": "score", "criteria": []})).1["detail"][0]["msg"],
        "List should have at least 2 items after validation, not 0"
    );
    // A null level is refused as content (3 union members) and still counts as a level.
    let (status, body) = ask(json!({"type": "score", "criteria": ["low", null]}));
    assert_eq!(status, 422);
    let locs: Vec<String> = body["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["loc"].to_string())
        .collect();
    assert_eq!(
        locs,
        [
            r#"["body","questions","q7","score","criteria",1,"str"]"#,
            r#"["body","questions","q7","score","criteria",1,"dict[str,any]"]"#,
            r#"["body","questions","q7","score","criteria",1,"list[any]"]"#,
        ]
    );
}

#[test]
fn schema_errors_win_over_limits() {
    // A 422 anywhere means no 400 is computed (validation runs before the handler's checks).
    let body = json!({"questions": {"q": {"type": "score", "criteria": vec!["x"; 11]}}});
    assert_eq!(validate_request(&body).unwrap_err().status(), 422);
}

#[test]
fn log_summaries_hold_codes_and_locations_but_no_input() {
    let error = validate_request(&json!({"state": 5, "questions": {"secret-id": "secret text"}}))
        .unwrap_err();
    let summary = error.log_summary();
    assert!(summary.starts_with("string_type@body.state"), "{summary}");
    assert!(!summary.contains("secret text"));
}

#[test]
fn error_messages_follow_the_sdk_extraction_order() {
    // Order: error (string), error.message, message, detail (string), detail.message, detail[].
    let cases = [
        (
            json!({"error": "e", "message": "m", "detail": "d"}),
            Some("e"),
        ),
        (
            json!({"error": {"message": "em"}, "message": "m"}),
            Some("em"),
        ),
        (
            json!({"error": 3, "message": "m", "detail": "d"}),
            Some("m"),
        ),
        (
            json!({"detail": "Too many choices. Must have at most 255 choices."}),
            Some("Too many choices. Must have at most 255 choices."),
        ),
        (
            json!({"detail": {"error_type": "api_usage_error", "message": "Unknown model: jev-9"}}),
            Some("Unknown model: jev-9"),
        ),
        (
            json!({"detail": {"error_type": "max_tokens_exceeded"}}),
            None,
        ),
        (json!("plain text"), Some("plain text")),
        (json!(""), None),
        (json!(42), None),
    ];
    for (body, expected) in cases {
        assert_eq!(error_message(&body).as_deref(), expected, "body {body}");
    }
    let list = json!({"detail": [
        {"type": "missing", "loc": ["body", "questions", "q1", "score", "criteria", 0], "msg": "Field required"},
        {"type": "x", "loc": ["body"], "msg": "Bad body"},
        {"type": "no msg", "loc": ["body", "state"]}
    ]});
    assert_eq!(
        error_message(&list).as_deref(),
        Some("questions.q1.score.criteria.0: Field required; Bad body")
    );
}

#[test]
fn responses_parse_all_answer_types_and_tolerate_unknowns() {
    let text = r#"{"model":"jev-1.13.0","new_top_level":1,"usage":{"input_tokens":120,"output_tokens":12},
      "answers":{
        "b":{"type":"noul","noul":0.98},
        "t":{"type":"choice","choice":"billing","confidence":0.9,"probabilities":{"billing":0.93,"technical":0.07},"extra":1},
        "u":{"type":"score","score":1.7,"confidence":0.78,"legend":{"0":"Can wait","1":"This week","2":"Today"},"probabilities":{"0":0.05,"1":0.2,"2":0.75}},
        "x":{"type":"box","box":{"top":0.2,"bottom":0.66,"left":0.19,"right":0.68},"confidence":null}}}"#;
    let response: SystemOneResponse = serde_json::from_str(text).unwrap();
    assert_eq!(response.usage.unwrap().input_tokens, 120);
    assert_eq!(response.answers["b"], Answer::Noul { noul: 0.98 });
    match &response.answers["t"] {
        Answer::Choice {
            choice,
            confidence,
            probabilities,
        } => {
            assert_eq!((choice.as_str(), *confidence), ("billing", 0.9));
            assert_eq!(
                probabilities.keys().collect::<Vec<_>>(),
                ["billing", "technical"]
            );
        }
        other => panic!("expected a choice, got {other:?}"),
    }
    assert!(
        matches!(&response.answers["u"], Answer::Score { score, legend, .. } if *score == 1.7 && legend.len() == 3)
    );
    assert_eq!(response.answers["x"], Answer::Unknown);
    let order: Vec<&str> = response.answers.keys().map(String::as_str).collect();
    assert_eq!(order, ["b", "t", "u", "x"]);
}
