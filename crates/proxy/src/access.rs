//! Who may use the API: access tokens for `/v1/*` (`Authorization: Bearer <token>`).
//!
//! Tokens come from a file or an environment variable ([`AccessTokens::parse`]), never from the
//! command line. Each has a name, used in logs and budgets; the token itself is never logged.
//! A presented token is compared with every configured one in constant time (their SHA-256
//! digests, so neither the content nor the length leaks through timing). A token in the URL is
//! refused even when it is right: URLs end up in logs, histories and `Referer` headers.

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::ProxyError;

/// Shortest token accepted: 16 printable characters (`openssl rand -hex 32` gives 64).
pub const MIN_TOKEN_LEN: usize = 16;

/// Query parameters that look like a credential; a request carrying one is refused.
const CREDENTIAL_PARAMS: [&str; 6] = [
    "token",
    "access_token",
    "api_key",
    "apikey",
    "key",
    "authorization",
];

/// The configured tokens, kept as SHA-256 digests with their names.
#[derive(Clone)]
pub struct AccessTokens {
    tokens: Vec<(String, [u8; 32])>,
}

impl std::fmt::Debug for AccessTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.names().collect();
        write!(f, "AccessTokens({names:?})")
    }
}

/// The name of the token a request was let in with (a request extension on `/v1/*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenName(pub String);

impl AccessTokens {
    /// Reads tokens from `text` (a tokens file, or the `RUNLENS_ACCESS_TOKENS` variable): one
    /// entry per line or comma-separated, each `TOKEN` or `NAME TOKEN`; blank entries and lines
    /// starting with `#` are skipped. Unnamed tokens are called `token-1`, `token-2`, … in
    /// order. `source` names the file or variable in errors, which never show a token.
    ///
    /// ```
    /// use runlens_proxy::access::AccessTokens;
    /// let tokens = AccessTokens::parse("# reviewers\nalice 0123456789abcdef0123\n\nfedcba9876543210fedc", "tokens.txt").unwrap();
    /// assert_eq!(tokens.names().collect::<Vec<_>>(), ["alice", "token-2"]);
    /// assert_eq!(tokens.check("0123456789abcdef0123").map(|n| n.0), Some("alice".to_owned()));
    /// assert!(tokens.check("0123456789abcdef012").is_none());
    /// let short = AccessTokens::parse("bob short", "tokens.txt").unwrap_err();
    /// assert_eq!(short, "tokens.txt: entry 1 (bob): a token needs at least 16 printable characters");
    /// ```
    pub fn parse(text: &str, source: &str) -> Result<AccessTokens, String> {
        let mut tokens: Vec<(String, [u8; 32])> = Vec::new();
        let entries = text
            .split(['\n', ','])
            .map(str::trim)
            .filter(|e| !e.is_empty() && !e.starts_with('#'));
        for (i, entry) in entries.enumerate() {
            let n = i + 1;
            let mut words = entry.split_whitespace();
            let (name, token) = match (words.next(), words.next(), words.next()) {
                (Some(token), None, _) => (format!("token-{n}"), token),
                (Some(name), Some(token), None) => (name.to_owned(), token),
                _ => {
                    return Err(format!(
                        "{source}: entry {n}: expected `TOKEN` or `NAME TOKEN`, found more words"
                    ));
                }
            };
            if token.len() < MIN_TOKEN_LEN || !token.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(format!(
                    "{source}: entry {n} ({name}): a token needs at least {MIN_TOKEN_LEN} printable characters"
                ));
            }
            if tokens.iter().any(|(other, _)| *other == name) {
                return Err(format!(
                    "{source}: entry {n}: the name {name} is used twice"
                ));
            }
            tokens.push((name, digest(token)));
        }
        if tokens.is_empty() {
            return Err(format!("{source}: no token in it"));
        }
        Ok(AccessTokens { tokens })
    }

    /// The tokens' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tokens.iter().map(|(name, _)| name.as_str())
    }

    /// The name of `presented`'s token, comparing with every token in constant time.
    pub fn check(&self, presented: &str) -> Option<TokenName> {
        let presented = digest(presented);
        let mut found = None;
        for (name, token) in &self.tokens {
            if bool::from(token.ct_eq(&presented)) {
                found = Some(TokenName(name.clone()));
            }
        }
        found
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Middleware on `/v1/*`: lets a request in when it carries a configured bearer token (adding
/// its [`TokenName`] to the request), else answers 401 `authentication_error`.
pub(crate) async fn require_token(
    State(tokens): State<AccessTokens>,
    mut request: Request,
    next: Next,
) -> Response {
    match authorize(&tokens, &request) {
        Ok(name) => {
            request.extensions_mut().insert(name);
            next.run(request).await
        }
        Err(err) => err.into_response(),
    }
}

fn authorize(tokens: &AccessTokens, request: &Request) -> Result<TokenName, ProxyError> {
    let in_url = request.uri().query().is_some_and(|query| {
        form_urlencoded::parse(query.as_bytes())
            .any(|(name, _)| CREDENTIAL_PARAMS.contains(&name.to_ascii_lowercase().as_str()))
    });
    if in_url {
        return Err(ProxyError::Unauthorized(
            "Access tokens are not accepted in the URL; send `Authorization: Bearer <token>`.",
        ));
    }
    let header = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok());
    let Some(header) = header else {
        return Err(ProxyError::Unauthorized(
            "This server needs an access token: send `Authorization: Bearer <token>`.",
        ));
    };
    let presented = header
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    presented
        .and_then(|token| tokens.check(token))
        .ok_or(ProxyError::Unauthorized("The access token is not valid."))
}
