//! Text helpers shared by the charts: safe truncation and threshold formatting.

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
    fn thresholds_drop_trailing_zeros() {
        assert_eq!(format_threshold(0.5), "0.5");
        assert_eq!(format_threshold(0.65), "0.65");
        assert_eq!(format_threshold(1.0), "1");
        assert_eq!(format_threshold(0.0), "0");
    }
}
