//! The spend guard: a daily budget of decisions sent to the backend, for the whole server and
//! for each access token, kept in a JSON file so a restart does not reset it.
//!
//! A decision counts when it reaches the backend; answers from the cache and refused requests
//! spend nothing. A day is a UTC calendar day: the counts start again at 00:00 UTC. The file is
//! `{"day": <days since 1970-01-01, UTC>, "total": n, "tokens": {"<name>": n, …}}`, written
//! (to a temporary file, then renamed over it) after every counted decision.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::ProxyError;

const DAY_SECONDS: u64 = 86_400;

/// Daily limits and where their counts are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetConfig {
    /// Decisions per UTC day for the whole server (`None`: no limit).
    pub daily: Option<u64>,
    /// Decisions per UTC day for each access token (`None`: no limit).
    pub per_token_daily: Option<u64>,
    /// The counts' file.
    pub state_file: PathBuf,
}

#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Counts {
    day: u64,
    total: u64,
    #[serde(default)]
    tokens: BTreeMap<String, u64>,
}

/// Counts decisions against the budgets.
#[derive(Debug)]
pub struct SpendGuard {
    config: BudgetConfig,
    counts: Mutex<Counts>,
}

impl SpendGuard {
    /// Opens the guard, reading today's counts from the state file when it exists. A file that
    /// is not a budget file is an error naming it (the server does not start rather than lose
    /// the counts).
    pub fn open(config: BudgetConfig) -> Result<SpendGuard, String> {
        let counts = match std::fs::read(&config.state_file) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|err| {
                format!(
                    "{}: not a runlens budget file ({err}); expected {{\"day\", \"total\", \"tokens\"}}",
                    config.state_file.display()
                )
            })?,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Counts::default(),
            Err(err) => return Err(format!("{}: {err}", config.state_file.display())),
        };
        Ok(SpendGuard {
            config,
            counts: Mutex::new(counts),
        })
    }

    /// The limits and today's server count, for `/healthz` (no token names).
    pub fn limits(&self) -> serde_json::Value {
        let today = utc_day(SystemTime::now());
        let total = self
            .counts
            .lock()
            .map(|c| if c.day == today { c.total } else { 0 })
            .unwrap_or(0);
        serde_json::json!({
            "daily": self.config.daily,
            "per_token_daily": self.config.per_token_daily,
            "spent_today": total,
        })
    }

    /// Spends one decision for `token` at `now`, or refuses with 429 `budget_exhausted` when
    /// the server's or the token's budget for the day is spent.
    pub fn spend(&self, token: Option<&str>, now: SystemTime) -> Result<(), ProxyError> {
        let since_epoch = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        let day = utc_day(now);
        let until_midnight = Duration::from_secs((day + 1) * DAY_SECONDS) - since_epoch;
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| ProxyError::Internal("budget counts poisoned".into()))?;
        if counts.day != day {
            *counts = Counts {
                day,
                ..Counts::default()
            };
        }
        if let Some(limit) = self.config.daily
            && counts.total >= limit
        {
            return Err(ProxyError::BudgetSpent {
                scope: "server",
                limit,
                retry_after: until_midnight,
            });
        }
        if let (Some(limit), Some(token)) = (self.config.per_token_daily, token)
            && counts.tokens.get(token).copied().unwrap_or(0) >= limit
        {
            return Err(ProxyError::BudgetSpent {
                scope: "token",
                limit,
                retry_after: until_midnight,
            });
        }
        counts.total += 1;
        if let Some(token) = token {
            *counts.tokens.entry(token.to_owned()).or_insert(0) += 1;
        }
        write_counts(&self.config.state_file, &counts)
    }
}

/// Days since 1970-01-01 at `now`, UTC.
fn utc_day(now: SystemTime) -> u64 {
    now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs() / DAY_SECONDS
}

fn write_counts(path: &Path, counts: &Counts) -> Result<(), ProxyError> {
    let fail = |err: std::io::Error| {
        ProxyError::Internal(format!("writing the budget file {}: {err}", path.display()))
    };
    let bytes = serde_json::to_vec(counts)
        .map_err(|err| ProxyError::Internal(format!("encoding the budget counts: {err}")))?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, bytes).map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(tag: &str, daily: Option<u64>, per_token: Option<u64>) -> (SpendGuard, PathBuf) {
        let file =
            std::env::temp_dir().join(format!("runlens-budget-{tag}-{}.json", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let config = BudgetConfig {
            daily,
            per_token_daily: per_token,
            state_file: file.clone(),
        };
        (SpendGuard::open(config).unwrap(), file)
    }

    /// 2026-12-06 23:59:30 UTC: day 20428, 30 s before the next one.
    fn late_evening() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(20_428 * DAY_SECONDS + DAY_SECONDS - 30)
    }

    #[test]
    fn a_token_over_its_budget_is_refused_until_midnight_utc_and_others_go_on() {
        let (guard, file) = guard("token", Some(10), Some(2));
        let now = late_evening();
        guard.spend(Some("alice"), now).unwrap();
        guard.spend(Some("alice"), now).unwrap();
        match guard.spend(Some("alice"), now) {
            Err(ProxyError::BudgetSpent {
                scope,
                limit,
                retry_after,
            }) => {
                assert_eq!((scope, limit), ("token", 2));
                assert_eq!(retry_after, Duration::from_secs(30));
            }
            other => panic!("expected the token's budget spent, got {other:?}"),
        }
        guard.spend(Some("bob"), now).unwrap();
        let saved: Counts = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert_eq!(saved.day, 20_428);
        assert_eq!(saved.total, 3); // the refused request spent nothing
        assert_eq!(saved.tokens["alice"], 2);
        // The next UTC day starts from zero.
        guard
            .spend(Some("alice"), now + Duration::from_secs(30))
            .unwrap();
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn the_server_budget_survives_a_restart() {
        let (guard, file) = guard("restart", Some(2), None);
        let now = late_evening();
        guard.spend(None, now).unwrap();
        drop(guard);
        let config = BudgetConfig {
            daily: Some(2),
            per_token_daily: None,
            state_file: file.clone(),
        };
        let reopened = SpendGuard::open(config).unwrap();
        reopened.spend(None, now).unwrap();
        assert!(matches!(
            reopened.spend(None, now),
            Err(ProxyError::BudgetSpent {
                scope: "server",
                limit: 2,
                ..
            })
        ));
        std::fs::remove_file(file).unwrap();
    }

    #[test]
    fn a_file_that_is_not_a_budget_file_is_an_error_naming_it() {
        let (_, file) = guard("damaged", Some(1), None);
        std::fs::write(&file, b"{\"days\": 3}").unwrap();
        let config = BudgetConfig {
            daily: Some(1),
            per_token_daily: None,
            state_file: file.clone(),
        };
        let err = SpendGuard::open(config).unwrap_err();
        assert!(
            err.starts_with(&format!("{}: not a runlens budget file", file.display())),
            "{err}"
        );
        std::fs::remove_file(file).unwrap();
    }
}
