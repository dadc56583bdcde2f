//! Which outcome (and, for failures, which sub-mode) each (question, model) cell gets.
//!
//! For the `article` dev corpus the four labelled models get exactly `ARTICLE_MATRIX`;
//! everything else is drawn from model strength and question hardness.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::models::{LABELLED, Model, Variant};
use crate::question::Question;
use crate::taxonomy::{ALL, ARTICLE_MATRIX, SubMode};

/// Judged outcome of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Judged correct.
    Pass,
    /// Judged wrong (or ran out of turns with no answer).
    Fail,
    /// Split panel.
    Tie,
    /// Runner or judge exception.
    Error,
}

impl Outcome {
    /// The harness's string for this outcome.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Tie => "tie",
            Outcome::Error => "error",
        }
    }
}

/// Cell-level oddities the importer must cope with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// An ordinary cell.
    None,
    /// `null` in the candidates map.
    Null,
    /// Key absent from the candidates map.
    Missing,
    /// Infra error: turns 0, latency null, usage null.
    Infra,
    /// Last turn truncated by the output cap (`"max output tokens"`).
    MaxOutputTokens,
    /// Older cell: usage without `per_turn`, votes with only `verdict`.
    OldStyle,
    /// `usage: null`.
    NoUsage,
    /// Correct answer through another dimension (misses a gold table).
    AltRoute,
}

/// The plan for one cell.
#[derive(Debug, Clone, Copy)]
pub struct CellPlan {
    /// Outcome the judge panel will give.
    pub outcome: Outcome,
    /// Sub-mode of a failure (also used to shape tie cells).
    pub sub_mode: Option<SubMode>,
    /// Oddity.
    pub special: Special,
}

fn weights() -> Vec<(SubMode, u32)> {
    ALL.iter()
        .zip(ARTICLE_MATRIX.iter())
        .map(|(s, row)| (*s, row.iter().sum::<u32>()))
        .collect()
}

fn draw_sub_mode(rng: &mut ChaCha8Rng, q: &Question) -> SubMode {
    let w: Vec<(SubMode, u32)> = weights()
        .into_iter()
        .filter(|(s, _)| !s.needs_entity() || q.shape.has_entity())
        .collect();
    let total: u32 = w.iter().map(|x| x.1).sum();
    let mut r = rng.random_range(0..total.max(1));
    for (s, n) in &w {
        if r < *n {
            return *s;
        }
        r -= n;
    }
    SubMode::WrongFilter
}

