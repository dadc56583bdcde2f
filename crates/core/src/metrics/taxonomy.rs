//! The Jev failure taxonomy as data (harness-formats §7.1, §7.2): 16 sub-modes → 7
//! families → the 7 FM crosswalk buckets, with the plot's bucket order and colours.

use serde::{Deserialize, Serialize};

/// One sub-mode with its family, FM bucket and the exact criterion text sent to Jev.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubMode {
    /// Sub-mode key (e.g. `wrong_join`).
    pub key: &'static str,
    /// Family key (`FAMILY_OF`).
    pub family: &'static str,
    /// Crosswalk bucket (`FM_OF`).
    pub bucket: FmBucket,
    /// The Choice criterion description, verbatim.
    pub description: &'static str,
}

/// The crosswalk buckets, declared in the harness's `FM_ORDER`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FmBucket {
    /// `FM1 no attempt`.
    #[serde(rename = "FM1 no attempt")]
    Fm1NoAttempt,
    /// `FM2 wrong plan`.
    #[serde(rename = "FM2 wrong plan")]
    Fm2WrongPlan,
    /// `FM3 wrong data`.
    #[serde(rename = "FM3 wrong data")]
    Fm3WrongData,
    /// `FM4 wrong impl`.
    #[serde(rename = "FM4 wrong impl")]
    Fm4WrongImpl,
    /// `FM5 runtime error`.
    #[serde(rename = "FM5 runtime error")]
    Fm5RuntimeError,
    /// `budget`.
    #[serde(rename = "budget")]
    Budget,
    /// `not a model failure` (grey; also every unknown sub-mode).
    #[serde(rename = "not a model failure")]
    NotAModelFailure,
}

impl FmBucket {
    /// All buckets in `FM_ORDER`.
    pub const ORDER: [FmBucket; 7] = [
        FmBucket::Fm1NoAttempt,
        FmBucket::Fm2WrongPlan,
        FmBucket::Fm3WrongData,
        FmBucket::Fm4WrongImpl,
        FmBucket::Fm5RuntimeError,
        FmBucket::Budget,
        FmBucket::NotAModelFailure,
    ];

    /// The harness's bucket label, e.g. `"FM3 wrong data"`.
    pub fn label(self) -> &'static str {
        match self {
            FmBucket::Fm1NoAttempt => "FM1 no attempt",
            FmBucket::Fm2WrongPlan => "FM2 wrong plan",
            FmBucket::Fm3WrongData => "FM3 wrong data",
            FmBucket::Fm4WrongImpl => "FM4 wrong impl",
            FmBucket::Fm5RuntimeError => "FM5 runtime error",
            FmBucket::Budget => "budget",
            FmBucket::NotAModelFailure => "not a model failure",
        }
    }

    /// The plot colour (Okabe-Ito), e.g. `"#009E73"` for FM3.
    pub fn colour(self) -> &'static str {
        match self {
            FmBucket::Fm1NoAttempt => "#0072B2",
            FmBucket::Fm2WrongPlan => "#E69F00",
            FmBucket::Fm3WrongData => "#009E73",
            FmBucket::Fm4WrongImpl => "#CC79A7",
            FmBucket::Fm5RuntimeError => "#D55E00",
            FmBucket::Budget => "#56B4E9",
            FmBucket::NotAModelFailure => "#999999",
        }
    }
}

const fn sm(
    key: &'static str,
    family: &'static str,
    bucket: FmBucket,
    description: &'static str,
) -> SubMode {
    SubMode {
        key,
        family,
        bucket,
        description,
    }
}

use FmBucket::*;

/// The 16 sub-modes in TAXONOMY order (the order sent to Jev).
pub const SUB_MODES: [SubMode; 16] = [
    sm(
        "misread_question",
        "comprehension",
        Fm2WrongPlan,
        "pursued a different question than the one asked, for example the wrong metric or the wrong subject; not a SQL mistake made while pursuing the right question",
    ),
    sm(
        "ambiguous_question",
        "comprehension",
        NotAModelFailure,
        "the question itself is underspecified or has no single correct answer; the candidate is not at fault",
    ),
    sm(
        "wrong_identifier",
        "entity_resolution",
        Fm3WrongData,
        "used the wrong id, key, or literal to identify the entity, for example an internal account id where an organization id is needed, so the filter matched nothing or the wrong row",
    ),
    sm(
        "unresolved_lookup",
        "entity_resolution",
        Fm3WrongData,
        "did not resolve a named entity to its row before querying facts, for example never looking the name up or skipping the dimension join",
    ),
    sm(
        "wrong_table",
        "schema_choice",
        Fm3WrongData,
        "read a table that does not hold the asked-for concept when another table does; not a wrong predicate on the right table",
    ),
    sm(
        "wrong_column",
        "schema_choice",
        Fm3WrongData,
        "used a real column but misread what it measures, picking the wrong field for the metric",
    ),
    sm(
        "wrong_join",
        "query_construction",
        Fm4WrongImpl,
        "joined on the wrong key, or missed a join the answer requires",
    ),
    sm(
        "wrong_grain",
        "query_construction",
        Fm4WrongImpl,
        "counted or summed at the wrong grain (per row vs per entity vs per day), inflating or collapsing the result",
    ),
    sm(
        "wrong_aggregation",
        "query_construction",
        Fm4WrongImpl,
        "wrong aggregate or grouping (for example avg vs sum, or a missing GROUP BY) while the entities and filters are right",
    ),
    sm(
        "wrong_filter",
        "query_construction",
        Fm2WrongPlan,
        "the right tables, columns, and entities are used, but a predicate is wrong or missing (wrong category or comparison, or an absent qualifier); not a wrong identifier and not a time-window mistake",
    ),
    sm(
        "wrong_time_window",
        "query_construction",
        Fm2WrongPlan,
        "wrong reference date or time range (point-in-time vs range, or wrong window bounds)",
    ),
    sm(
        "clickhouse_error",
        "execution",
        Fm5RuntimeError,
        "the SQL failed to run and returned a ClickHouse error (syntax, unknown identifier, or an unsupported feature)",
    ),
    sm(
        "stopped_early",
        "process",
        Fm1NoAttempt,
        "returned a final answer before resolving the question, often after empty results, when more turns were available",
    ),
    sm(
        "ran_out_of_budget",
        "process",
        Budget,
        "hit the turn limit without a usable answer",
    ),
    sm(
        "tool_loop",
        "process",
        Budget,
        "repeated near-identical queries without making progress",
    ),
    sm(
        "correct_but_judged_fail",
        "grading",
        NotAModelFailure,
        "the final answer looks correct for the question despite the fail verdict",
    ),
];

