//! SQL syntax highlighting from `sqlparser`'s tokenizer (ClickHouse dialect, the warehouse the
//! harness queries).
//!
//! Spans are slices of the original text located by the tokenizer's line/column spans (never
//! the tokens' `Display`, which normalises quotes, escapes and comments), so concatenating
//! the span texts always gives back the input exactly. When the tokenizer rejects the input
//! (an unterminated string, say), the prefix it did tokenize is highlighted and the rest is
//! one [`SpanKind::Other`] span.

use serde::Serialize;
use sqlparser::dialect::ClickHouseDialect;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer, Whitespace};

/// What a highlighted span is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    /// A SQL keyword (`SELECT`, `FROM`; also unqualified keyword-like names such as `count`
    /// or `day`, which the tokenizer cannot tell apart).
    Keyword,
    /// An unquoted identifier.
    Identifier,
    /// A quoted identifier (`` `name` `` or `"name"`).
    QuotedIdentifier,
    /// A string literal of any quoting style.
    String,
    /// A numeric literal.
    Number,
    /// A `--`, `#` or `/* */` comment.
    Comment,
    /// An operator (`=`, `+`, `::`, `->`, ...).
    Operator,
    /// Punctuation: `,` `;` `.` `(` `)` `[` `]` `{` `}` `:`.
    Punctuation,
    /// Spaces, tabs and newlines.
    Whitespace,
    /// A query parameter (`?`, `$1`, `:name`).
    Placeholder,
    /// Anything else, including text the tokenizer rejected.
    Other,
}

/// One highlighted piece of the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HighlightSpan {
    /// The span's kind.
    pub kind: SpanKind,
    /// The exact input text of the span.
    pub text: String,
}

/// Splits `sql` into highlighted spans whose texts concatenate to `sql` exactly.
///
/// ```
/// use runlens_core::trajectory::{SpanKind, sql_highlight};
/// let spans = sql_highlight("SELECT 1");
/// let kinds: Vec<SpanKind> = spans.iter().map(|s| s.kind).collect();
/// assert_eq!(kinds, [SpanKind::Keyword, SpanKind::Whitespace, SpanKind::Number]);
/// assert_eq!(spans.iter().map(|s| s.text.as_str()).collect::<String>(), "SELECT 1");
/// ```
pub fn sql_highlight(sql: &str) -> Vec<HighlightSpan> {
    let dialect = ClickHouseDialect {};
    let mut tokens: Vec<TokenWithSpan> = Vec::new();
    // On error the buffer keeps every token produced before the error.
    let _ = Tokenizer::new(&dialect, sql)
        .with_unescape(false)
        .tokenize_with_location_into_buf(&mut tokens);
    let mut out: Vec<HighlightSpan> = Vec::with_capacity(tokens.len() + 1);
    let mut cursor = Cursor::new(sql);
    for (i, token) in tokens.iter().enumerate() {
        if matches!(token.token, Token::EOF) {
            continue;
        }
        let start = cursor.byte;
        let end = cursor.advance_to(token.span.end);
        if end > start {
            let text = sql.get(start..end).unwrap_or_default();
            let mut kind = kind_of(&token.token);
            // A keyword-like word in a qualified name (`t.day`, `system.tables`) is a name.
            let is_period = |j: Option<usize>| {
                j.and_then(|j| tokens.get(j))
                    .is_some_and(|t| t.token == Token::Period)
            };
            if kind == SpanKind::Keyword && (is_period(i.checked_sub(1)) || is_period(Some(i + 1)))
            {
                kind = SpanKind::Identifier;
            }
            push(&mut out, kind, text);
        }
    }
    if let Some(rest) = sql.get(cursor.byte..).filter(|r| !r.is_empty()) {
        push(&mut out, SpanKind::Other, rest);
    }
    out
}

/// Appends a span, merging it into the previous one when both are whitespace.
fn push(out: &mut Vec<HighlightSpan>, kind: SpanKind, text: &str) {
    if let Some(last) = out.last_mut()
        && last.kind == kind
        && kind == SpanKind::Whitespace
    {
        last.text.push_str(text);
        return;
    }
    out.push(HighlightSpan {
        kind,
        text: text.to_owned(),
    });
}

/// Walks the input counting lines and columns exactly as the tokenizer does (1-based; `\n`
/// starts a new line, every other character is one column).
struct Cursor<'a> {
    chars: std::str::CharIndices<'a>,
    len: usize,
    byte: usize,
    line: u64,
    column: u64,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            chars: text.char_indices(),
            len: text.len(),
            byte: 0,
            line: 1,
            column: 1,
        }
    }

    /// Advances to `target` (or the end of the input) and returns the byte offset reached.
    /// Never moves backwards.
    fn advance_to(&mut self, target: Location) -> usize {
        while (self.line, self.column) < (target.line, target.column) {
            let Some((_, c)) = self.chars.next() else {
                break;
            };
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
            self.byte = self
                .chars
                .clone()
                .next()
                .map_or(self.len, |(offset, _)| offset);
        }
        self.byte
    }
}

fn kind_of(token: &Token) -> SpanKind {
    match token {
        Token::Word(w) if w.quote_style.is_some() => SpanKind::QuotedIdentifier,
        Token::Word(w) if w.keyword != sqlparser::keywords::Keyword::NoKeyword => SpanKind::Keyword,
        Token::Word(_) => SpanKind::Identifier,
        Token::Number(..) => SpanKind::Number,
        Token::SingleQuotedString(_)
        | Token::DoubleQuotedString(_)
        | Token::TripleSingleQuotedString(_)
        | Token::TripleDoubleQuotedString(_)
        | Token::DollarQuotedString(_)
        | Token::SingleQuotedByteStringLiteral(_)
        | Token::DoubleQuotedByteStringLiteral(_)
        | Token::TripleSingleQuotedByteStringLiteral(_)
        | Token::TripleDoubleQuotedByteStringLiteral(_)
        | Token::SingleQuotedRawStringLiteral(_)
        | Token::DoubleQuotedRawStringLiteral(_)
        | Token::TripleSingleQuotedRawStringLiteral(_)
        | Token::TripleDoubleQuotedRawStringLiteral(_)
        | Token::NationalStringLiteral(_)
        | Token::QuoteDelimitedStringLiteral(_)
        | Token::NationalQuoteDelimitedStringLiteral(_)
        | Token::EscapedStringLiteral(_)
        | Token::UnicodeStringLiteral(_)
        | Token::HexStringLiteral(_) => SpanKind::String,
        Token::Whitespace(
            Whitespace::SingleLineComment { .. } | Whitespace::MultiLineComment(_),
        ) => SpanKind::Comment,
        Token::Whitespace(_) => SpanKind::Whitespace,
        Token::Placeholder(_) => SpanKind::Placeholder,
        Token::Comma
        | Token::SemiColon
        | Token::Period
        | Token::LParen
        | Token::RParen
        | Token::LBracket
        | Token::RBracket
        | Token::LBrace
        | Token::RBrace
        | Token::Colon => SpanKind::Punctuation,
        Token::Char(_) | Token::EOF => SpanKind::Other,
        _ => SpanKind::Operator,
    }
}

#[cfg(test)]
#[path = "highlight_tests.rs"]
mod tests;