/// Plans every cell: `plan[q][m]`. `exact_labelled` pins the article matrix.
pub fn plan(
    questions: &[Question],
    models: &[Model],
    exact_labelled: bool,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<CellPlan>> {
    let mut plan = vec![
        vec![
            CellPlan {
                outcome: Outcome::Pass,
                sub_mode: None,
                special: Special::None
            };
            models.len()
        ];
        questions.len()
    ];
    for (mi, model) in models.iter().enumerate() {
        let labelled = LABELLED.iter().position(|k| *k == model.key);
        match labelled {
            Some(col) if exact_labelled => plan_exact(questions, &mut plan, mi, col, rng),
            _ => {
                for (qi, q) in questions.iter().enumerate() {
                    plan[qi][mi] = draw(rng, q, model, labelled.is_some());
                }
            }
        }
    }
    plan
}

/// How often a variant's improved model passes a cell it did not (fail or tie), and its
/// regressed model fails a cell it passed.
const FLIP: f64 = 0.3;

/// Applies `variant` to a drawn `plan` (questions × `models`): each improved model's fail
/// and tie cells pass with probability [`FLIP`], each regressed model's pass cells fail (with
/// a drawn sub-mode); errors stay.
pub fn perturb(
    plan: &mut [Vec<CellPlan>],
    questions: &[Question],
    models: &[Model],
    variant: &Variant,
    rng: &mut ChaCha8Rng,
) {
    for (mi, model) in models.iter().enumerate() {
        let up = variant.improved.contains(&model.key);
        let down = variant.regressed.contains(&model.key);
        if !up && !down {
            continue;
        }
        for (qi, q) in questions.iter().enumerate() {
            let cell = &mut plan[qi][mi];
            let flip = rng.random_bool(FLIP);
            match cell.outcome {
                Outcome::Fail | Outcome::Tie if up && flip => {
                    cell.outcome = Outcome::Pass;
                    cell.sub_mode = None;
                }
                Outcome::Pass if down && flip => {
                    cell.outcome = Outcome::Fail;
                    cell.sub_mode = Some(draw_sub_mode(rng, q));
                }
                _ => {}
            }
        }
    }
}

fn draw(rng: &mut ChaCha8Rng, q: &Question, model: &Model, labelled: bool) -> CellPlan {
    let cell = |outcome, sub_mode, special| CellPlan {
        outcome,
        sub_mode,
        special,
    };
    if !labelled {
        let r: f64 = rng.random();
        if r < 0.004 {
            return cell(Outcome::Error, None, Special::Null);
        }
        if r < 0.007 {
            return cell(Outcome::Error, None, Special::Missing);
        }
        if r < 0.017 {
            return cell(Outcome::Error, None, Special::Infra);
        }
    }
    let p_pass = (model.strength + (0.5 - q.hardness) * 0.7).clamp(0.03, 0.98);
    let special = match rng.random_range(0..100) {
        0..3 => Special::OldStyle,
        3..5 if !labelled => Special::NoUsage,
        _ => Special::None,
    };
    let r: f64 = rng.random();
    if r < p_pass {
        return cell(Outcome::Pass, None, special);
    }
    if r < p_pass + 0.05 {
        return cell(Outcome::Tie, Some(draw_sub_mode(rng, q)), special);
    }
    let sub = draw_sub_mode(rng, q);
    let special = if !labelled && rng.random_bool(0.03) {
        Special::MaxOutputTokens
    } else {
        special
    };
    cell(Outcome::Fail, Some(sub), special)
}

fn plan_exact(
    questions: &[Question],
    plan: &mut [Vec<CellPlan>],
    mi: usize,
    col: usize,
    rng: &mut ChaCha8Rng,
) {
    let mut used = vec![false; questions.len()];
    let mut instances: Vec<SubMode> = Vec::new();
    for (s, row) in ALL.iter().zip(ARTICLE_MATRIX.iter()) {
        instances.extend(std::iter::repeat_n(*s, row[col] as usize));
    }
    // The published worked example: GPT-4.1 splits "White, Leonard and Kelly" (question 1).
    if LABELLED[col] == "gpt-4.1"
        && questions.len() > 1
        && let Some(pos) = instances
            .iter()
            .position(|s| *s == SubMode::WrongIdentifier)
    {
        instances.remove(pos);
        used[1] = true;
        plan[1][mi] = CellPlan {
            outcome: Outcome::Fail,
            sub_mode: Some(SubMode::WrongIdentifier),
            special: Special::None,
        };
    }
    instances.sort_by_key(|s| !s.needs_entity());
    let noisy: Vec<f64> = questions
        .iter()
        .map(|q| q.hardness + rng.random_range(0.0..0.6))
        .collect();
    for s in instances {
        let best = (0..questions.len())
            .filter(|&qi| !used[qi] && (!s.needs_entity() || questions[qi].shape.has_entity()))
            .max_by(|&a, &b| noisy[a].total_cmp(&noisy[b]));
        if let Some(qi) = best {
            used[qi] = true;
            plan[qi][mi] = CellPlan {
                outcome: Outcome::Fail,
                sub_mode: Some(s),
                special: Special::None,
            };
        }
    }
    for qi in 0..questions.len() {
        if !used[qi] {
            let tie = rng.random_bool(0.06);
            plan[qi][mi] = CellPlan {
                outcome: if tie { Outcome::Tie } else { Outcome::Pass },
                sub_mode: if tie {
                    Some(SubMode::WrongFilter)
                } else {
                    None
                },
                special: Special::None,
            };
        }
    }
}
