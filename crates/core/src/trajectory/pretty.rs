//! SQL laid out for reading: a statement written on one line gets a line break before each
//! clause of the outer query (`FROM`, `WHERE`, `GROUP BY`, a join, …) and an indented one
//! before each `AND` / `OR` of its `WHERE` / `HAVING`. Only whitespace changes: every other
//! span is kept as written (the text shown is the text the agent ran), subqueries and
//! function arguments stay on their line, and SQL its author already laid out (indented
//! lines) is left as it is.

use super::highlight::{HighlightSpan, SpanKind};

/// Clauses of the outer query that start a line.
const CLAUSES: [&str; 12] = [
    "SELECT", "FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION",
    "SETTINGS", "QUALIFY", "WINDOW",
];

/// Words that start a join (a line of their own).
const JOIN_START: [&str; 10] = [
    "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "ASOF", "SEMI", "ANTI", "GLOBAL",
];

/// Words that may come inside a join's keywords (`LEFT OUTER JOIN`, `ANY LEFT JOIN`).
const JOIN_PART: [&str; 3] = ["OUTER", "ANY", "ALL"];

/// `spans` (of [`super::sql_highlight`]) with line breaks before the outer query's clauses.
pub fn sql_pretty(spans: Vec<HighlightSpan>) -> Vec<HighlightSpan> {
    // Lines that start indented: the author's own layout, kept.
    let indented = |s: &HighlightSpan| {
        s.kind == SpanKind::Whitespace && (s.text.contains("\n ") || s.text.contains("\n\t"))
    };
    if spans.iter().any(indented) {
        return spans;
    }
    // The significant spans' upper-case words, for looking back and ahead.
    let words: Vec<Option<String>> = spans
        .iter()
        .map(|s| (s.kind != SpanKind::Whitespace).then(|| s.text.to_ascii_uppercase()))
        .collect();
    let next_word = |i: usize| words[i + 1..].iter().flatten().next().map(String::as_str);
    let joined =
        |w: Option<&str>| w.is_some_and(|w| JOIN_START.contains(&w) || JOIN_PART.contains(&w));
    let mut out: Vec<HighlightSpan> = Vec::with_capacity(spans.len() + 8);
    let (mut depth, mut clause, mut between) = (0i32, String::new(), false);
    let mut prev: Option<&str> = None;
    for (i, span) in spans.into_iter().enumerate() {
        let Some(word) = words[i].as_deref() else {
            out.push(span);
            continue;
        };
        let keyword = span.kind == SpanKind::Keyword;
        let outer = depth == 0 && prev.is_some();
        let brk = if !outer {
            None
        } else if prev == Some(";") {
            Some("\n")
        } else if !keyword {
            None
        } else if (CLAUSES.contains(&word) && !(word == "SELECT" && joined(prev)))
            || (JOIN_START.contains(&word) && !joined(prev) && next_word(i) != Some("("))
        {
            Some("\n")
        } else if matches!(word, "AND" | "OR") && !between {
            matches!(clause.as_str(), "WHERE" | "PREWHERE" | "HAVING").then_some("\n  ")
        } else {
            None
        };
        if let Some(brk) = brk {
            match out.last_mut() {
                Some(last) if last.kind == SpanKind::Whitespace => last.text = brk.to_owned(),
                _ => out.push(HighlightSpan {
                    kind: SpanKind::Whitespace,
                    text: brk.to_owned(),
                }),
            }
        }
        match word {
            "(" => depth += 1,
            ")" => depth = (depth - 1).max(0),
            "BETWEEN" if keyword => between = true,
            "AND" if keyword && between => between = false,
            w if keyword && depth == 0 && (CLAUSES.contains(&w) || JOIN_START.contains(&w)) => {
                clause = w.to_owned();
            }
            _ => {}
        }
        prev = Some(word);
        out.push(span);
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::trajectory::sql_highlight;

    fn pretty(sql: &str) -> String {
        let spans = sql_pretty(sql_highlight(sql));
        // Only whitespace changed: the other spans are the input's, in order.
        let kept = |s: &[HighlightSpan]| {
            s.iter()
                .filter(|s| s.kind != SpanKind::Whitespace)
                .map(|s| s.text.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(&spans), kept(&sql_highlight(sql)));
        spans.into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn outer_clauses_start_lines_and_conditions_are_indented() {
        assert_eq!(
            pretty(
                "SELECT d.name, sum(f.h) AS total FROM crm.f AS f JOIN crm.d AS d ON d.k = f.k WHERE d.name = 'Kelly Inc' AND f.day BETWEEN 1 AND 2 OR x GROUP BY d.name ORDER BY total DESC LIMIT 5"
            ),
            "SELECT d.name, sum(f.h) AS total\nFROM crm.f AS f\nJOIN crm.d AS d ON d.k = f.k\nWHERE d.name = 'Kelly Inc'\n  AND f.day BETWEEN 1 AND 2\n  OR x\nGROUP BY d.name\nORDER BY total DESC\nLIMIT 5"
        );
    }

    #[test]
    fn subqueries_functions_and_join_words_stay_together() {
        assert_eq!(
            pretty(
                "SELECT a FROM t LEFT OUTER JOIN u ON t.k = u.k WHERE t.d = (SELECT max(d) FROM t WHERE x AND y) AND left(a, 2) = 'ab'"
            ),
            "SELECT a\nFROM t\nLEFT OUTER JOIN u ON t.k = u.k\nWHERE t.d = (SELECT max(d) FROM t WHERE x AND y)\n  AND left(a, 2) = 'ab'"
        );
        assert_eq!(
            pretty("SELECT 1 UNION ALL SELECT 2; SELECT 3"),
            "SELECT 1\nUNION ALL SELECT 2;\nSELECT 3"
        );
    }

    #[test]
    fn sql_already_laid_out_or_a_fragment_is_left_as_written() {
        let written = "SELECT a\n  FROM t WHERE x";
        assert_eq!(pretty(written), written);
        // Statements on lines of their own, not laid out: each is.
        assert_eq!(
            pretty("SELECT k FROM t LIMIT 20\nSELECT a FROM t WHERE x"),
            "SELECT k\nFROM t\nLIMIT 20\nSELECT a\nFROM t\nWHERE x"
        );
        assert_eq!(pretty("SELECT 1"), "SELECT 1");
        assert_eq!(pretty(""), "");
        assert_eq!(pretty("not sql at all ("), "not sql at all (");
    }
}
