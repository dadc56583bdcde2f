//! The failures view's answers: corpora and models offered, the base filter, `f`, pages of
//! the list, its CSV, and re-labels counted like the bundle's own labels.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use indexmap::IndexMap;

use super::*;
use crate::bundle::{Checks, Corpus, FailureLabel, FmLabel, Question};
use crate::overrides::{LabelOverride, OverridesFile, apply_overrides, relabelled};

fn label(model: &str, trace: &str, sub: Option<&str>, conf: Option<f64>, cdf: f64) -> FailureLabel {
    FailureLabel {
        model: model.into(),
        trace_id: trace.into(),
        sub_mode: sub.map(Into::into),
        sub_mode_confidence: conf,
        correct_despite_fail: Some(cdf),
        schema_hint_would_help: Some(0.25),
        prevented_by_rule: Some("none".into()),
        ..FailureLabel::default()
    }
}

fn question(trace: &str, text: &str) -> Question {
    Question {
        trace_id: trace.into(),
        nl_question: text.into(),
        ..Question::default()
    }
}

/// `dev`: m1/q1 wrong_filter (0.9, cdf 0.1, blames r1), m2/q1 wrong_join (0.4, cdf 0.85,
/// decidable r2 violated), m1/q2 no sub-mode (cdf 0.5); FM labels m1/q1 FM2, m2/q1 FM3.
/// `empty`: no labels. `test`: m3/q9 wrong_filter (0.7, cdf 0.95), no question rows.
fn body() -> BundleBody {
    let mut blamed = label("m1", "q1", Some("wrong_filter"), Some(0.9), 0.1);
    blamed.prevented_by_rule = Some("r1".into());
    let mut checked = label("m2", "q1", Some("wrong_join"), Some(0.4), 0.85);
    checked.checks = Some(Checks {
        decidable: IndexMap::from([("r2".to_owned(), "violation".to_owned())]),
        ..Checks::default()
    });
    let fm = |model: &str, code: &str| FmLabel {
        model: model.into(),
        trace_id: "q1".into(),
        fm: code.into(),
        ..FmLabel::default()
    };
    BundleBody {
        corpora: vec![
            Corpus {
                name: "dev".into(),
                questions: vec![
                    question("q1", "How many orders, \"2024\"?"),
                    question("q2", "Top seller"),
                ],
                failure_labels: vec![blamed, checked, label("m1", "q2", None, None, 0.5)],
                fm_labels: vec![fm("m1", "FM2"), fm("m2", "FM3")],
                ..Corpus::default()
            },
            Corpus {
                name: "empty".into(),
                ..Corpus::default()
            },
            Corpus {
                name: "test".into(),
                failure_labels: vec![label("m3", "q9", Some("wrong_filter"), Some(0.7), 0.95)],
                ..Corpus::default()
            },
        ],
        ..BundleBody::default()
    }
}

fn query() -> FailuresQuery {
    FailuresQuery {
        base: BaseFilter::default(),
        filter: None,
        cdf_threshold: 0.8,
        relabels: Vec::new(),
    }
}

#[test]
fn every_row_by_default_with_corpora_and_models_offered() {
    let body = body();
    let a = FailuresAnswerer::default().answer(&body, &query());
    assert_eq!(a.corpora, ["dev", "test"]);
    let keys: Vec<&str> = a.models.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["m1", "m2", "m3"]);
    // No display names in this bundle: the key.
    assert_eq!(a.models[2].1, "m3");
    assert_eq!(a.summary.counts.n, 4);
    assert_eq!(a.summary.counts.sub_mode["wrong_filter"], 2);
    assert_eq!(a.summary.counts.sub_mode["(missing)"], 1);
    // correct_despite_fail ≥ 0.8: 0.85 and 0.95.
    assert_eq!(a.above, 2);
    assert_eq!((a.listed, a.filter_known), (4, true));
    assert_eq!(a.summary.blame.ranked, [("r1".to_owned(), 1)]);
    assert_eq!(a.summary.blame.none, 3);
    assert_eq!(
        a.summary.verdicts,
        [("r2".to_owned(), vec![("violation".to_owned(), 1)])]
    );
    // FM shares: m1 one FM2 label of 1 (100 %), m2 one FM3 of 1.
    assert_eq!(a.summary.fm.len(), 2);
    assert_eq!(a.summary.fm[0].percent, [0.0, 100.0, 0.0, 0.0, 0.0]);
}

#[test]
fn the_base_filter_narrows_and_a_corpus_without_labels_counts_as_none() {
    let body = body();
    let mut ans = FailuresAnswerer::default();
    let mut q = query();
    q.base.corpus = Some("empty".into());
    assert_eq!(ans.answer(&body, &q).listed, 4);
    q.base.corpus = Some("dev".into());
    let a = ans.answer(&body, &q);
    assert_eq!(a.listed, 3);
    let pair = |k: &str| (k.to_owned(), k.to_owned());
    assert_eq!(a.models, [pair("m1"), pair("m2")]);
    // Confidence 0.5–1: 0.9 stays; 0.4 and a label without a confidence go.
    q.base.conf = (0.5, 1.0);
    assert_eq!(ans.answer(&body, &q).listed, 1);
    q.base = BaseFilter {
        models: vec!["m3".into(), "m2".into()],
        ..BaseFilter::default()
    };
    assert_eq!(ans.answer(&body, &q).summary.counts.n, 2);
}

