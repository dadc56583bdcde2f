//! The questions behind a paired difference ([`super::compare`]): for one model, the
//! questions of a corpus scored in both runs whose score changed from run A to run B.

use std::collections::HashMap;

use super::run_scores::CorpusScores;

/// One question whose score changed: its key and its score in each run (1 pass, 0.5 tie,
/// 0 fail).
#[derive(Debug, Clone, PartialEq)]
pub struct Flip {
    /// The question's `trace_id`.
    pub trace_id: String,
    /// Score in run A.
    pub a: f64,
    /// Score in run B.
    pub b: f64,
}

impl Flip {
    /// Whether the score rose.
    pub fn improved(&self) -> bool {
        self.b > self.a
    }

    /// The change in words: `fail → pass`, `pass → tie`, ….
    pub fn words(&self) -> String {
        let word = |s: f64| match s {
            1.0 => "pass",
            0.5 => "tie",
            _ => "fail",
        };
        format!("{} → {}", word(self.a), word(self.b))
    }
}

/// The questions of `a`'s corpus that `b`'s has too (by `trace_id`, the first row of a key)
/// whose score for `model` differs, both scored, in A's order. A model missing from either
/// run has none.
///
/// ## Example
/// A: q1 pass, q2 fail, q3 tie; B: q3 pass, q2 fail, q1 fail → q1 pass → fail,
/// q3 tie → pass (q2 unchanged).
pub fn flips(a: &CorpusScores, b: &CorpusScores, model: &str) -> Vec<Flip> {
    let (Some(sa), Some(sb)) = (column(a, model), column(b, model)) else {
        return Vec::new();
    };
    let mut in_b: HashMap<&str, usize> = HashMap::with_capacity(b.trace_ids.len());
    for (j, key) in b.trace_ids.iter().enumerate() {
        in_b.entry(key.as_str()).or_insert(j);
    }
    a.trace_ids
        .iter()
        .enumerate()
        .filter_map(|(i, key)| {
            let j = *in_b.get(key.as_str())?;
            let (x, y) = ((*sa.get(i)?)?, (*sb.get(j)?)?);
            (x != y).then(|| Flip {
                trace_id: key.clone(),
                a: x,
                b: y,
            })
        })
        .collect()
}

/// `model`'s scores in `c`.
fn column<'a>(c: &'a CorpusScores, model: &str) -> Option<&'a [Option<f64>]> {
    let i = c.models.iter().position(|m| m == model)?;
    c.scores.get(i).map(|s| s.0.as_slice())
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::metrics::run_scores::ScoreColumn;

    fn corpus(keys: &[&str], models: &[&str], codes: &[&str]) -> CorpusScores {
        CorpusScores {
            name: "dev".into(),
            trace_ids: keys.iter().map(|k| (*k).to_owned()).collect(),
            models: models.iter().map(|m| (*m).to_owned()).collect(),
            scores: codes
                .iter()
                .map(|c| ScoreColumn::parse(c).unwrap())
                .collect(),
        }
    }

    #[test]
    fn the_questions_whose_score_changed_in_as_order() {
        // A: m = pass, fail, tie, error; B (other order): q4 pass, q3 pass, q2 fail, q1 fail.
        let a = corpus(&["q1", "q2", "q3", "q4"], &["m"], &["pft."]);
        let b = corpus(
            &["q4", "q3", "q2", "q1", "q9"],
            &["k", "m"],
            &["ppppp", "ppffp"],
        );
        let got = flips(&a, &b, "m");
        // q4 has no score in A: not a flip; q9 is not in A.
        assert_eq!(
            got,
            [
                Flip {
                    trace_id: "q1".into(),
                    a: 1.0,
                    b: 0.0
                },
                Flip {
                    trace_id: "q3".into(),
                    a: 0.5,
                    b: 1.0
                },
            ]
        );
        assert_eq!(
            got.iter()
                .map(|f| (f.words(), f.improved()))
                .collect::<Vec<_>>(),
            [
                ("pass → fail".to_owned(), false),
                ("tie → pass".to_owned(), true)
            ]
        );
        // The number of flips each way is the paired difference's improved / regressed.
        assert!(flips(&a, &b, "k").is_empty());
        assert!(flips(&a, &b, "absent").is_empty());
    }
}
