//! Text helpers shared by the charts: word wrapping, safe truncation and threshold
//! formatting.

/// `s` cut to at most `max` characters, ending in "…" when cut. Works on `char`s, so it
/// never splits a UTF-8 sequence. Example: `truncate_chars("abcdef", 4)` → `"abc…"`.
pub fn truncate_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `text` in lines that each `fit`, words kept whole where they fit on a line of their own
/// (a longer word is cut between characters); whitespace runs become one space. Example:
/// with `fits = |s| s.chars().count() <= 7`, `"gold table (corpus-name)"` →
/// `["gold", "table", "(corpus", "-name)"]`.
pub fn wrap_words(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let joined = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if fits(&joined) {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The word alone, cut where it does not fit.
        for c in word.chars() {
            line.push(c);
            if !fits(&line) && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::replace(&mut line, c.to_string()));
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A threshold with at most 2 decimals and no trailing zeros: `0.5` → `"0.5"`,
/// `0.65` → `"0.65"`, `1.0` → `"1"`.
pub fn format_threshold(t: f64) -> String {
    let s = format!("{t:.2}");
    let s = s.trim_end_matches('0');
    s.trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_counts_chars_not_bytes() {
        assert_eq!(truncate_chars("abcdef", 4), "abc…");
        assert_eq!(truncate_chars("abcd", 4), "abcd");
        assert_eq!(truncate_chars("ééééé", 3), "éé…");
        assert_eq!(truncate_chars("★★", 0), "");
        assert_eq!(truncate_chars("★★", 1), "…");
    }

    #[test]
    fn words_wrap_whole_and_long_words_are_cut() {
        let seven = |s: &str| s.chars().count() <= 7;
        assert_eq!(
            wrap_words("gold table (corpus-name)", seven),
            ["gold", "table", "(corpus", "-name)"]
        );
        assert_eq!(
            wrap_words("a  b\tc d", |s: &str| s.chars().count() <= 3),
            ["a b", "c d"]
        );
        assert_eq!(wrap_words("", seven), Vec::<String>::new());
        // Nothing fits: one character per line, never an empty line or a lost character.
        assert_eq!(wrap_words("ab cd", |_: &str| false), ["a", "b", "c", "d"]);
        let long =
            "k*: the smallest k whose top k holds every gold table (text2sqlbench-synthetic-dev)";
        let lines = wrap_words(long, |s: &str| s.chars().count() <= 40);
        assert_eq!(
            lines,
            [
                "k*: the smallest k whose top k holds",
                "every gold table",
                "(text2sqlbench-synthetic-dev)"
            ]
        );
    }

    #[test]
    fn thresholds_drop_trailing_zeros() {
        assert_eq!(format_threshold(0.5), "0.5");
        assert_eq!(format_threshold(0.65), "0.65");
        assert_eq!(format_threshold(1.0), "1");
        assert_eq!(format_threshold(0.0), "0");
    }
}
