//! `out/failure_labels.jsonl` (Jev labeller, §7.6) and `fm_labels.jsonl` (07, §7.8).

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use std::collections::HashMap;

use crate::cells::CellInfo;
use crate::checks::{Checks, RuleChecker};
use crate::models::{LABELLED, Model};
use crate::names;
use crate::plan::Outcome;
use crate::question::Question;
use crate::taxonomy::SubMode;

/// One `out/failure_labels.jsonl` row.
#[derive(Debug, Clone, Serialize)]
pub struct FailureLabel {
    /// Question id.
    pub trace_id: String,
    /// Model key.
    pub model: String,
    /// Always `fail` (the labeller's default filter).
    pub outcome: &'static str,
    /// Chosen sub-mode.
    pub sub_mode: &'static str,
    /// Choice confidence.
    pub sub_mode_confidence: f64,
    /// Family of the sub-mode.
    pub family: &'static str,
    /// Probability mass of the family (null without probabilities).
    pub family_confidence: Option<f64>,
    /// Semantic rule key or `none`.
    pub prevented_by_rule: &'static str,
    /// Choice confidence.
    pub prevented_by_rule_confidence: f64,
    /// P(yes).
    pub schema_hint_would_help: f64,
    /// P(yes).
    pub correct_despite_fail: f64,
    /// Mechanical facts.
    pub checks: Checks,
    /// Copy of `checks.decidable`.
    pub decidable_verdicts: indexmap::IndexMap<String, runlens_core::metrics::rule_checks::Verdict>,
}

/// One `fm_labels.jsonl` row.
#[derive(Debug, Clone, Serialize)]
pub struct FmLabel {
    /// Question id.
    pub trace_id: String,
    /// Model key.
    pub model: String,
    /// FM1..FM5 or `FM?`.
    pub fm: &'static str,
    /// One sentence.
    pub reason: String,
}

fn r4(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 10_000.0).round() / 10_000.0
}

fn rule_for(s: SubMode, rng: &mut ChaCha8Rng) -> &'static str {
    match s {
        SubMode::WrongTimeWindow => {
            if rng.random_bool(0.6) {
                "time_series_window"
            } else {
                "point_in_time_filter"
            }
        }
        SubMode::UnresolvedLookup | SubMode::WrongJoin => {
            if rng.random_bool(0.5) {
                "crm_join"
            } else {
                "dds_internal_ids"
            }
        }
        SubMode::WrongTable if rng.random_bool(0.4) => "mrr_guidance",
        SubMode::WrongFilter if rng.random_bool(0.3) => "point_in_time_filter",
        _ => "none",
    }
}

