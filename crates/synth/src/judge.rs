//! Judge-panel `result_score` blocks consistent with the harness's aggregation (§4.2).

use indexmap::IndexMap;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::models;
use crate::names;
use crate::plan::Outcome;

/// One judge vote. `outcome` is absent in older rows; `data_equiv` is absent on short
/// circuits and on judge errors.
#[derive(Debug, Clone, Serialize)]
pub struct Vote {
    /// pass / fail / tie / error (absent in older rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
    /// equivalent / not_equivalent / cannot_determine / error.
    pub verdict: &'static str,
    /// One sentence from the judge.
    pub reasoning: String,
    /// Judge model key.
    pub judge: String,
    /// Deterministic comparison shown to the judge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_equiv: Option<&'static str>,
}

/// A cell's `result_score`: a full panel, or a short `{outcome, reasoning}`.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Score {
    /// Panel output.
    Panel {
        /// Aggregated outcome.
        outcome: &'static str,
        /// Judges in seat order.
        panel: Vec<String>,
        /// Live-vote counts in first-seen order.
        tally: IndexMap<String, u32>,
        /// Votes in panel order.
        votes: Vec<Vote>,
    },
    /// Max-turns fail or exception.
    Short {
        /// fail or error.
        outcome: &'static str,
        /// Why.
        reasoning: String,
    },
}

fn verdict(o: &str) -> &'static str {
    match o {
        "pass" => "equivalent",
        "fail" => "not_equivalent",
        "error" => "error",
        _ => "cannot_determine",
    }
}

fn reason(rng: &mut ChaCha8Rng, o: &str, terse: bool) -> String {
    if terse {
        return match o {
            "pass" => "Same value.",
            "fail" => "Different value.",
            _ => "Unclear.",
        }
        .to_string();
    }
    let pass = [
        "Both conclusions report the same figure for the asked period and entity.",
        "The candidate's result matches the reference rows within tolerance.",
        "Same entity, same window and the same aggregate value; wording differs only.",
    ];
    let fail = [
        "The candidate reports a different value than the reference for the same question.",
        "The candidate filtered a different time window than the question asks for.",
        "The candidate answered about a different entity than the one named.",
        "The reference shows a non-empty result while the candidate concluded there is no data.",
    ];
    let tie = [
        "The question allows more than one reading and the two answers follow different ones.",
        "Not enough shared columns to tell whether the figures agree.",
    ];
    let list: &[&str] = match o {
        "pass" => &pass,
        "fail" => &fail,
        _ => &tie,
    };
    let base = list[rng.random_range(0..list.len())].to_string();
    if rng.random_bool(0.01) {
        format!("{base} {}", names::hostile(rng))
    } else {
        base
    }
}

/// Builds a panel score for `outcome`. `usable` = the candidate has a usable result;
/// `equivalent` = some candidate result equals a gold result; `old` drops vote outcomes;
/// `terse` uses two-word reasons (keeps the `large` preset modest).
pub fn panel_score(
    rng: &mut ChaCha8Rng,
    candidate: &str,
    outcome: Outcome,
    usable: bool,
    equivalent: bool,
    old: bool,
    terse: bool,
) -> Score {
    let panel: Vec<String> = models::panel(candidate)
        .into_iter()
        .map(String::from)
        .collect();
    let mut outcomes: Vec<&'static str> = match (outcome, usable) {
        (_, false) => vec!["fail"; panel.len()],
        (Outcome::Pass, _) => match rng.random_range(0..100) {
            0..72 => vec!["pass", "pass", "pass"],
            72..92 => vec!["pass", "pass", "fail"],
            92..97 => vec!["pass", "pass", "tie"],
            _ => vec!["pass", "pass", "error"],
        },
        (Outcome::Fail, _) => match rng.random_range(0..100) {
            0..60 => vec!["fail", "fail", "fail"],
            60..90 => vec!["fail", "fail", "pass"],
            _ => vec!["fail", "fail", "tie"],
        },
        (Outcome::Tie, _) => match rng.random_range(0..100) {
            0..55 => vec!["pass", "fail", "tie"],
            55..80 => vec!["pass", "fail", "error"],
            _ => vec!["tie", "tie", "pass"],
        },
        (Outcome::Error, _) => vec!["error", "error", "pass"],
    };
    outcomes.shuffle(rng);
    let mut tally: IndexMap<String, u32> = IndexMap::new();
    let votes: Vec<Vote> = outcomes
        .iter()
        .zip(&panel)
        .map(|(&o, judge)| {
            if o != "error" {
                *tally.entry(o.to_string()).or_insert(0) += 1;
            }
            if !usable {
                return Vote {
                    outcome: (!old).then_some("fail"),
                    verdict: "not_equivalent",
                    reasoning: "candidate returned no data".into(),
                    judge: judge.clone(),
                    data_equiv: None,
                };
            }
            if o == "error" {
                return Vote {
                    outcome: (!old).then_some("error"),
                    verdict: "error",
                    reasoning: "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}".into(),
                    judge: judge.clone(),
                    data_equiv: None,
                };
            }
            Vote {
                outcome: (!old).then_some(o),
                verdict: verdict(o),
                reasoning: reason(rng, o, terse),
                judge: judge.clone(),
                data_equiv: Some(if equivalent { "EQUIVALENT" } else { "NOT EQUIVALENT" }),
            }
        })
        .collect();
    Score::Panel {
        outcome: aggregate(&outcomes),
        panel,
        tally,
        votes,
    }
}

/// The harness's aggregation: drop errors; < 2 live → error; tied top two → tie; else plurality.
pub fn aggregate(outcomes: &[&'static str]) -> &'static str {
    let mut counts: IndexMap<&'static str, u32> = IndexMap::new();
    for o in outcomes.iter().filter(|o| **o != "error") {
        *counts.entry(*o).or_insert(0) += 1;
    }
    let live: u32 = counts.values().sum();
    if live < 2 {
        return "error";
    }
    let mut sorted: Vec<(&'static str, u32)> = counts.into_iter().collect();
    sorted.sort_by_key(|x| std::cmp::Reverse(x.1));
    if sorted.len() > 1 && sorted[0].1 == sorted[1].1 {
        "tie"
    } else {
        sorted[0].0
    }
}

#[cfg(test)]
mod tests {
    use super::aggregate;

    #[test]
    fn harness_aggregation_examples() {
        assert_eq!(aggregate(&["pass", "pass", "fail"]), "pass");
        assert_eq!(aggregate(&["pass", "tie", "fail"]), "tie");
        assert_eq!(aggregate(&["pass", "fail", "error"]), "tie");
        assert_eq!(aggregate(&["pass", "error", "error"]), "error");
    }
}