#[test]
fn the_element_filter_narrows_the_list_but_not_the_charts() {
    let body = body();
    let mut ans = FailuresAnswerer::default();
    let mut q = query();
    for (f, listed, known) in [
        ("sub_mode:wrong_filter", 2, true),
        ("sub_mode:(missing)", 1, true),
        ("family:filtering", 0, true),
        ("fm:FM3", 1, true),
        ("rule:r1", 1, true),
        ("rule:r2", 1, true),
        // numpy's bins (`histogram_bin`): 0.85 falls in bin 16 (its edge 17 · 0.05 is
        // 0.8500000000000001), 0.95 in bin 18.
        ("cdf:16", 1, true),
        ("cdf:17", 0, true),
        ("cdf:18", 1, true),
        ("cdf:19", 0, true),
        ("hint:5", 4, true),
        ("sub_mode:wrong_filter|model:m3", 1, true),
        ("nonsense", 4, false),
        ("cdf:20", 4, false),
    ] {
        q.filter = Some(f.into());
        let a = ans.answer(&body, &q);
        assert_eq!(
            (a.listed, a.filter_known, a.summary.counts.n),
            (listed, known, 4),
            "{f}"
        );
    }
}

#[test]
fn pages_of_the_list_carry_their_place_and_text() {
    let body = body();
    let mut ans = FailuresAnswerer::default();
    let mut q = query();
    q.filter = Some("sub_mode:wrong_filter".into());
    let page = ans.page(&body, &q, 1, 10);
    assert_eq!(page.len(), 1);
    let row = &page[0];
    assert_eq!(
        (
            row.index,
            row.corpus.as_str(),
            row.model.as_str(),
            row.trace_id.as_str()
        ),
        (1, "test", "m3", "q9")
    );
    assert_eq!((row.question.as_str(), row.confidence), ("", Some(0.7)));
    q.filter = None;
    let first = &ans.page(&body, &q, 0, 1)[0];
    assert_eq!(first.question, "How many orders, \"2024\"?");
    assert_eq!(first.rule.as_deref(), Some("r1"));
    assert!(ans.page(&body, &q, 7, 9).is_empty());
}

#[test]
fn the_csv_holds_every_listed_row_unrounded_with_family_bucket_and_fm() {
    let body = body();
    let mut q = query();
    q.filter = Some("fm:FM2".into());
    let csv = FailuresAnswerer::default().csv(&body, &q);
    let expected = format!(
        "{}\ndev,m1,q1,\"How many orders, \"\"2024\"\"?\",wrong_filter,{},{},0.9,0.1,0.25,r1,FM2\n",
        CSV_HEADER.join(","),
        crate::metrics::taxonomy::family_of("wrong_filter").unwrap_or_default(),
        crate::metrics::taxonomy::bucket_of("wrong_filter").label(),
    );
    assert_eq!(csv.replace("\r\n", "\n"), expected);
}

#[test]
fn relabels_count_like_the_bundles_labels_and_are_undone_when_dropped() {
    let body = body();
    let mut ans = FailuresAnswerer::default();
    let mut q = query();
    q.filter = Some("sub_mode:wrong_filter".into());
    q.relabels = vec![
        // m2/q1 wrong_join → wrong_filter (replaced); m2/q2 had none (appended).
        Relabel {
            corpus: "dev".into(),
            label: label("m2", "q1", Some("wrong_filter"), Some(0.8), 0.2),
        },
        Relabel {
            corpus: "dev".into(),
            label: label("m2", "q2", Some("wrong_filter"), Some(0.6), 0.9),
        },
    ];
    let a = ans.answer(&body, &q);
    assert_eq!((a.summary.counts.n, a.listed), (5, 4));
    // Above 0.8: m2/q2 (0.9) and m3/q9 (0.95); m2/q1 fell to 0.2.
    assert_eq!(a.above, 2);
    q.relabels.clear();
    let a = ans.answer(&body, &q);
    assert_eq!((a.summary.counts.n, a.listed), (4, 2));
}

#[test]
fn relabelled_puts_labels_where_apply_overrides_does() {
    let mut body = body();
    let news = [
        label("m2", "q1", Some("wrong_filter"), None, 0.2),
        label("m9", "q2", Some("other"), None, 0.3),
        label("m9", "q2", Some("wrong_join"), None, 0.4),
    ];
    let file = OverridesFile {
        overrides: news
            .iter()
            .map(|n| LabelOverride {
                key: format!("{}/{}", n.model, n.trace_id),
                corpus: "dev".into(),
                original: None,
                new: n.clone(),
                model_id: "jev".into(),
                request_hash: String::new(),
                applied_at: String::new(),
                answers: None,
            })
            .collect(),
        ..OverridesFile::new("h")
    };
    let ours = relabelled(&body.corpora[0].failure_labels, &news);
    apply_overrides(&mut body, &file).unwrap();
    assert_eq!(ours, body.corpora[0].failure_labels);
    assert_eq!(ours.len(), 4);
}