/// The 7 families in order of first appearance in [`SUB_MODES`].
pub const FAMILIES: [&str; 7] = [
    "comprehension",
    "entity_resolution",
    "schema_choice",
    "query_construction",
    "execution",
    "process",
    "grading",
];

/// The sub-mode entry for `key`, if known.
pub fn sub_mode(key: &str) -> Option<&'static SubMode> {
    SUB_MODES.iter().find(|s| s.key == key)
}

/// `FAMILY_OF[sub_mode]`, or `None` for an unknown sub-mode.
pub fn family_of(sub_mode_key: &str) -> Option<&'static str> {
    sub_mode(sub_mode_key).map(|s| s.family)
}

/// `FM_OF[sub_mode]`; an unknown sub-mode rolls up to [`FmBucket::NotAModelFailure`].
pub fn bucket_of(sub_mode_key: &str) -> FmBucket {
    sub_mode(sub_mode_key).map_or(FmBucket::NotAModelFailure, |s| s.bucket)
}

/// `family_confidence` recomputed: the sum of the sub-mode Choice's probabilities over every
/// sub-mode whose family equals the chosen sub-mode's family.
///
/// `None` when there are no probabilities (the harness writes null) or the chosen sub-mode
/// is unknown (its family is null). Keys that are not known sub-modes contribute nothing.
/// Example (tests/test_label_failure_modes.py): choice `wrong_join`, probabilities
/// `{wrong_join 0.5, wrong_grain 0.2, wrong_table 0.3}` → `0.5 + 0.2 = 0.7`.
pub fn family_confidence<'a, I>(chosen: &str, probabilities: Option<I>) -> Option<f64>
where
    I: IntoIterator<Item = (&'a str, f64)>,
{
    let family = family_of(chosen)?;
    let probabilities = probabilities?;
    Some(
        probabilities
            .into_iter()
            .filter(|(k, _)| family_of(k) == Some(family))
            .map(|(_, p)| p)
            .fold(0.0, |acc, p| acc + p),
    )
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn harness_family_confidence_vector() {
        let probs = [
            ("wrong_join", 0.5),
            ("wrong_grain", 0.2),
            ("wrong_table", 0.3),
        ];
        assert_eq!(family_of("wrong_join"), Some("query_construction"));
        let fc = family_confidence("wrong_join", Some(probs)).unwrap();
        assert!((fc - (0.5 + 0.2)).abs() < 1e-9);
        assert_eq!(
            family_confidence("wrong_join", None::<[(&str, f64); 0]>),
            None
        );
        assert_eq!(family_confidence("made_up", Some(probs)), None);
    }

    #[test]
    fn taxonomy_shape_and_crosswalk() {
        // FAMILY_OF covers every sub-mode; 16 distinct keys, 7 families, all used.
        let keys: std::collections::HashSet<_> = SUB_MODES.iter().map(|s| s.key).collect();
        assert_eq!(keys.len(), 16);
        for f in FAMILIES {
            assert!(SUB_MODES.iter().any(|s| s.family == f), "{f}");
        }
        assert!(SUB_MODES.iter().all(|s| FAMILIES.contains(&s.family)));
        assert_eq!(bucket_of("wrong_filter"), FmBucket::Fm2WrongPlan);
        assert_eq!(bucket_of("tool_loop"), FmBucket::Budget);
        assert_eq!(bucket_of("something_new"), FmBucket::NotAModelFailure);
        assert_eq!(FmBucket::Fm3WrongData.label(), "FM3 wrong data");
        assert_eq!(FmBucket::NotAModelFailure.colour(), "#999999");
        assert_eq!(
            serde_json::to_string(&FmBucket::Fm4WrongImpl).unwrap(),
            "\"FM4 wrong impl\""
        );
        // Grey bucket = ambiguous_question + correct_but_judged_fail.
        let grey: Vec<_> = SUB_MODES
            .iter()
            .filter(|s| s.bucket == NotAModelFailure)
            .map(|s| s.key)
            .collect();
        assert_eq!(grey, vec!["ambiguous_question", "correct_but_judged_fail"]);
    }
}
