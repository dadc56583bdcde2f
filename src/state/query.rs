//! Query-string encoding of [`ViewState`]: standard percent-encoding, except that `/`, `:`
//! and `,` stay readable (RFC 3986 allows them in a query).

use super::ViewState;

/// `?key=value&…` for the non-default parts of `state`; empty for the default state.
pub fn encode_query(state: &ViewState) -> String {
    let pairs = state.to_pairs();
    if pairs.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode_component(v)))
        .collect();
    format!("?{}", parts.join("&"))
}

/// Reads a query string (with or without the leading `?`).
pub fn decode_query(search: &str) -> ViewState {
    let search = search.strip_prefix('?').unwrap_or(search);
    let pairs: Vec<(String, String)> = search
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode_component(k), decode_component(v))
        })
        .collect();
    ViewState::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

/// Percent-encodes UTF-8 bytes outside the unreserved set and `/ : ,`.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'/'
            | b':'
            | b',' => out.push(char::from(b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes `+` as space and `%XX` escapes; malformed escapes are kept as written, and
/// invalid UTF-8 becomes U+FFFD, so no address can break the page.
pub fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