/// Builds the label rows for every dev `fail` cell of the four labelled models.
///
/// `correct_despite_fail` is placed so that exactly `n50` rows are ≥ 0.5 and `n65` ≥ 0.65
/// (article: 37 and 18); `correct_but_judged_fail` rows are always among the ≥ 0.65 ones.
pub fn failure_labels(
    questions: &[Question],
    models: &[Model],
    sqls: &HashMap<(usize, usize), Vec<String>>,
    infos: &[Vec<Option<CellInfo>>],
    (n50, n65): (usize, usize),
    rng: &mut ChaCha8Rng,
) -> Vec<FailureLabel> {
    let checker = RuleChecker::new().ok();
    let mut targets: Vec<(usize, usize, SubMode)> = Vec::new();
    for (qi, row) in infos.iter().enumerate() {
        for (mi, info) in row.iter().enumerate() {
            if let Some(info) = info.as_ref().filter(|i| i.outcome == Outcome::Fail)
                && LABELLED.contains(&models[mi].key.as_str())
            {
                targets.push((qi, mi, info.sub_mode.unwrap_or(SubMode::WrongFilter)));
            }
        }
    }
    // Order of "how correct it looks": judged-fail first, then a random mix.
    let mut order: Vec<usize> = (0..targets.len()).collect();
    order.shuffle(rng);
    let is_worked = |qi: usize, mi: usize| {
        models[mi].key == "gpt-4.1"
            && questions[qi].entity.as_deref() == Some("White, Leonard and Kelly")
    };
    order.sort_by_key(|&i| match targets[i].2 {
        _ if is_worked(targets[i].0, targets[i].1) => 3,
        SubMode::CorrectButJudgedFail => 0,
        SubMode::AmbiguousQuestion | SubMode::WrongTimeWindow | SubMode::WrongFilter => 1,
        _ => 2,
    });
    let mut cdf = vec![0.0; targets.len()];
    for (rank, &i) in order.iter().enumerate() {
        cdf[i] = if rank < n65 {
            rng.random_range(0.66..0.97)
        } else if rank < n50 {
            rng.random_range(0.51..0.64)
        } else {
            rng.random_range(0.02..0.48_f64).powf(1.3)
        };
    }
    let mut out = Vec::with_capacity(targets.len());
    for (i, &(qi, mi, s)) in targets.iter().enumerate() {
        let model = &models[mi];
        let weakness = 1.0 - model.strength;
        let worked = is_worked(qi, mi);
        let conf = r4(if worked {
            0.94
        } else {
            0.35 + weakness * 0.7 + rng.random_range(-0.12..0.12)
        });
        let family_conf = if rng.random_bool(0.02) {
            None
        } else {
            Some(r4(conf + rng.random_range(0.0..0.2)))
        };
        let rule = if worked { "none" } else { rule_for(s, rng) };
        let hint = match s {
            _ if worked => 0.78,
            SubMode::WrongTable
            | SubMode::WrongColumn
            | SubMode::UnresolvedLookup
            | SubMode::WrongJoin => rng.random_range(0.55..0.93),
            SubMode::WrongIdentifier => rng.random_range(0.35..0.8),
            _ => rng.random_range(0.04..0.45),
        };
        let checks = checker
            .as_ref()
            .and_then(|c| sqls.get(&(qi, mi)).map(|s| c.check(s)))
            .unwrap_or(Checks {
                decidable: Default::default(),
                n_queries: 0,
                has_repeated_query: false,
            });
        out.push(FailureLabel {
            trace_id: questions[qi].trace_id.clone(),
            model: model.key.clone(),
            outcome: "fail",
            sub_mode: s.key(),
            sub_mode_confidence: conf,
            family: s.family(),
            family_confidence: family_conf,
            prevented_by_rule: rule,
            prevented_by_rule_confidence: r4(rng.random_range(0.3..0.9)),
            schema_hint_would_help: r4(hint),
            correct_despite_fail: if worked { 0.2 } else { r4(cdf[i]) },
            decidable_verdicts: checks.decidable.clone(),
            checks,
        });
    }
    out.shuffle(rng);
    out
}

/// 07's FM labels for every dev `fail` cell that is not a budget failure.
pub fn fm_labels(
    questions: &[Question],
    models: &[Model],
    infos: &[Vec<Option<CellInfo>>],
    rng: &mut ChaCha8Rng,
) -> Vec<FmLabel> {
    let mut out = Vec::new();
    for (qi, row) in infos.iter().enumerate() {
        for (mi, info) in row.iter().enumerate() {
            let Some(info) = info.as_ref().filter(|i| i.outcome == Outcome::Fail) else {
                continue;
            };
            let err = info.error.clone().unwrap_or_default();
            if err.contains("max turns") || err.contains("max output tokens") {
                continue;
            }
            let (fm, reason): (&'static str, String) = if info.n_sqls == 0 {
                ("FM1", "candidate issued no SQL queries".into())
            } else if !err.is_empty() {
                ("FM5", err.chars().take(200).collect())
            } else if info.all_errors {
                ("FM5", "all SQL queries returned execution errors".into())
            } else if rng.random_bool(0.02) {
                (
                    "FM?",
                    "judge reply did not contain a failure-mode code".into(),
                )
            } else {
                let s = info.sub_mode.unwrap_or(SubMode::WrongFilter);
                let fm = s.llm_fm();
                let mut reason = match fm {
                    "FM3" => "The plan is right but the candidate selected the wrong table, column or entity.".to_string(),
                    "FM4" => "Right tables and entities, but the aggregation or join computes the wrong value.".to_string(),
                    _ => "The query logic answers a different question than the one asked.".to_string(),
                };
                if rng.random_bool(0.02) {
                    reason = format!("{reason} {}", names::hostile(rng));
                }
                (fm, reason)
            };
            out.push(FmLabel {
                trace_id: questions[qi].trace_id.clone(),
                model: models[mi].key.clone(),
                fm,
                reason,
            });
        }
    }
    out
}
