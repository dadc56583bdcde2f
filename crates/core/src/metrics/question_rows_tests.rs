//! Hand-computed rows (harness-formats §5.6 vectors) and the gate preview texts (§6.1,
//! §6.2). The fixtures are shared with `row_gold_tests.rs`.

// Expected values are written as arithmetic (e.g. `2.0 / 2.0` = 2 of 2 gold tables).
#![allow(clippy::eq_op)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::bundle::{Question, RankingRow};
use crate::metrics::gate_preview::gate_preview;

pub(crate) fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn ranking(id: &str, gold: &[&str], scored: &[(&str, f64)]) -> RankingRow {
    RankingRow {
        trace_id: id.into(),
        gold: gold.iter().map(|&g| g.into()).collect(),
        ranked: scored.iter().map(|&(t, _)| t.into()).collect(),
        scores: scored.iter().map(|&(t, p)| (t.into(), p)).collect(),
        latency_s: Some(1.84),
        ..RankingRow::default()
    }
}

pub(crate) fn question(id: &str, text: &str, sql: &[&str]) -> Question {
    Question {
        trace_id: id.into(),
        nl_question: text.into(),
        gt_sql: strings(sql),
        ..Question::default()
    }
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

pub(crate) fn tiny() -> (BundleBody, Corpus) {
    let q1 = ranking(
        "q1",
        &["crm.fct_support_case", "marts.usage_daily"],
        &[
            ("marts.usage_daily", 0.97),
            ("crm.dim_account", 0.62),
            ("crm.fct_support_case", 0.41),
            ("crm.fct_opportunity", 0.03),
        ],
    );
    let seven: Vec<(&str, f64)> = ["marts.a", "marts.b", "marts.c", "marts.d", "marts.e"]
        .into_iter()
        .chain(["crm.x", "crm.y"])
        .zip([0.3, 0.2, 0.2, 0.1, 0.1, 0.05, 0.0])
        .collect();
    let q2 = ranking("q2", &["crm.x"], &seven);
    let q3 = ranking(
        "q3",
        &["crm.nowhere", "crm.x"],
        &[("crm.x", 0.8), ("marts.a", 0.6)],
    );
    let corpus = Corpus {
        name: "tiny".into(),
        questions: vec![
            question("q1", "MRR by month?", &[]),
            question("q2", "Cases per account?", &[]),
        ],
        rankings: vec![q1, q2, q3],
        ..Corpus::default()
    };
    let body = BundleBody {
        namespaces: strings(&["marts", "crm"]),
        ..BundleBody::default()
    };
    (body, corpus)
}

#[test]
fn reference_vector_row_by_hand() {
    let (body, corpus) = tiny();
    let rows = question_rows(&body, &corpus, &ReportOptions::default());
    let r = &rows[0];
    assert_eq!(
        (r.trace_id.as_str(), r.question.as_str()),
        ("q1", "MRR by month?")
    );
    assert_eq!(
        r.gold,
        strings(&["crm.fct_support_case", "marts.usage_daily"])
    );
    assert_eq!((r.n_gold, r.gold_fallback), (2, false));
    assert_eq!(r.gold_ranks, vec![1, 3]);
    assert_eq!((r.worst_gold_rank, r.k_star), (Some(3), Some(3)));
    // §5.6: nDCG@3 = (1 + 1/log2 4) / (1 + 1/log2 3) = 1.5 / 1.63093 = 0.919721; @10 equal.
    let idcg2 = 1.0 + 1.0 / 3f64.log2();
    close(r.ndcg_at_10, (1.0 + 1.0 / 4f64.log2()) / idcg2);
    assert!((r.ndcg_at_10 - 0.919721).abs() < 1e-6);
    close(r.ndcg_at(2), 1.0 / idcg2);
    assert!((r.ndcg_at(2) - 0.613147).abs() < 1e-6);
    assert_eq!((r.recall_at(1), r.recall_at_5), (1.0 / 2.0, 2.0 / 2.0));
    assert!(r.all_required_at_5 && r.all_required_at(3) && !r.all_required_at(2));
    assert!(!r.needs_below_rank_5);
    assert_eq!(r.latency_s, Some(1.84));
    // P ≥ 0.5: usage_daily (gold) and dim_account (not gold).
    assert_eq!(
        r.high_confidence,
        strings(&["marts.usage_daily", "crm.dim_account"])
    );
    let s = r.high_confidence_score;
    assert_eq!(
        (s.size, s.precision, s.recall, s.covers_gold),
        (2, 1.0 / 2.0, 1.0 / 2.0, false)
    );
    let flags: Vec<(&str, f64, bool)> = r
        .scores
        .iter()
        .map(|s| (s.table.as_str(), s.p, s.is_gold))
        .collect();
    assert_eq!(
        flags,
        vec![
            ("marts.usage_daily", 0.97, true),
            ("crm.dim_account", 0.62, false),
            ("crm.fct_support_case", 0.41, true),
            ("crm.fct_opportunity", 0.03, false),
        ]
    );
}

#[test]
fn gold_below_rank_five_and_gold_outside_the_ranking() {
    let (body, corpus) = tiny();
    let rows = question_rows(&body, &corpus, &ReportOptions::default());
    let r = &rows[1];
    assert_eq!(
        (r.gold_ranks.clone(), r.worst_gold_rank, r.k_star),
        (vec![6], Some(6), Some(6))
    );
    close(r.ndcg_at_10, 1.0 / 7f64.log2());
    assert_eq!(
        (r.recall_at_5, r.all_required_at_5, r.needs_below_rank_5),
        (0.0, false, true)
    );
    // No P ≥ 0.5: the set falls back to {ranked[0]}.
    assert_eq!(r.high_confidence, strings(&["marts.a"]));
    assert_eq!(r.high_confidence_score.recall, 0.0);
    let r = &rows[2];
    assert_eq!(r.question, "");
    // crm.nowhere is not ranked: worst rank is the found one, k* is None.
    assert_eq!(
        (r.gold_ranks.clone(), r.worst_gold_rank, r.k_star),
        (vec![1], Some(1), None)
    );
    assert_eq!((r.recall_at_5, r.needs_below_rank_5), (1.0 / 2.0, true));
    close(r.ndcg_at_10, 1.0 / (1.0 + 1.0 / 3f64.log2()));
}

#[test]
fn gate_preview_texts_match_the_harness_templates() {
    let (body, corpus) = tiny();
    let options = ReportOptions::default();
    let rows = question_rows(&body, &corpus, &options);
    let g = gate_preview(&rows[0], &options);
    assert_eq!(
        g.confident,
        strings(&["marts.usage_daily", "crm.dim_account"])
    );
    assert!(!g.confident_is_fallback);
    assert_eq!(
        g.note,
        "The tables most likely relevant to this question, ranked, are:\n  \
         1. marts.usage_daily\n  2. crm.dim_account\n  3. crm.fct_support_case\n  \
         4. crm.fct_opportunity\nStart from these. The full schema above still applies and \
         other tables may be needed, so do not treat this as the complete set."
    );
    assert_eq!(
        g.hint,
        "Your last query read <tables of the off-track query>. For this question the most \
         relevant tables, ranked, are: marts.usage_daily, crm.dim_account, \
         crm.fct_support_case. Check whether <tables of the off-track query> holds the \
         asked-for data; if not, query marts.usage_daily instead. The full schema still \
         applies."
    );
    let g = gate_preview(&rows[1], &options);
    assert_eq!(
        (g.confident, g.confident_is_fallback),
        (strings(&["marts.a"]), true)
    );
    assert!(g.note.contains("  5. marts.e\nStart") && !g.note.contains("6."));
    let strict = ReportOptions {
        confidence_threshold: 0.9,
        ..options
    };
    assert_eq!(
        gate_preview(&rows[0], &strict).confident,
        strings(&["marts.usage_daily"])
    );
}

/// `tiny` plus gold SQL, so the parser rule parses and the rule differences are found.
fn tiny_with_sql() -> (BundleBody, Corpus) {
    let (body, mut corpus) = tiny();
    corpus.questions = vec![
        question(
            "q1",
            "MRR by month?",
            &["SELECT 1 FROM marts.usage_daily u, crm.dim_account a"],
        ),
        question("q2", "Cases per account?", &["SELECT 1 FROM crm.x"]),
        question("q9", "Not ranked", &["SELECT 1 FROM crm.x a, crm.y b"]),
    ];
    (body, corpus)
}

#[test]
fn runs_in_steps_equal_the_one_shot_results() {
    use crate::metrics::gold_tables::GoldRule;
    use crate::metrics::report_retrieval::{
        RetrievalInputs, RetrievalInputsRun, RetrievalSectionRun, retrieval_section_with,
    };
    let (body, corpus) = tiny_with_sql();
    for rule in [GoldRule::Harness, GoldRule::Parser] {
        let options = ReportOptions {
            k_max: 7,
            confidence_threshold: 0.6,
            gold_rule: rule,
            ..ReportOptions::default()
        };
        let once = RetrievalInputs::new(&body, &corpus, rule);
        // 3 ranking rows + 3 questions: steps of 2 take 3 calls; the first two are not done.
        let mut run = RetrievalInputsRun::new(&body, &corpus, rule);
        assert_eq!(run.len(), 6);
        assert_eq!((run.step(2), run.step(2), run.done()), (false, false, 4));
        assert!(run.step(2));
        let stepped = run.finish();
        assert_eq!(stepped, once);
        // q1's comma join: the harness rule sees usage_daily only, the parser both tables.
        assert!(once.differences.iter().any(|d| d.trace_id == "q1"));
        // The unranked q9 is not compared.
        assert!(once.differences.iter().all(|d| d.trace_id != "q9"));

        let whole = retrieval_section_with(&body, &corpus, &once, &options);
        let mut run = RetrievalSectionRun::new(&body, &corpus, &once, &options);
        assert_eq!(
            (run.len(), run.step(1), run.step(1), run.done()),
            (3, false, false, 2)
        );
        assert_eq!(run.finish(), whole);

        let rows = question_rows_with(&corpus, &once, &options);
        let mut run = QuestionRowsRun::new(&corpus, &once, &options);
        assert_eq!((run.step(2), run.done(), run.step(5)), (false, 2, true));
        assert_eq!(run.finish(), rows);
        assert_eq!(rows.len(), 3);

        // Without scores: the same rows with `scores` empty; one row alone: with them.
        let bare = QuestionRowsRun::new(&corpus, &once, &options)
            .without_scores()
            .finish();
        let emptied: Vec<QuestionRow> = rows
            .iter()
            .map(|r| QuestionRow {
                scores: Vec::new(),
                ..r.clone()
            })
            .collect();
        assert_eq!(bare, emptied);
        assert!(rows.iter().all(|r| !r.scores.is_empty()));
        let run = QuestionRowsRun::new(&corpus, &once, &options).without_scores();
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(run.row_at(i).as_ref(), Some(row));
        }
        assert_eq!(run.row_at(3), None);
    }
}

#[test]
fn inputs_from_recorded_statement_parses_equal_parsing_here() {
    use std::sync::Arc;

    use crate::metrics::gold_tables::{GoldRule, StatementParses, TableMatcher};
    use crate::metrics::report_retrieval::{RetrievalInputs, RetrievalInputsRun};
    let (mut body, corpus) = tiny_with_sql();
    body.corpora = vec![corpus.clone()];
    let parses = StatementParses::of_gold_sql(&body).unwrap();
    // Three questions, one statement each, all distinct.
    assert_eq!(parses.statements.len(), 3);
    let matcher = TableMatcher::new(&body.namespaces)
        .unwrap()
        .with_parses(Arc::new(parses));
    for rule in [GoldRule::Harness, GoldRule::Parser] {
        let here = RetrievalInputs::new(&body, &corpus, rule);
        let recorded =
            RetrievalInputsRun::with_matcher(&corpus, rule, Some(matcher.clone())).finish();
        assert_eq!(recorded, here);
    }
    // Without namespaces nothing is parsed, so there is nothing to record.
    body.namespaces.clear();
    assert_eq!(StatementParses::of_gold_sql(&body), None);
}
