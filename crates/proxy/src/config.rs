//! Server and upstream configuration (flags and `TYPESAFE_*` environment variables).

use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::access::AccessTokens;
use crate::budget::BudgetConfig;

/// Jev base URL used when `TYPESAFE_BASE_URL` is unset.
pub const DEFAULT_BASE_URL: &str = "https://api.typesafe.ai";
/// Pinned model used when the request names none or one outside the allow-list.
pub const DEFAULT_MODEL: &str = "jev-1.13.0";
/// Models a browser may request by default (`TYPESAFE_ALLOWED_MODELS` overrides).
pub const DEFAULT_ALLOWED_MODELS: [&str; 4] =
    ["jev-1.13.0", "jev-1.14.0", "jev-latest", "jev-preview"];

/// Everything `app` needs besides the backend.
#[derive(Debug, Clone)]
pub struct Config {
    /// The built dashboard (`dist`), served at `/` with an SPA fallback to `index.html`.
    pub dist: PathBuf,
    /// Extra bundle files overlaid on `dist/bundles/` at `/bundles/`.
    pub bundles: Option<PathBuf>,
    /// Origins allowed by CORS on the API (exact `scheme://host[:port]`); empty = no CORS.
    pub allow_origins: Vec<String>,
    /// Request limits.
    pub limits: Limits,
    /// Most responses kept in the answer cache (0 disables it).
    pub cache_entries: usize,
    /// Access tokens required on `/v1/*` (`None`: open, as for loopback development).
    pub access_tokens: Option<AccessTokens>,
    /// Daily decision budgets (`None`: unlimited).
    pub budget: Option<BudgetConfig>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (for the rate limit).
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            dist: PathBuf::from("dist"),
            bundles: None,
            allow_origins: Vec::new(),
            limits: Limits::default(),
            cache_entries: 4096,
            access_tokens: None,
            budget: None,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Per-request and per-client limits of the API routes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Largest accepted request body (after decompression), bytes; larger gives 413.
    pub max_body_bytes: usize,
    /// Sustained requests per minute per client IP on `/v1/systemone` (0 = unlimited).
    pub rate_per_minute: u32,
    /// Requests a client may send at once before the sustained rate applies.
    pub burst: u32,
    /// Decisions computed or forwarded at the same time; more wait in a queue.
    pub max_in_flight: usize,
    /// Longest wait in that queue before answering 503.
    pub queue_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1 << 20,
            rate_per_minute: 600,
            burst: 60,
            max_in_flight: 8,
            queue_timeout: Duration::from_secs(10),
        }
    }
}

/// The TypeSafe API key; its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Trims surrounding whitespace and checks the SDK's rule (printable ASCII, no inner
    /// whitespace). Returns `None` for an empty or malformed key.
    pub fn parse(raw: &str) -> Option<ApiKey> {
        let key = raw.trim();
        let printable = key.bytes().all(|b| b.is_ascii_graphic());
        (!key.is_empty() && printable).then(|| ApiKey(key.to_owned()))
    }

    /// The secret itself, for the `Authorization` header only.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// How to reach TypeSafe.
#[derive(Debug, Clone)]
pub struct UpstreamConfig {
    /// Base URL without a trailing slash; from configuration only, never from a request.
    pub base_url: String,
    /// Sent as `Authorization: Bearer …`, server-side only.
    pub api_key: ApiKey,
    /// Model used when the request names none or one outside `allowed_models`.
    pub default_model: String,
    /// Models a client may pick.
    pub allowed_models: Vec<String>,
    /// Per-attempt timeout (the SDK's default is 10 s).
    pub timeout: Duration,
    /// Cap on the wait before the single retry.
    pub max_retry_wait: Duration,
    /// Wait before the retry when the upstream sends no `retry-after(-ms)`.
    pub default_retry_wait: Duration,
}

