//! Jev answer objects built from option probabilities, as the package's `Decider.ask` does.
//!
//! Every number is rounded to 4 decimals, as the package rounds them.
//! * noul: `{"type":"noul","noul":P(true)}`.
//! * choice: `choice` = first option with the highest probability; `confidence` =
//!   `(n·p_max − 1)/(n − 1)` = `(p_max − 1/n)/(1 − 1/n)`, the formula TypeSafe documents
//!   (0 for a uniform answer, 1 for a certain one). For a single option (which the package
//!   rejects, Jev accepts) the probability is 1 and the confidence is defined as 1.
//! * score: `score` = `Σ i·pᵢ` (expected level); `confidence` = `1 − sd/((n−1)/2)` with
//!   `sd = √(Σ pᵢ (i − score)²)`. This is the **package's** formula; TypeSafe's documented one is
//!   `max(0, 1 − Σ pᵢ|i − mode| / U(n))`, so score confidences are not comparable with Jev's.
//!   `legend` maps `"0".."n-1"` to each level's text as the model read it (a string stripped of
//!   surrounding whitespace, an object as indented JSON text, null as `""`).

use crate::model::Kind;
use crate::question::ParsedQuestion;
use serde_json::{Map, Value, json};

/// `x` rounded to 4 decimals (half away from zero; Python's `round` differs only on exact ties).
///
/// ```
/// assert_eq!(runlens_sparrow::answer::round4(0.123_449_9), 0.1234);
/// assert_eq!(runlens_sparrow::answer::round4(0.987_65), 0.9877);
/// ```
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The answer object for `question` given its options' probabilities (same order, same count).
pub fn answer_object(question: &ParsedQuestion, probs: &[f32]) -> Value {
    match question.kind {
        Kind::Noul => {
            let p_true = probs.get(1).copied().unwrap_or(0.0);
            json!({"type": "noul", "noul": round4(f64::from(p_true))})
        }
        Kind::Choice => {
            let (best, p_max) = argmax(probs);
            json!({
                "type": "choice",
                "choice": question.options.get(best).map(|o| o.0.clone()).unwrap_or_default(),
                "probabilities": probability_map(question, probs),
                "confidence": round4(f64::from(choice_confidence(p_max, probs.len()))),
            })
        }
        Kind::Score => {
            let (score, confidence) = score_summary(probs);
            let legend: Map<String, Value> = question
                .options
                .iter()
                .map(|(name, desc)| (name.clone(), Value::String(desc.clone())))
                .collect();
            json!({
                "type": "score",
                "score": round4(score),
                "legend": legend,
                "probabilities": probability_map(question, probs),
                "confidence": round4(confidence),
            })
        }
    }
}

/// Index and value of the first maximum (NumPy's `argmax`); `(0, 0.0)` for an empty slice.
pub fn argmax(probs: &[f32]) -> (usize, f32) {
    let mut best = (0, probs.first().copied().unwrap_or(0.0));
    for (i, &p) in probs.iter().enumerate().skip(1) {
        if p > best.1 {
            best = (i, p);
        }
    }
    best
}

/// `(n·p − 1)/(n − 1)` computed in f32 like the package; 1.0 when `n ≤ 1`.
///
/// ```
/// use runlens_sparrow::answer::choice_confidence;
/// // The neurolink sample in jev-api.md §5: p_max 0.33 of 4 → (4·0.33 − 1)/3 = 0.32/3.
/// assert!((choice_confidence(0.33, 4) - 0.32 / 3.0).abs() < 1e-6);
/// assert_eq!(choice_confidence(0.25, 4), 0.0);
/// assert_eq!(choice_confidence(1.0, 1), 1.0);
/// ```
pub fn choice_confidence(p_max: f32, n: usize) -> f32 {
    if n <= 1 {
        return 1.0;
    }
    (n as f32 * p_max - 1.0) / (n as f32 - 1.0)
}

/// `(expected level, 1 − sd/((n−1)/2))` in f64 (the package promotes to f64 here).
///
/// ```
/// use runlens_sparrow::answer::score_summary;
/// // p = (0.25, 0.5, 0.25): mean 1, variance 0.25·1 + 0.25·1 = 0.5, sd √0.5, (n−1)/2 = 1.
/// let (score, conf) = score_summary(&[0.25, 0.5, 0.25]);
/// assert_eq!(score, 1.0);
/// assert!((conf - (1.0 - 0.5f64.sqrt())).abs() < 1e-12);
/// ```
pub fn score_summary(probs: &[f32]) -> (f64, f64) {
    let ev: f64 = probs
        .iter()
        .enumerate()
        .map(|(i, &p)| i as f64 * f64::from(p))
        .sum();
    let var: f64 = probs
        .iter()
        .enumerate()
        .map(|(i, &p)| (i as f64 - ev).powi(2) * f64::from(p))
        .sum();
    let half_range = (probs.len() as f64 - 1.0) / 2.0;
    let confidence = if half_range > 0.0 {
        1.0 - var.sqrt() / half_range
    } else {
        1.0
    };
    (ev, confidence)
}

fn probability_map(question: &ParsedQuestion, probs: &[f32]) -> Map<String, Value> {
    question
        .options
        .iter()
        .zip(probs)
        .map(|((name, _), &p)| (name.clone(), json!(round4(f64::from(p)))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(kind: Kind, names: &[&str]) -> ParsedQuestion {
        ParsedQuestion {
            kind,
            instructions: String::new(),
            options: names
                .iter()
                .map(|n| (n.to_string(), format!("{n} text")))
                .collect(),
        }
    }

    #[test]
    fn choice_answer_shape_and_first_maximum() {
        let q = question(Kind::Choice, &["a", "b", "c"]);
        let v = answer_object(&q, &[0.4, 0.4, 0.2]);
        // (3·0.4 − 1)/2 = 0.1
        assert_eq!(
            v,
            json!({"type": "choice", "choice": "a", "confidence": 0.1,
                   "probabilities": {"a": 0.4, "b": 0.4, "c": 0.2}})
        );
    }

    #[test]
    fn noul_and_score_answer_shapes() {
        let v = answer_object(&question(Kind::Noul, &["false", "true"]), &[0.3, 0.7]);
        assert_eq!(v, json!({"type": "noul", "noul": 0.7}));
        let v = answer_object(&question(Kind::Score, &["0", "1"]), &[0.0, 1.0]);
        // certain top level: score 1, sd 0 → confidence 1
        assert_eq!(
            v,
            json!({"type": "score", "score": 1.0, "confidence": 1.0,
                   "legend": {"0": "0 text", "1": "1 text"},
                   "probabilities": {"0": 0.0, "1": 1.0}})
        );
    }

    #[test]
    fn argmax_of_empty_is_zero() {
        assert_eq!(argmax(&[]), (0, 0.0));
    }
}
