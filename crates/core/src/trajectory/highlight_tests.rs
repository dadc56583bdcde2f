//! Exact spans for typical harness SQL and for input the tokenizer rejects.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn spans(sql: &str) -> Vec<(SpanKind, &str)> {
    // Leak-free comparison helper: pair kinds with the original slices.
    let out = sql_highlight(sql);
    let joined: std::string::String = out.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(joined, sql, "spans must concatenate to the input");
    let mut at = 0;
    out.iter()
        .map(|s| {
            let text = &sql[at..at + s.text.len()];
            at += s.text.len();
            (s.kind, text)
        })
        .collect()
}

use SpanKind::*;

#[test]
fn select_with_every_kind() {
    let sql =
        "SELECT `name`, count(*) AS n -- top\nFROM crm.dim_account WHERE id = 'a''b' AND x >= 1.5;";
    assert_eq!(
        spans(sql),
        vec![
            (Keyword, "SELECT"),
            (Whitespace, " "),
            (QuotedIdentifier, "`name`"),
            (Punctuation, ","),
            (Whitespace, " "),
            (Keyword, "count"),
            (Punctuation, "("),
            (Operator, "*"),
            (Punctuation, ")"),
            (Whitespace, " "),
            (Keyword, "AS"),
            (Whitespace, " "),
            (Identifier, "n"),
            (Whitespace, " "),
            (Comment, "-- top"),
            (Whitespace, "\n"),
            (Keyword, "FROM"),
            (Whitespace, " "),
            (Identifier, "crm"),
            (Punctuation, "."),
            (Identifier, "dim_account"),
            (Whitespace, " "),
            (Keyword, "WHERE"),
            (Whitespace, " "),
            (Keyword, "id"), // keyword-like names are keywords to the tokenizer
            (Whitespace, " "),
            (Operator, "="),
            (Whitespace, " "),
            (String, "'a''b'"),
            (Whitespace, " "),
            (Keyword, "AND"),
            (Whitespace, " "),
            (Identifier, "x"),
            (Whitespace, " "),
            (Operator, ">="),
            (Whitespace, " "),
            (Number, "1.5"),
            (Punctuation, ";"),
        ]
    );
}

#[test]
fn multi_line_comment_tabs_and_non_ascii_keep_exact_text() {
    let sql = "/* ü\r\n */\tSELECT 'é'";
    assert_eq!(
        spans(sql),
        vec![
            (Comment, "/* ü\r\n */"),
            (Whitespace, "\t"),
            (Keyword, "SELECT"),
            (Whitespace, " "),
            (String, "'é'"),
        ]
    );
}

#[test]
fn unterminated_string_highlights_the_prefix_then_other() {
    let sql = "SELECT 'abc";
    assert_eq!(
        spans(sql),
        vec![(Keyword, "SELECT"), (Whitespace, " "), (Other, "'abc")]
    );
}

#[test]
fn keyword_like_names_in_qualified_names_are_identifiers() {
    assert_eq!(
        spans("SELECT u.day FROM system.tables"),
        vec![
            (Keyword, "SELECT"),
            (Whitespace, " "),
            (Identifier, "u"),
            (Punctuation, "."),
            (Identifier, "day"),
            (Whitespace, " "),
            (Keyword, "FROM"),
            (Whitespace, " "),
            (Identifier, "system"),
            (Punctuation, "."),
            (Identifier, "tables"),
        ]
    );
}

#[test]
fn empty_input_gives_no_spans() {
    assert!(sql_highlight("").is_empty());
}

#[test]
fn placeholder_and_cast_operator() {
    assert_eq!(
        spans("x::Int32 = ?"),
        vec![
            (Identifier, "x"),
            (Operator, "::"),
            (Keyword, "Int32"),
            (Whitespace, " "),
            (Operator, "="),
            (Whitespace, " "),
            (Placeholder, "?"),
        ]
    );
}