impl UpstreamConfig {
    /// Reads `TYPESAFE_API_KEY`, `TYPESAFE_BASE_URL`, `TYPESAFE_DEFAULT_MODEL` and
    /// `TYPESAFE_ALLOWED_MODELS` (comma-separated) through `get`. `Ok(None)` when no key
    /// is set (the local backend applies); `Err` names a malformed variable.
    ///
    /// ```
    /// use runlens_proxy::config::UpstreamConfig;
    /// let env = |name: &str| (name == "TYPESAFE_API_KEY").then(|| " sk-test ".to_owned());
    /// let upstream = UpstreamConfig::from_env(env).unwrap().unwrap();
    /// assert_eq!(upstream.base_url, "https://api.typesafe.ai");
    /// assert_eq!(upstream.default_model, "jev-1.13.0");
    /// assert!(UpstreamConfig::from_env(|_| None).unwrap().is_none());
    /// ```
    pub fn from_env(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<UpstreamConfig>, String> {
        let Some(raw_key) = get("TYPESAFE_API_KEY").filter(|k| !k.trim().is_empty()) else {
            return Ok(None);
        };
        let api_key = ApiKey::parse(&raw_key).ok_or(
            "TYPESAFE_API_KEY: expected printable ASCII without inner whitespace (value not shown)",
        )?;
        let base_url = get("TYPESAFE_BASE_URL")
            .map(|url| url.trim().trim_end_matches('/').to_owned())
            .filter(|url| !url.is_empty())
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        if !(base_url.starts_with("https://") || base_url.starts_with("http://")) {
            return Err(format!(
                "TYPESAFE_BASE_URL: expected an http(s):// URL, got {base_url:?}"
            ));
        }
        let default_model = get("TYPESAFE_DEFAULT_MODEL")
            .map(|m| m.trim().to_owned())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| DEFAULT_MODEL.to_owned());
        let allowed_models = match get("TYPESAFE_ALLOWED_MODELS") {
            Some(list) => list
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned)
                .collect(),
            None => DEFAULT_ALLOWED_MODELS
                .iter()
                .map(|m| (*m).to_owned())
                .collect(),
        };
        Ok(Some(UpstreamConfig {
            base_url,
            api_key,
            default_model,
            allowed_models,
            timeout: Duration::from_secs(10),
            max_retry_wait: Duration::from_secs(5),
            default_retry_wait: Duration::from_millis(500),
        }))
    }

    /// The model to send: the requested one if allowed, else the default.
    pub fn pick_model(&self, requested: Option<&str>) -> String {
        match requested {
            Some(model) if self.allowed_models.iter().any(|m| m == model) => model.to_owned(),
            _ => self.default_model.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn requested_models_outside_the_allow_list_fall_back_to_the_default() {
        let vars = env(&[
            ("TYPESAFE_API_KEY", "sk-x"),
            ("TYPESAFE_DEFAULT_MODEL", "jev-latest"),
            ("TYPESAFE_ALLOWED_MODELS", "jev-latest, jev-1.13.0 ,"),
            ("TYPESAFE_BASE_URL", "http://127.0.0.1:9/"),
        ]);
        let config = UpstreamConfig::from_env(vars).unwrap().unwrap();
        assert_eq!(config.base_url, "http://127.0.0.1:9"); // trailing slash dropped
        assert_eq!(config.allowed_models, ["jev-latest", "jev-1.13.0"]);
        assert_eq!(config.pick_model(Some("jev-1.13.0")), "jev-1.13.0");
        assert_eq!(config.pick_model(Some("jev-9")), "jev-latest");
        assert_eq!(config.pick_model(None), "jev-latest");
    }

    #[test]
    fn malformed_settings_are_errors_that_do_not_show_the_key() {
        let bad_key =
            UpstreamConfig::from_env(env(&[("TYPESAFE_API_KEY", "sk secret")])).unwrap_err();
        assert!(bad_key.starts_with("TYPESAFE_API_KEY:") && !bad_key.contains("secret"));
        let bad_url = env(&[
            ("TYPESAFE_API_KEY", "sk-x"),
            ("TYPESAFE_BASE_URL", "ftp://host"),
        ]);
        assert!(
            UpstreamConfig::from_env(bad_url)
                .unwrap_err()
                .starts_with("TYPESAFE_BASE_URL:")
        );
        assert!(
            UpstreamConfig::from_env(env(&[("TYPESAFE_API_KEY", "  ")]))
                .unwrap()
                .is_none()
        );
    }
}
