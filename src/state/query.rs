//! Query-string encoding of [`ViewState`]: standard percent-encoding, except that `/`, `:`
//! and `,` stay readable (RFC 3986 allows them in a query).

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

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

/// Reads a query string (with or without the leading `?`) with `form_urlencoded`: `+` is a
/// space, malformed `%` escapes are kept as written and invalid UTF-8 becomes U+FFFD, so no
/// address can break the page.
pub fn decode_query(search: &str) -> ViewState {
    let search = search.strip_prefix('?').unwrap_or(search);
    let pairs: Vec<(String, String)> = form_urlencoded::parse(search.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    ViewState::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

/// What [`encode_component`] escapes: everything but the unreserved characters and `/ : ,`.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'/')
    .remove(b':')
    .remove(b',');

/// Percent-encodes UTF-8 bytes outside the unreserved set and `/ : ,` (upper-case hex).
pub fn encode_component(s: &str) -> String {
    utf8_percent_encode(s, ESCAPED).to_string()
}
