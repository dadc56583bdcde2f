//! `annotated.jsonl` rows (05_annotate, §2.2): three annotators, majority vote, gold.

use indexmap::IndexMap;
use rand::Rng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::catalog::Catalog;
use crate::corpus::answer;
use crate::models::ANNOTATORS;
use crate::question::Question;
use crate::results;
use crate::sql::{self, Variant};

/// One annotator's run.
#[derive(Debug, Clone, Serialize)]
pub struct AnnotatorRun {
    /// Statements.
    pub sqls: Vec<String>,
    /// Results.
    pub sql_results: Vec<String>,
    /// Final answer.
    pub final_answer: String,
    /// Model calls.
    pub turns: u32,
    /// Seconds.
    pub latency: Option<f64>,
    /// Runner error.
    pub error: Option<String>,
}

/// `gt_sql` is usually a list; some older rows hold one string.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum GtSql {
    /// Every statement of the winning annotator.
    List(Vec<String>),
    /// A single joined string (older rows).
    One(String),
}

/// One `annotated.jsonl` row.
#[derive(Debug, Clone, Serialize)]
pub struct AnnotatedRow {
    trace_id: String,
    nl_question: String,
    annotators: IndexMap<String, AnnotatorRun>,
    excluded: bool,
    agreers: Vec<String>,
    gt_from: Option<String>,
    gt_sql: GtSql,
    gt_results: Vec<String>,
    gt_answer: String,
}

fn run(sqls: Vec<String>, res: Vec<String>, answer: String, rng: &mut ChaCha8Rng) -> AnnotatorRun {
    let turns = sqls.len() as u32 + 1;
    let latency = (turns as f64 * rng.random_range(2.0..6.0) * 100.0).round() / 100.0;
    AnnotatorRun {
        sqls,
        sql_results: res,
        final_answer: answer,
        turns,
        latency: Some(latency),
        error: None,
    }
}

fn variant_run(cat: &Catalog, q: &Question, v: Variant, rng: &mut ChaCha8Rng) -> AnnotatorRun {
    let r = results::main_result(cat, q, v);
    let a = answer(cat, q, &r, None);
    run(vec![sql::main_statement(cat, q, v)], vec![r], a, rng)
}

/// The annotated row of a usable question; returns the row and the winning annotator.
pub fn usable_row(cat: &Catalog, q: &Question, rng: &mut ChaCha8Rng) -> (AnnotatedRow, String) {
    let all: Vec<String> = ANNOTATORS.iter().map(|s| s.to_string()).collect();
    let dissenter = if rng.random_bool(0.35) {
        Some(rng.random_range(0..3))
    } else {
        None
    };
    let mut agreers: Vec<String> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != dissenter)
        .map(|(_, a)| a.clone())
        .collect();
    agreers.sort();
    let winner = agreers
        .choose(rng)
        .cloned()
        .unwrap_or_else(|| all[0].clone());
    let mut annotators = IndexMap::new();
    for (i, name) in all.iter().enumerate() {
        let r = if *name == winner {
            run(
                q.gt_sql.clone(),
                q.gt_results.clone(),
                q.gt_answer.clone(),
                rng,
            )
        } else if Some(i) == dissenter {
            variant_run(cat, q, Variant::Avg, rng)
        } else {
            let main = q.gt_results.last().cloned().unwrap_or_default();
            run(
                vec![sql::main_statement(cat, q, Variant::Gold)],
                vec![main.clone()],
                answer(cat, q, &main, None),
                rng,
            )
        };
        annotators.insert(name.clone(), r);
    }
    let gt_sql = if q.gt_sql_as_string {
        GtSql::One(q.gt_sql.join("\n"))
    } else {
        GtSql::List(q.gt_sql.clone())
    };
    let row = AnnotatedRow {
        trace_id: q.trace_id.clone(),
        nl_question: q.nl.clone(),
        annotators,
        excluded: false,
        agreers,
        gt_from: Some(winner.clone()),
        gt_sql,
        gt_results: q.gt_results.clone(),
        gt_answer: q.gt_answer.clone(),
    };
    (row, winner)
}

/// The annotated row of an excluded question: all three annotators disagree.
pub fn excluded_row(cat: &Catalog, q: &Question, rng: &mut ChaCha8Rng) -> AnnotatedRow {
    let variants = [Variant::Gold, Variant::Avg, Variant::NoFilter];
    let annotators = ANNOTATORS
        .iter()
        .zip(variants)
        .map(|(a, v)| (a.to_string(), variant_run(cat, q, v, rng)))
        .collect();
    AnnotatedRow {
        trace_id: q.trace_id.clone(),
        nl_question: q.nl.clone(),
        annotators,
        excluded: true,
        agreers: vec![],
        gt_from: None,
        gt_sql: GtSql::List(vec![]),
        gt_results: vec![],
        gt_answer: String::new(),
    }
}
