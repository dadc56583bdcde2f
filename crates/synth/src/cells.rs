//! Candidate cells: a trajectory (statements, results, answer), its score and usage.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::catalog::{Catalog, Role};
use crate::corpus::answer;
use crate::gold::Matchers;
use crate::judge::{self, Score};
use crate::models::Model;
use crate::names;
use crate::plan::{CellPlan, Outcome, Special};
use crate::question::Question;
use crate::results::{self, EMPTY};
use crate::sql::{self, Variant};
use crate::taxonomy::SubMode;
use crate::usage::{self, Usage};

/// A stored candidate cell (`results.jsonl` → `candidates[model]`), field order as written.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// Statements in call order.
    pub sqls: Vec<String>,
    /// Clean results, parallel to `sqls`.
    pub sql_results: Vec<String>,
    /// Final answer ("" when none).
    pub final_answer: String,
    /// Model calls.
    pub turns: u32,
    /// Seconds, null on infra errors.
    pub latency: Option<f64>,
    /// Judge output.
    pub result_score: Score,
    /// Provider model id.
    pub served_model: String,
    /// Runner error.
    pub error: Option<String>,
    /// Token usage.
    pub usage: Option<Usage>,
}

/// What later stages (labels, gate) need to know about a built cell.
#[derive(Debug, Clone)]
pub struct CellInfo {
    /// Aggregated outcome.
    pub outcome: Outcome,
    /// Planned sub-mode of a failure.
    pub sub_mode: Option<SubMode>,
    /// Gate population: not error, and has results or an answer.
    pub usable: bool,
    /// Tables the statements read (FROM/JOIN regex).
    pub tables_read: Vec<String>,
    /// Turns.
    pub turns: u32,
    /// Latency.
    pub latency: Option<f64>,
    /// Usage.
    pub usage: Option<Usage>,
    /// Runner error.
    pub error: Option<String>,
    /// Number of statements.
    pub n_sqls: usize,
    /// True when every result is an error string.
    pub all_errors: bool,
}

struct Traj {
    sqls: Vec<String>,
    res: Vec<String>,
    answer: String,
    error: Option<String>,
    turns_floor: u32,
}

fn other_fact(cat: &Catalog, q: &Question, rng: &mut ChaCha8Rng) -> usize {
    let facts: Vec<usize> = cat.facts().into_iter().filter(|&f| f != q.fact).collect();
    *facts.choose(rng).unwrap_or(&q.fact)
}

fn alt_dim(cat: &Catalog, q: &Question) -> Option<usize> {
    let d = q.dim?;
    let key = sql::dim_parts(&cat.tables[d])?.0.to_string();
    (0..cat.tables.len()).find(|&i| {
        i != d
            && matches!(cat.tables[i].role, Role::Dim { .. })
            && cat.tables[i].columns.iter().any(|c| c.name == key)
    })
}

fn push(t: &mut Traj, sql: String, res: String) {
    t.sqls.push(sql);
    t.res.push(res);
}

fn explore(cat: &Catalog, q: &Question, t: &mut Traj, rng: &mut ChaCha8Rng, n: usize) {
    let fact = &cat.tables[q.fact];
    let date = sql::fact_parts(fact, q.metric)
        .map(|p| p.date.to_string())
        .unwrap_or_else(|| "day".into());
    // Same statement, same result: values derive from the question seed or the table index.
    let stable = |salt: u64| {
        q.value_seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(salt as u32 % 64)
    };
    let start = rng.random_range(0..3usize);
    let mut tables: Vec<usize> = (0..cat.tables.len()).filter(|&o| o != q.fact).collect();
    tables.shuffle(rng);
    let mut others = tables.into_iter();
    for i in 0..n {
        match (start + i, q.dim) {
            (0, _) => push(
                t,
                format!(
                    "SELECT min({date}) AS first_date, max({date}) AS last_date FROM {}",
                    fact.qualified()
                ),
                format!(
                    "{{\"first_date\":\"2024-01-01\",\"last_date\":\"{}\"}}",
                    names::SNAPSHOT
                ),
            ),
            (1, Some(d)) => {
                let d = &cat.tables[d];
                let attr = sql::dim_parts(d).map(|p| p.2).unwrap_or("segment");
                push(
                    t,
                    format!(
                        "SELECT {attr}, count() AS n FROM {} GROUP BY {attr} ORDER BY n DESC",
                        d.qualified()
                    ),
                    format!(
                        "{{\"{attr}\":\"enterprise\",\"n\":\"{}\"}}\n{{\"{attr}\":\"growth\",\"n\":\"{}\"}}",
                        40 + stable(1) % 360,
                        10 + stable(2) % 30
                    ),
                );
            }
            (2, _) => push(
                t,
                sql::describe_statement(cat, q),
                results::describe_result(cat, q, None),
            ),
            _ => {
                let Some(o) = others.next() else { break };
                push(
                    t,
                    format!(
                        "SELECT count() AS row_count FROM {}",
                        cat.tables[o].qualified()
                    ),
                    format!(
                        "{{\"row_count\":\"{}\"}}",
                        500 + (o as u64 * 7919 + 13) % 400_000
                    ),
                );
            }
        }
    }
}

