//! Every form of a `sql_results` string (harness-formats.md §3.1), exactly.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn s(v: &str) -> Option<String> {
    Some(v.to_owned())
}

#[test]
fn empty_and_error_literals() {
    assert_eq!(result_table("(empty result)"), ResultView::Empty);
    assert_eq!(
        result_table("Error: only SELECT queries are allowed."),
        ResultView::Error("only SELECT queries are allowed.".into())
    );
    // Exact strings only: a near miss is text, not a table and not empty.
    assert!(matches!(
        result_table("(empty result) "),
        ResultView::Text { .. }
    ));
}

#[test]
fn rows_with_mixed_key_order_use_first_seen_columns() {
    let text =
        "{\"b\":1,\"a\":\"x\"}\n{\"a\":\"y\",\"c\":[1,{\"d\":null}],\"b\":2.5}\n{\"c\":true}";
    assert_eq!(
        result_table(text),
        ResultView::Table {
            columns: vec!["b".into(), "a".into(), "c".into()],
            rows: vec![
                vec![s("1"), s("x"), None],
                vec![s("2.5"), s("y"), s("[1,{\"d\":null}]")],
                vec![None, None, s("true")],
            ],
            truncated: false,
            partial_line_dropped: false,
        }
    );
}

#[test]
fn truncated_result_drops_the_cut_line_and_says_so() {
    let text = "{\"n\":1}\n{\"n\":2}\n{\"n\":3, \"na\n... (truncated)";
    assert_eq!(
        result_table(text),
        ResultView::Table {
            columns: vec!["n".into()],
            rows: vec![vec![s("1")], vec![s("2")]],
            truncated: true,
            partial_line_dropped: true,
        }
    );
    // Cut exactly at a line end: nothing dropped.
    assert_eq!(
        result_table("{\"n\":1}\n... (truncated)"),
        ResultView::Table {
            columns: vec!["n".into()],
            rows: vec![vec![s("1")]],
            truncated: true,
            partial_line_dropped: false,
        }
    );
}

#[test]
fn malformed_line_falls_back_to_text_with_a_note() {
    let text = "{\"n\":1}\nnot json\n{\"n\":3}";
    assert_eq!(
        result_table(text),
        ResultView::Text {
            text: text.into(),
            note: "line 2, column 2: not valid JSON".into()
        }
    );
    assert_eq!(
        result_table("[1,2]"),
        ResultView::Text {
            text: "[1,2]".into(),
            note: "line 1 is not a JSON object".into()
        }
    );
}

#[test]
fn blank_text_and_trailing_newline_and_crlf() {
    assert!(matches!(result_table(""), ResultView::Text { .. }));
    assert_eq!(
        result_table("{\"é\":\"ü\"}\r\n"),
        ResultView::Table {
            columns: vec!["é".into()],
            rows: vec![vec![s("ü")]],
            truncated: false,
            partial_line_dropped: false,
        }
    );
}

#[test]
fn hostile_text_is_kept_verbatim() {
    let text = "{\"x\":\"<script>alert(1)</script>\"}";
    let ResultView::Table { rows, .. } = result_table(text) else {
        panic!("expected a table");
    };
    assert_eq!(rows, vec![vec![s("<script>alert(1)</script>")]]);
}
