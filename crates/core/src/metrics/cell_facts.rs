//! The per-cell facts the leaderboard and the gate need, extracted once from a bundle cell.

use crate::bundle::{Cell, LossRule, Outcome, Usage};

/// True when a runner error marks a turn-limited run: the error contains `"max turns"`
/// (08_results_stats's `tl` and `answered` rules; e.g. `"max turns (60)"`).
pub fn is_turn_limited(error: Option<&str>) -> bool {
    error.is_some_and(|e| e.contains("max turns"))
}

/// Token facts of one run. Missing usage is unknown (the whole struct is `None` upstream),
/// never zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenFacts {
    /// `total_tokens`, or prompt + completion + cache_read + cache_write when the total is
    /// absent but every component is present; `None` otherwise.
    pub total: Option<u64>,
    /// `completion_tokens` (output, reasoning included).
    pub output: Option<u64>,
    /// True when no call missed its usage (`calls_missing_usage` is 0 or absent); otherwise
    /// the totals are lower bounds and the 18_ceiling rule drops the cell.
    pub exact: bool,
}

impl TokenFacts {
    /// Reads a usage block. Example: prompt 10, completion 5, cache 0/0, no total → total 15.
    pub fn from_usage(usage: &Usage) -> TokenFacts {
        let components = [
            usage.prompt_tokens(),
            usage.completion_tokens(),
            usage.cache_read_tokens(),
            usage.cache_write_tokens(),
        ];
        let summed = components
            .iter()
            .try_fold(0u64, |acc, c| c.map(|c| acc.saturating_add(c)));
        TokenFacts {
            total: usage.total_tokens().or(summed),
            output: usage.completion_tokens(),
            exact: usage.calls_missing_usage().unwrap_or(0) == 0,
        }
    }
}

/// What the statistics need from one candidate cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CellFacts {
    /// Pass-rate score (§11.2): pass 1, tie 0.5, fail 0, legacy `loss` per the [`LossRule`];
    /// `None` = excluded (error, unknown or missing outcome, `loss` by default).
    pub score: Option<f64>,
    /// The outcome is the legacy `loss` (counted whatever the rule, for the notice).
    pub legacy_loss: bool,
    /// True iff the outcome is exactly `pass` (strict rates: tie counts 0).
    pub strict_pass: bool,
    /// The runner error contains `"max turns"`.
    pub turn_limited: bool,
    /// Model calls; `None` when unknown.
    pub turns: Option<u32>,
    /// `len(sqls)`.
    pub n_queries: usize,
    /// Token facts; `None` when the usage block is missing.
    pub tokens: Option<TokenFacts>,
}

impl CellFacts {
    /// Extracts the facts of a bundle cell, scoring a legacy `loss` as `loss` says.
    pub fn from_cell(cell: &Cell, loss: LossRule) -> CellFacts {
        CellFacts::from_parts(
            cell.outcome(),
            cell.error.as_deref(),
            cell.turns,
            cell.n_sqls(),
            cell.usage.as_ref(),
            loss,
        )
    }

    /// The facts of a cell given as the values they are read from (a cell's outcome, error,
    /// turns, number of SQL statements and usage block), as a reader of columns has them.
    pub fn from_parts(
        outcome: Option<&Outcome>,
        error: Option<&str>,
        turns: Option<u32>,
        n_queries: usize,
        usage: Option<&Usage>,
        loss: LossRule,
    ) -> CellFacts {
        CellFacts {
            score: outcome.and_then(|o| o.score(loss)),
            legacy_loss: outcome == Some(&Outcome::Loss),
            strict_pass: outcome.is_some_and(|o| o.as_str() == "pass"),
            turn_limited: is_turn_limited(error),
            turns,
            n_queries,
            tokens: usage.map(TokenFacts::from_usage),
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::UsageCounts;

    #[test]
    fn token_total_falls_back_to_components_and_flags_lower_bounds() {
        let usage = Usage::from(UsageCounts {
            prompt_tokens: Some(10),
            completion_tokens: Some(5),
            cache_read_tokens: Some(0),
            cache_write_tokens: Some(2),
            ..UsageCounts::default()
        });
        assert_eq!(
            TokenFacts::from_usage(&usage),
            TokenFacts {
                total: Some(10 + 5 + 2),
                output: Some(5),
                exact: true
            }
        );
        let partial = Usage::from(UsageCounts {
            completion_tokens: Some(5),
            calls_missing_usage: Some(1),
            ..UsageCounts::default()
        });
        assert_eq!(
            TokenFacts::from_usage(&partial),
            TokenFacts {
                total: None,
                output: Some(5),
                exact: false
            }
        );
    }

    #[test]
    fn turn_limit_is_a_substring_rule() {
        assert!(is_turn_limited(Some("max turns (60)")));
        assert!(!is_turn_limited(Some("max output tokens")));
        assert!(!is_turn_limited(None));
    }
}