fn main_with(cat: &Catalog, q: &Question, t: &mut Traj, v: Variant) -> String {
    let r = results::main_result(cat, q, v);
    push(t, sql::main_statement(cat, q, v), r.clone());
    r
}

fn trajectory(
    cat: &Catalog,
    q: &Question,
    plan: &CellPlan,
    model: &Model,
    explore_scale: f64,
    rng: &mut ChaCha8Rng,
) -> Traj {
    let mut t = Traj {
        sqls: Vec::new(),
        res: Vec::new(),
        answer: String::new(),
        error: None,
        turns_floor: 0,
    };
    let mean = (1.6 + (1.0 - model.strength) * 6.0 + q.hardness * 3.0) * explore_scale;
    let n_explore = ((-rng.random_range(0.0001..1.0f64).ln() * mean) as usize).min(40);
    explore(cat, q, &mut t, rng, n_explore);
    let lookup = |t: &mut Traj, wrong: bool| {
        if let Some(s) = sql::lookup_statement(cat, q, wrong) {
            push(t, s, results::lookup_result(cat, q, wrong));
        }
    };
    let sub = plan.sub_mode.unwrap_or(SubMode::WrongFilter);
    match (plan.outcome, sub) {
        (Outcome::Pass, _) => {
            let alt = if q.shape.has_entity() && rng.random_bool(0.12) {
                alt_dim(cat, q)
            } else {
                None
            };
            match alt {
                Some(a) => {
                    main_with(cat, q, &mut t, Variant::AltDim(a));
                }
                None => {
                    // Compact runs (large preset) often filter by name in the join directly.
                    if q.shape.has_entity() && (explore_scale >= 1.0 || rng.random_bool(0.3)) {
                        lookup(&mut t, false);
                    }
                    main_with(cat, q, &mut t, Variant::Gold);
                }
            }
            let gold = q.gt_results.last().cloned().unwrap_or_default();
            t.answer = answer(cat, q, &gold, None);
        }
        (Outcome::Tie, _) => {
            let r = main_with(cat, q, &mut t, Variant::ShortWindow);
            t.answer = answer(
                cat,
                q,
                &r,
                Some(
                    "The question does not fix the window, so I used the most recent complete period.",
                ),
            );
        }
        (_, SubMode::WrongIdentifier) => {
            lookup(&mut t, true);
            let e = q.entity.clone().unwrap_or_default();
            t.answer = format!(
                "I could not find {e}: searching for its name parts returned no rows, so no such organisations exist in the warehouse."
            );
        }
        (_, SubMode::StoppedEarly) => {
            if q.shape.has_entity() && rng.random_bool(0.5) {
                lookup(&mut t, true);
            } else {
                let s = sql::main_statement(cat, q, Variant::ShortWindow);
                push(&mut t, s, EMPTY.into());
            }
            t.answer =
                "There is no data for this in the warehouse for the requested period.".into();
        }
        (_, SubMode::ClickhouseError) => {
            main_with(cat, q, &mut t, Variant::UnknownColumn);
            if rng.random_bool(0.5) {
                main_with(cat, q, &mut t, Variant::UnknownColumn);
                t.answer = "The queries failed with an unknown identifier error, so I could not compute the value.".into();
            } else {
                let r = main_with(cat, q, &mut t, Variant::Avg);
                t.answer = answer(cat, q, &r, None);
            }
        }
        (_, SubMode::RanOutOfBudget) => {
            let budget = 60;
            let variants = [
                Variant::ShortWindow,
                Variant::NoFilter,
                Variant::Avg,
                Variant::UnknownColumn,
                Variant::CountRows,
            ];
            explore(cat, q, &mut t, rng, 6);
            while t.sqls.len() < rng.random_range(52..70) {
                let v = *variants.choose(rng).unwrap_or(&Variant::Avg);
                main_with(cat, q, &mut t, v);
            }
            t.error = Some(format!("max turns ({budget})"));
            t.turns_floor = budget;
        }
        (_, SubMode::ToolLoop) => {
            let s = sql::main_statement(cat, q, Variant::NoFilter);
            let r = results::main_result(cat, q, Variant::NoFilter);
            for i in 0..rng.random_range(6..11) {
                let text = if i % 2 == 0 {
                    s.clone()
                } else {
                    s.replace("SELECT ", "select  ")
                };
                push(&mut t, text, r.clone());
            }
            t.answer = answer(cat, q, &r, Some("(checked several times)"));
        }
        (_, SubMode::CorrectButJudgedFail) => {
            let gold = q.gt_results.last().cloned().unwrap_or_default();
            let main = sql::main_statement(cat, q, Variant::Gold);
            let lines: Vec<&str> = gold.lines().collect();
            let half = lines.len().div_ceil(2);
            push(
                &mut t,
                main.clone(),
                lines[..half.min(lines.len())].join("\n"),
            );
            let second = if half < lines.len() {
                lines[half..].join("\n")
            } else {
                results::main_result(cat, q, Variant::ShortWindow)
            };
            push(&mut t, main.replace("SELECT ", "SELECT DISTINCT "), second);
            t.answer = answer(
                cat,
                q,
                &gold,
                Some("I split the lookup across two queries."),
            );
        }
        (_, s) => {
            let v = match s {
                SubMode::UnresolvedLookup => Variant::NoLookup,
                SubMode::WrongTable => Variant::OtherFact(other_fact(cat, q, rng)),
                SubMode::WrongColumn | SubMode::MisreadQuestion => Variant::OtherMetric,
                SubMode::WrongJoin => Variant::BadJoin,
                SubMode::WrongGrain => Variant::CountRows,
                SubMode::WrongAggregation => Variant::Avg,
                SubMode::WrongTimeWindow if rng.random_bool(0.5) => Variant::NowWindow,
                SubMode::WrongTimeWindow | SubMode::AmbiguousQuestion => Variant::ShortWindow,
                _ => Variant::NoFilter,
            };
            if q.shape.has_entity()
                && !matches!(v, Variant::NoLookup)
                && rng.random_bool(if explore_scale >= 1.0 { 0.5 } else { 0.2 })
            {
                lookup(&mut t, false);
            }
            let r = main_with(cat, q, &mut t, v);
            t.answer = answer(cat, q, &r, None);
        }
    }
    if rng.random_bool(0.012)
        && let Some(first) = t.sqls.first_mut()
    {
        *first = format!("-- {}\n{first}", names::hostile(rng));
    }
    if !t.answer.is_empty() && rng.random_bool(0.01) {
        t.answer = format!("{} {}", t.answer, names::hostile(rng));
    }
    t
}

