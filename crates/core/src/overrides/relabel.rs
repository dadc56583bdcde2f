//! The failure label a labelling response gives, built as the harness builds its record
//! (harness-formats.md §7.6), so "Apply" puts exactly that label into the view.

use indexmap::IndexMap;

use crate::bundle::FailureLabel;
use crate::jev::Answer;
use crate::metrics::taxonomy::{family_confidence, family_of};

/// `base` with the fields of every answered label question replaced (§7.6):
/// - `sub_mode` (Choice): `sub_mode` = choice, `sub_mode_confidence` = confidence,
///   `family` = its family (`None` when the sub-mode is unknown), `family_confidence` = the
///   summed probabilities of that family (`None` without probabilities);
/// - `prevented_by_rule` (Choice): the choice and its confidence;
/// - `schema_hint_would_help`, `correct_despite_fail` (Noul): P(yes).
///
/// A question that was not asked, or was answered with another type (the viewer may edit
/// questions), leaves `base`'s fields for it unchanged. `trace_id`, `model`, `outcome`,
/// `checks`, `decidable_verdicts` and `extra` always come from `base`.
pub fn label_from_answers(base: &FailureLabel, answers: &IndexMap<String, Answer>) -> FailureLabel {
    let mut label = base.clone();
    if let Some(Answer::Choice {
        choice,
        confidence,
        probabilities,
    }) = answers.get("sub_mode")
    {
        let probabilities = (!probabilities.is_empty())
            .then(|| probabilities.iter().map(|(k, p)| (k.as_str(), *p)));
        label.sub_mode = Some(choice.clone());
        label.sub_mode_confidence = Some(*confidence);
        label.family = family_of(choice).map(str::to_owned);
        label.family_confidence = family_confidence(choice, probabilities);
    }
    if let Some(Answer::Choice {
        choice, confidence, ..
    }) = answers.get("prevented_by_rule")
    {
        label.prevented_by_rule = Some(choice.clone());
        label.prevented_by_rule_confidence = Some(*confidence);
    }
    if let Some(Answer::Noul { noul }) = answers.get("schema_hint_would_help") {
        label.schema_hint_would_help = Some(*noul);
    }
    if let Some(Answer::Noul { noul }) = answers.get("correct_despite_fail") {
        label.correct_despite_fail = Some(*noul);
    }
    label
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::bundle::Outcome;

    fn base() -> FailureLabel {
        FailureLabel {
            trace_id: "ex-007".into(),
            model: "gpt-4.1".into(),
            outcome: Some(Outcome::Fail),
            sub_mode: Some("wrong_table".into()),
            family: Some("schema_choice".into()),
            prevented_by_rule: Some("crm_join".into()),
            correct_despite_fail: Some(0.1),
            schema_hint_would_help: Some(0.9),
            ..FailureLabel::default()
        }
    }

    #[test]
    fn harness_vector_for_family_confidence() {
        // tests/test_label_failure_modes.py: {wrong_join .5, wrong_grain .2, wrong_table .3},
        // choice wrong_join → family query_construction, family_confidence 0.7.
        let answers: IndexMap<String, Answer> = [
            (
                "sub_mode".to_string(),
                Answer::Choice {
                    choice: "wrong_join".into(),
                    confidence: 0.8,
                    probabilities: [
                        ("wrong_join", 0.5),
                        ("wrong_grain", 0.2),
                        ("wrong_table", 0.3),
                    ]
                    .into_iter()
                    .map(|(k, p)| (k.to_string(), p))
                    .collect(),
                },
            ),
            (
                "prevented_by_rule".to_string(),
                Answer::Choice {
                    choice: "none".into(),
                    confidence: 0.7,
                    probabilities: IndexMap::new(),
                },
            ),
            (
                "correct_despite_fail".to_string(),
                Answer::Noul { noul: 0.93 },
            ),
            // Answered with another type: the recorded value stays.
            ("schema_hint_would_help".to_string(), Answer::Unknown),
        ]
        .into_iter()
        .collect();
        let label = label_from_answers(&base(), &answers);
        assert_eq!(
            label,
            FailureLabel {
                sub_mode: Some("wrong_join".into()),
                sub_mode_confidence: Some(0.8),
                family: Some("query_construction".into()),
                family_confidence: Some(0.5 + 0.2),
                prevented_by_rule: Some("none".into()),
                prevented_by_rule_confidence: Some(0.7),
                correct_despite_fail: Some(0.93),
                ..base()
            }
        );
    }

    #[test]
    fn unknown_sub_mode_and_no_probabilities_give_no_family() {
        let answers: IndexMap<String, Answer> = [(
            "sub_mode".to_string(),
            Answer::Choice {
                choice: "made_up".into(),
                confidence: 0.0,
                probabilities: IndexMap::new(),
            },
        )]
        .into_iter()
        .collect();
        let label = label_from_answers(&base(), &answers);
        assert_eq!(label.sub_mode.as_deref(), Some("made_up"));
        assert_eq!((label.family, label.family_confidence), (None, None));
        assert_eq!(label_from_answers(&base(), &IndexMap::new()), base());
    }
}
