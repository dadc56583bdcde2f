//! Turning Jev "content" (a state, an instruction, an option description, a score level) into
//! the exact text the Python package tokenizes.
//!
//! The package's `_content(c)` is: `None` → `""`; a string → `c.strip()`; anything else →
//! `json.dumps(c, indent=2, ensure_ascii=False)` (keys in their given order, not sorted). This
//! module reproduces that byte for byte, including Python's float `repr` (`1e-05`, `1e+16`,
//! `100.0`) and Python's `str.strip()` whitespace set.
//!
//! ```
//! use runlens_sparrow::text::content_text;
//! let v = serde_json::json!({"n": [1, 2.5, 1e-5], "ok": true, "s": "é\n"});
//! assert_eq!(
//!     content_text(&v),
//!     "{\n  \"n\": [\n    1,\n    2.5,\n    1e-05\n  ],\n  \"ok\": true,\n  \"s\": \"é\\n\"\n}"
//! );
//! assert_eq!(content_text(&serde_json::json!("  padded \t")), "padded");
//! assert_eq!(content_text(&serde_json::Value::Null), "");
//! ```

use serde_json::Value;
use std::fmt::Write;

/// Python's `str.isspace()`: Unicode White_Space plus the four separators U+001C..U+001F.
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()` with no argument.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// The package's `_content`: the text a piece of Jev content is read as (see the module docs).
pub fn content_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => py_strip(s).to_owned(),
        other => {
            let mut out = String::new();
            dump(other, 0, &mut out);
            out
        }
    }
}

/// `json.dumps(value, indent=2, ensure_ascii=False)`, appended to `out` at nesting `depth`.
fn dump(value: &Value, depth: usize, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                let _ = write!(out, "{i}");
            } else if let Some(u) = n.as_u64() {
                let _ = write!(out, "{u}");
            } else if let Some(f) = n.as_f64() {
                out.push_str(&py_float_repr(f));
            } else {
                out.push_str(&n.to_string());
            }
        }
        Value::String(s) => dump_str(s, out),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                newline(out, depth + 1, i > 0);
                dump(item, depth + 1, out);
            }
            newline(out, depth, false);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                newline(out, depth + 1, i > 0);
                dump_str(key, out);
                out.push_str(": ");
                dump(item, depth + 1, out);
            }
            newline(out, depth, false);
            out.push('}');
        }
    }
}

/// Item separator (`,` when not first) then a newline and two spaces per level.
fn newline(out: &mut String, depth: usize, comma: bool) {
    if comma {
        out.push(',');
    }
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', 2 * depth));
}

/// A JSON string as Python's encoder writes it with `ensure_ascii=False`.
fn dump_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Python's `repr(float)`: the shortest round-trip digits, in fixed notation when the decimal
/// exponent `e` (as in `d.ddd × 10^e`) satisfies `-4 <= e < 16`, else as `d.ddde±XX`.
///
/// ```
/// use runlens_sparrow::text::py_float_repr;
/// assert_eq!(py_float_repr(100.0), "100.0");
/// assert_eq!(py_float_repr(0.0001), "0.0001");
/// assert_eq!(py_float_repr(0.00001), "1e-05");
/// assert_eq!(py_float_repr(1e16), "1e+16");
/// assert_eq!(py_float_repr(-2.5e-7), "-2.5e-07");
/// assert_eq!(py_float_repr(1234567890123456.0), "1234567890123456.0");
/// ```
pub fn py_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let decpt = exp + 1;
        let body = if decpt <= 0 {
            format!("0.{}{digits}", "0".repeat((-decpt) as usize))
        } else if decpt < n {
            format!(
                "{}.{}",
                &digits[..decpt as usize],
                &digits[decpt as usize..]
            )
        } else {
            format!("{digits}{}.0", "0".repeat((decpt - n) as usize))
        };
        format!("{sign}{body}")
    } else {
        let mant = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mant}e{esign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strip_matches_python_whitespace_set() {
        assert_eq!(py_strip("\u{1c}\u{a0} x y\u{3000}\u{1f}"), "x y");
        assert_eq!(py_strip("\u{200b}x"), "\u{200b}x"); // U+200B is not whitespace in Python
    }

    #[test]
    fn dumps_nested_and_empty_containers() {
        let v = json!({"a": [], "b": {}, "c": [{"d": null}]});
        assert_eq!(
            content_text(&v),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    {\n      \"d\": null\n    }\n  ]\n}"
        );
    }

    #[test]
    fn escapes_like_python() {
        let v = json!(["q\"\\\u{1}\u{7f}ü\u{8}\u{c}"]);
        assert_eq!(
            content_text(&v),
            "[\n  \"q\\\"\\\\\\u0001\u{7f}ü\\b\\f\"\n]"
        );
    }

    #[test]
    fn scalars_and_numbers() {
        assert_eq!(content_text(&json!(true)), "true");
        assert_eq!(content_text(&json!(-7)), "-7");
        assert_eq!(
            content_text(&json!(18446744073709551615u64)),
            "18446744073709551615"
        );
        assert_eq!(content_text(&json!(0.1)), "0.1");
        assert_eq!(py_float_repr(-0.0), "-0.0");
        assert_eq!(py_float_repr(1.5e300), "1.5e+300");
        assert_eq!(py_float_repr(123.456), "123.456");
    }
}