/// Builds one cell, or `None` for a planned null/missing cell. `explore_scale` scales the
/// number of exploratory statements (1.0 for `article`, smaller for `large`).
pub fn build(
    cat: &Catalog,
    m: &Matchers,
    q: &Question,
    model: &Model,
    plan: &CellPlan,
    explore_scale: f64,
    rng: &mut ChaCha8Rng,
) -> (Option<Cell>, Option<CellInfo>) {
    if matches!(plan.special, Special::Null | Special::Missing) {
        return (None, None);
    }
    let old = plan.special == Special::OldStyle;
    if plan.special == Special::Infra {
        let msg = [
            "APIConnectionError: Connection error.",
            "ReadTimeout: The read operation timed out",
            "ThrottlingException: Too many requests, please wait before trying again.",
        ]
        .choose(rng)
        .copied()
        .unwrap_or("error");
        let cell = Cell {
            sqls: vec![],
            sql_results: vec![],
            final_answer: String::new(),
            turns: 0,
            latency: None,
            result_score: Score::Short {
                outcome: "error",
                reasoning: msg.into(),
            },
            served_model: model.served.clone(),
            error: Some(msg.into()),
            usage: None,
        };
        let info = CellInfo {
            outcome: Outcome::Error,
            sub_mode: None,
            usable: false,
            tables_read: vec![],
            turns: 0,
            latency: None,
            usage: None,
            error: cell.error.clone(),
            n_sqls: 0,
            all_errors: false,
        };
        return (Some(cell), Some(info));
    }
    let mut t = trajectory(cat, q, plan, model, explore_scale, rng);
    let n = t.sqls.len() as u32;
    let batched = if n >= 3 {
        rng.random_range(0..=n / 3)
    } else {
        0
    };
    let mut turns = (n + 1).saturating_sub(batched).max(t.turns_floor).max(1);
    if t.error.is_some() {
        turns = t.turns_floor;
    }
    if plan.special == Special::MaxOutputTokens {
        t.error = Some("max output tokens".into());
        let cut = t
            .answer
            .char_indices()
            .nth(t.answer.chars().count() / 2)
            .map(|(i, _)| i)
            .unwrap_or(0);
        t.answer.truncate(cut);
    }
    let latency = (0..turns).map(|_| rng.random_range(1.2..7.5)).sum::<f64>();
    let latency = (latency * 100.0).round() / 100.0;
    let usage = if plan.special == Special::NoUsage {
        None
    } else {
        let verbose = 1.0 + (1.0 - model.strength) * 0.6;
        Some(usage::usage(
            rng,
            turns,
            usage::cache_style(&model.key),
            model.reasoning,
            old,
            verbose,
        ))
    };
    let usable_res = t
        .res
        .iter()
        .any(|r| !r.is_empty() && !r.starts_with("Error:") && r != EMPTY);
    let equivalent = t.res.iter().any(|r| {
        q.gt_results
            .iter()
            .any(|g| g == r && g != EMPTY && !g.starts_with("Error:"))
    });
    let score = if t
        .error
        .as_deref()
        .is_some_and(|e| e.starts_with("max turns"))
        && t.answer.is_empty()
    {
        Score::Short {
            outcome: "fail",
            reasoning: "max turns (60) reached with no final answer".into(),
        }
    } else {
        judge::panel_score(
            rng,
            &model.key,
            plan.outcome,
            usable_res,
            equivalent,
            old,
            explore_scale < 1.0,
        )
    };
    let outcome = match &score {
        Score::Panel { outcome, .. } | Score::Short { outcome, .. } => match *outcome {
            "pass" => Outcome::Pass,
            "fail" => Outcome::Fail,
            "tie" => Outcome::Tie,
            _ => Outcome::Error,
        },
    };
    let info = CellInfo {
        outcome,
        sub_mode: plan.sub_mode,
        usable: outcome != Outcome::Error && (!t.res.is_empty() || !t.answer.is_empty()),
        tables_read: m.gold(&t.sqls),
        turns,
        latency: Some(latency),
        usage: usage.clone(),
        error: t.error.clone(),
        n_sqls: t.sqls.len(),
        all_errors: !t.res.is_empty() && t.res.iter().all(|r| r.starts_with("Error")),
    };
    let cell = Cell {
        sqls: t.sqls,
        sql_results: t.res,
        final_answer: t.answer,
        turns,
        latency: Some(latency),
        result_score: score,
        served_model: model.served.clone(),
        error: t.error,
        usage,
    };
    (Some(cell), Some(info))
}
