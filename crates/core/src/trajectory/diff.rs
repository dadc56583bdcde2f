//! Gold vs candidate SQL diff: line level, with inline word changes on replaced lines
//! (the `similar` crate's Patience diff and inline refinement).
//!
//! No deadline is ever set: `similar`'s default inline deadline reads the clock, and
//! `std::time::Instant::now` panics on wasm32-unknown-unknown.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};

/// Which side a diff line belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DiffTag {
    /// In both.
    Equal,
    /// Only in the gold (old) side.
    Delete,
    /// Only in the candidate (new) side.
    Insert,
}

/// One line of the diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffLine {
    /// Which side the line is on.
    pub tag: DiffTag,
    /// The line without its line ending.
    pub text: String,
    /// The line cut into `(emphasised, text)` pieces that concatenate to `text`; emphasised
    /// pieces are the words that changed against the paired line on the other side.
    /// Equal lines and unpaired lines are one unemphasised piece.
    pub inline: Vec<(bool, String)>,
}

/// Diffs `gold` against `candidate` line by line, with inline word emphasis.
///
/// Example: `"SELECT a\nFROM t"` vs `"SELECT b\nFROM t"` → Delete `SELECT a` (with `a`
/// emphasised), Insert `SELECT b` (with `b` emphasised), Equal `FROM t`.
pub fn sql_diff(gold: &str, candidate: &str) -> Vec<DiffLine> {
    // A last line without its newline would never equal the same line with one.
    let (gold, candidate) = (terminated(gold), terminated(candidate));
    let diff = TextDiff::configure().diff_lines(gold.as_str(), candidate.as_str());
    let mut out = Vec::new();
    for op in diff.ops() {
        for change in diff.iter_inline_changes_deadline(op, None) {
            let tag = match change.tag() {
                ChangeTag::Equal => DiffTag::Equal,
                ChangeTag::Delete => DiffTag::Delete,
                ChangeTag::Insert => DiffTag::Insert,
            };
            let mut inline: Vec<(bool, String)> = change
                .iter_strings_lossy()
                .map(|(emphasised, text)| (emphasised, text.into_owned()))
                .collect();
            strip_line_ending(&mut inline);
            let text: String = inline.iter().map(|(_, t)| t.as_str()).collect();
            if inline.is_empty() {
                inline.push((false, String::new()));
            }
            out.push(DiffLine { tag, text, inline });
        }
    }
    out
}

/// [`sql_diff`] over statement lists, each list joined with a blank line between statements.
pub fn sql_diff_statements<S: AsRef<str>>(gold: &[S], candidate: &[S]) -> Vec<DiffLine> {
    let join = |list: &[S]| {
        list.iter()
            .map(|s| s.as_ref().trim_end())
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    sql_diff(&join(gold), &join(candidate))
}

/// The text with a final `\n` added when it lacks one (empty text stays empty).
fn terminated(text: &str) -> String {
    let mut owned = text.to_owned();
    if !owned.is_empty() && !owned.ends_with('\n') {
        owned.push('\n');
    }
    owned
}

/// Removes a trailing `\n` or `\r\n` from the last pieces, dropping pieces left empty.
fn strip_line_ending(pieces: &mut Vec<(bool, String)>) {
    for ending in ["\n", "\r"] {
        while let Some((_, last)) = pieces.last_mut() {
            if last.is_empty() {
                pieces.pop();
                continue;
            }
            if let Some(stripped) = last.strip_suffix(ending) {
                *last = stripped.to_owned();
                if last.is_empty() {
                    pieces.pop();
                }
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn line(tag: DiffTag, pieces: &[(bool, &str)]) -> DiffLine {
        DiffLine {
            tag,
            text: pieces.iter().map(|(_, t)| *t).collect(),
            inline: pieces.iter().map(|(e, t)| (*e, (*t).to_owned())).collect(),
        }
    }

    #[test]
    fn replaced_line_gets_word_emphasis() {
        let gold = "SELECT count(*)\nFROM crm.fct_support_case\nWHERE status = 'open'";
        let cand = "SELECT count(*)\nFROM crm.fct_opportunity\nWHERE status = 'open'\nLIMIT 1";
        assert_eq!(
            sql_diff(gold, cand),
            vec![
                line(DiffTag::Equal, &[(false, "SELECT count(*)")]),
                line(
                    DiffTag::Delete,
                    &[(false, "FROM "), (true, "crm.fct_support_case")]
                ),
                line(
                    DiffTag::Insert,
                    &[(false, "FROM "), (true, "crm.fct_opportunity")]
                ),
                line(DiffTag::Equal, &[(false, "WHERE status = 'open'")]),
                line(DiffTag::Insert, &[(false, "LIMIT 1")]),
            ]
        );
    }

    #[test]
    fn identical_and_empty_inputs() {
        assert_eq!(
            sql_diff("SELECT 1", "SELECT 1"),
            vec![line(DiffTag::Equal, &[(false, "SELECT 1")])]
        );
        assert!(sql_diff("", "").is_empty());
        assert_eq!(
            sql_diff("", "SELECT 1\n"),
            vec![line(DiffTag::Insert, &[(false, "SELECT 1")])]
        );
    }

    #[test]
    fn statement_lists_are_joined_with_a_blank_line() {
        let diff = sql_diff_statements(&["SELECT 1\n", "SELECT 2"], &["SELECT 1"]);
        let tags: Vec<(DiffTag, &str)> = diff.iter().map(|l| (l.tag, l.text.as_str())).collect();
        assert_eq!(
            tags,
            vec![
                (DiffTag::Equal, "SELECT 1"),
                (DiffTag::Delete, ""),
                (DiffTag::Delete, "SELECT 2"),
            ]
        );
    }
}
