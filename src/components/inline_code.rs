//! Text whose `backticked` parts are shown as code (the samples' descriptions): the parts
//! are text nodes, never HTML.

use leptos::prelude::*;

/// `text` cut at backticks: `(is_code, part)` in order. A backtick without its closing one
/// stays in the text; empty parts are dropped.
pub fn code_spans(text: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        out.push((false, rest[..open].to_owned()));
        out.push((true, rest[open + 1..open + 1 + len].to_owned()));
        rest = &rest[open + 2 + len..];
    }
    out.push((false, rest.to_owned()));
    out.retain(|(_, part)| !part.is_empty());
    out
}

/// `text` with its backticked parts in `<code>`.
#[component]
pub fn InlineCode(#[prop(into)] text: String) -> impl IntoView {
    code_spans(&text)
        .into_iter()
        .map(|(code, part)| {
            if code {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}
