//! SQL statements highlighted from core's tokenizer spans (one CSS class per span kind), the
//! tables each reads marked gold / not gold with rank and P(yes), and the gold / candidate
//! diff.

use leptos::prelude::*;
use runlens_core::trajectory::{DiffLine, DiffTag, HighlightSpan, SpanKind, TableMark};

/// The CSS class of a span kind (`tok-<kind>`).
pub fn span_class(kind: SpanKind) -> &'static str {
    match kind {
        SpanKind::Keyword => "tok tok-keyword",
        SpanKind::Identifier => "tok tok-identifier",
        SpanKind::QuotedIdentifier => "tok tok-quoted",
        SpanKind::String => "tok tok-string",
        SpanKind::Number => "tok tok-number",
        SpanKind::Comment => "tok tok-comment",
        SpanKind::Operator => "tok tok-operator",
        SpanKind::Punctuation => "tok tok-punct",
        SpanKind::Whitespace => "tok tok-ws",
        SpanKind::Placeholder => "tok tok-placeholder",
        SpanKind::Other => "tok tok-other",
    }
}

/// One statement, highlighted.
#[component]
pub fn SqlCode(spans: Vec<HighlightSpan>) -> impl IntoView {
    view! {
        <pre class="sql"><code>
            {spans.into_iter().map(|s| view! { <span class=span_class(s.kind)>{s.text}</span> }).collect_view()}
        </code></pre>
    }
}

/// The text of a table mark: `gold · rank 2 · P(yes) 0.8812` (rank and P(yes) when known).
pub fn mark_text(t: &TableMark) -> String {
    let mut out = if t.gold { "gold" } else { "not gold" }.to_owned();
    match t.rank {
        Some(r) => out.push_str(&format!(" · rank {r}")),
        None => out.push_str(" · unranked"),
    }
    if let Some(p) = t.p_yes {
        out.push_str(&format!(" · P(yes) {p:.4}"));
    }
    out
}

/// The tables one statement reads.
#[component]
pub fn TableMarks(tables: Vec<TableMark>) -> impl IntoView {
    (!tables.is_empty()).then(|| {
        view! {
            <ul class="table-marks">
                {tables.into_iter().map(|t| {
                    let text = mark_text(&t);
                    view! {
                        <li class="table-mark" class:gold=t.gold class:not-gold=!t.gold
                            data-table=t.table.clone() data-gold=t.gold.to_string()
                            data-rank=t.rank.map(|r| r.to_string()).unwrap_or_default()>
                            <code>{t.table.clone()}</code> " " <span class="mark">{text}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    })
}

/// The gold (−) vs candidate (+) diff, words that changed emphasised (`title` names the two
/// sides when they are others, e.g. two runs' candidates).
#[component]
pub fn DiffView(
    lines: Vec<DiffLine>,
    #[prop(default = "Gold (−) vs candidate (+) SQL")] title: &'static str,
) -> impl IntoView {
    let empty = lines.is_empty();
    view! {
        <section class="sql-diff" data-testid="sql-diff">
            <h4>{title}</h4>
            {empty.then(|| view! { <p class="hint">"Neither side has SQL."</p> })}
            <pre class="diff">
                {lines.into_iter().map(|l| {
                    let (class, sign) = match l.tag {
                        DiffTag::Equal => ("diff-line diff-equal", "  "),
                        DiffTag::Delete => ("diff-line diff-delete", "- "),
                        DiffTag::Insert => ("diff-line diff-insert", "+ "),
                    };
                    view! {
                        <div class=class>
                            <span class="diff-sign">{sign}</span>
                            {l.inline.into_iter().map(|(em, text)| view! {
                                <span class:diff-em=em>{text}</span>
                            }).collect_view()}
                        </div>
                    }
                }).collect_view()}
            </pre>
        </section>
    }
}
