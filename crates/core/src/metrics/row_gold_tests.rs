//! The gold choice shared by the ranking rows and the retrieval section: parser vs harness
//! rule, fallbacks, and bit-for-bit agreement of row means with the section's curves.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::bundle::{BundleBody, Corpus};
use crate::metrics::gold_tables::GoldRule;
use crate::metrics::question_rows::tests::{question, ranking, strings, tiny};
use crate::metrics::question_rows::{QuestionRow, question_rows};
use crate::metrics::ranking_metrics::{ALL_REQUIRED, NDCG, RECALL};
use crate::metrics::report::ReportOptions;
use crate::metrics::report_retrieval::retrieval_section;

fn rule_corpus() -> Corpus {
    // The comma join hides crm.fct_support_case from the harness rule (§5.2).
    let sql = "SELECT * FROM crm.dim_account a, crm.fct_support_case b";
    let scored = [("crm.fct_support_case", 0.9), ("crm.dim_account", 0.4)];
    Corpus {
        questions: vec![question("p1", "", &[sql])],
        rankings: vec![
            ranking("p1", &["crm.dim_account"], &scored),
            ranking("orphan", &["crm.dim_account"], &scored),
        ],
        ..Corpus::default()
    }
}

#[test]
fn parser_rule_differs_from_stored_gold_and_falls_back() {
    let (body, _) = tiny();
    let corpus = rule_corpus();
    let harness = question_rows(&body, &corpus, &ReportOptions::default());
    let parser_options = ReportOptions {
        gold_rule: GoldRule::Parser,
        ..ReportOptions::default()
    };
    let parser = question_rows(&body, &corpus, &parser_options);
    assert_eq!(
        (harness[0].gold.clone(), harness[0].gold_ranks.clone()),
        (strings(&["crm.dim_account"]), vec![2])
    );
    assert_eq!(
        parser[0].gold,
        strings(&["crm.dim_account", "crm.fct_support_case"])
    );
    assert_eq!(
        (parser[0].gold_ranks.clone(), parser[0].k_star),
        (vec![1, 2], Some(2))
    );
    assert_eq!(
        (parser[0].gold_fallback, harness[0].gold_fallback),
        (false, false)
    );
    // No question for "orphan": the parser rule falls back to the stored gold.
    assert_eq!(
        (parser[1].gold.clone(), parser[1].gold_fallback),
        (strings(&["crm.dim_account"]), true)
    );
    let section = retrieval_section(&body, &corpus, &parser_options);
    assert_eq!(section.gold_fallback_rows, 1);
    // Without namespaces every row falls back.
    let bare = BundleBody::default();
    let rows = question_rows(&bare, &corpus, &parser_options);
    assert!(
        rows.iter()
            .all(|r| r.gold_fallback && r.gold == strings(&["crm.dim_account"]))
    );
    assert_eq!(
        retrieval_section(&bare, &corpus, &parser_options).gold_fallback_rows,
        2
    );
}

/// 40 rows over a 12-table universe from a fixed LCG: mixed gold sizes, gold outside the
/// universe, comma joins (so the rules differ), rows without a question.
fn synthetic() -> Corpus {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let tables: Vec<String> = (0..12).map(|i| format!("crm.t{i:02}")).collect();
    let mut corpus = Corpus::default();
    for i in 0..40 {
        let mut ranked = tables.clone();
        for j in (1..ranked.len()).rev() {
            ranked.swap(j, next(j as u64 + 1) as usize);
        }
        let mut gold: Vec<String> = (0..=next(3))
            .map(|_| tables[next(12) as usize].clone())
            .collect();
        if next(5) == 0 {
            gold.push("crm.gone".into());
        }
        gold.sort();
        gold.dedup();
        let sql = format!("SELECT * FROM {} x, crm.t{:02} y", gold[0], next(12));
        let scored: Vec<(&str, f64)> = ranked
            .iter()
            .enumerate()
            .map(|(r, t)| {
                (
                    t.as_str(),
                    (0.99 - 0.09 * r as f64 - 0.01 * next(5) as f64).max(0.0),
                )
            })
            .collect();
        let id = format!("s{i}");
        let stored: Vec<&str> = gold.iter().map(String::as_str).collect();
        corpus.rankings.push(ranking(&id, &stored, &scored));
        if i % 7 != 3 {
            corpus.questions.push(question(&id, "", &[&sql]));
        }
    }
    corpus
}

#[test]
fn row_means_equal_the_section_curves_bit_for_bit() {
    let body = BundleBody {
        namespaces: strings(&["crm"]),
        ..BundleBody::default()
    };
    let corpus = synthetic();
    for rule in [GoldRule::Harness, GoldRule::Parser] {
        let options = ReportOptions {
            gold_rule: rule,
            confidence_threshold: 0.6,
            ..ReportOptions::default()
        };
        let rows = question_rows(&body, &corpus, &options);
        let section = retrieval_section(&body, &corpus, &options);
        let n = rows.len() as f64;
        let mean = |f: &dyn Fn(&QuestionRow) -> f64| rows.iter().fold(0.0, |a, r| a + f(r)) / n;
        assert_eq!(
            mean(&|r| r.ndcg_at_10).to_bits(),
            section.curves.of(&NDCG)[9].to_bits(),
            "{rule:?}"
        );
        assert_eq!(
            mean(&|r| r.recall_at_5).to_bits(),
            section.curves.of(&RECALL)[4].to_bits()
        );
        let all5 = mean(&|r| f64::from(u8::from(r.all_required_at_5)));
        assert_eq!(
            all5.to_bits(),
            section.curves.of(&ALL_REQUIRED)[4].to_bits()
        );
        for k in 1..=10 {
            assert_eq!(
                mean(&|r| r.ndcg_at(k)).to_bits(),
                section.curves.of(&NDCG)[k - 1].to_bits()
            );
        }
        let hc = &section.high_confidence;
        assert_eq!(
            mean(&|r| r.high_confidence_score.precision).to_bits(),
            hc.precision.to_bits()
        );
        assert_eq!(
            mean(&|r| r.high_confidence_score.recall).to_bits(),
            hc.recall.to_bits()
        );
        let never = rows.iter().filter(|r| r.k_star.is_none()).count();
        assert_eq!(never, section.k_star.never);
        let fallbacks = rows.iter().filter(|r| r.gold_fallback).count();
        assert_eq!(fallbacks, section.gold_fallback_rows);
        assert!(never > 0 && (rule == GoldRule::Harness) == (fallbacks == 0));
    }
    let harness = question_rows(&body, &corpus, &ReportOptions::default());
    let parser_options = ReportOptions {
        gold_rule: GoldRule::Parser,
        ..ReportOptions::default()
    };
    let parser = question_rows(&body, &corpus, &parser_options);
    assert!(harness.iter().zip(&parser).any(|(h, p)| h.gold != p.gold));
}
