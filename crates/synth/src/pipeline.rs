//! Builds one corpus end to end: questions, annotations, plans and candidate cells, and
//! serialises `annotated.jsonl` and `results.jsonl`.

use std::collections::HashMap;

use indexmap::IndexMap;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::SynthError;
use crate::annotate;
use crate::catalog::Catalog;
use crate::cells::{self, Cell, CellInfo};
use crate::corpus::{self, CorpusSpec};
use crate::gold::Matchers;
use crate::json::push_line;
use crate::models::{LABELLED, Model};
use crate::plan::{self, Special};
use crate::question::Question;

/// Everything later stages need from one corpus.
pub struct CorpusOut {
    /// Usable questions (the ones in results.jsonl), in question order.
    pub questions: Vec<Question>,
    /// Per question, per model: what the cell turned out to be (`None` = null/missing).
    pub infos: Vec<Vec<Option<CellInfo>>>,
    /// Statements of the labelled models' cells, keyed by (question, model).
    pub labelled_sqls: HashMap<(usize, usize), Vec<String>>,
    /// Bytes of annotated.jsonl.
    pub annotated: Vec<u8>,
    /// Bytes of results.jsonl.
    pub results: Vec<u8>,
}

/// Options for one corpus build.
pub struct BuildSpec {
    /// Question options.
    pub corpus: CorpusSpec,
    /// Excluded questions added to annotated.jsonl only.
    pub excluded: usize,
    /// Pin the article's labelled-failure matrix.
    pub exact_labelled: bool,
    /// Seed for this corpus.
    pub seed: u64,
    /// Scale of exploratory statements per cell (1.0 article; smaller keeps `large` modest).
    pub explore_scale: f64,
}

#[derive(Serialize)]
struct ResultRow<'a> {
    trace_id: &'a str,
    nl_question: &'a str,
    gt_from: &'a str,
    candidates: IndexMap<&'a str, Option<&'a Cell>>,
}

/// Builds one corpus.
pub fn build(
    cat: &Catalog,
    m: &Matchers,
    models: &[Model],
    spec: &BuildSpec,
) -> Result<CorpusOut, SynthError> {
    let mut q_rng = ChaCha8Rng::seed_from_u64(spec.seed);
    let mut a_rng = ChaCha8Rng::seed_from_u64(spec.seed ^ 0xA11);
    let mut p_rng = ChaCha8Rng::seed_from_u64(spec.seed ^ 0xB22);
    let mut c_rng = ChaCha8Rng::seed_from_u64(spec.seed ^ 0xC33);
    let all = corpus::questions(
        cat,
        m,
        &CorpusSpec {
            n: spec.corpus.n + spec.excluded,
            ..spec.corpus
        },
        &mut q_rng,
    );
    let (questions, excluded) = all.split_at(spec.corpus.n);
    let questions = questions.to_vec();

    let mut annotated = Vec::new();
    let mut winners = Vec::with_capacity(questions.len());
    let excluded_at: Vec<usize> = excluded
        .iter()
        .map(|_| a_rng.random_range(0..questions.len().max(1)))
        .collect();
    for (qi, q) in questions.iter().enumerate() {
        for (x, _) in excluded_at.iter().enumerate().filter(|(_, at)| **at == qi) {
            push_line(
                &mut annotated,
                &annotate::excluded_row(cat, &excluded[x], &mut a_rng),
            )?;
        }
        let (row, winner) = annotate::usable_row(cat, q, &mut a_rng);
        push_line(&mut annotated, &row)?;
        winners.push(winner);
    }

    let plans = plan::plan(&questions, models, spec.exact_labelled, &mut p_rng);
    let mut order: Vec<usize> = (0..questions.len()).collect();
    order.shuffle(&mut c_rng);
    let duplicate = order.get(order.len() / 3).copied();
    let mut infos: Vec<Vec<Option<CellInfo>>> = vec![vec![None; models.len()]; questions.len()];
    let mut labelled_sqls = HashMap::new();
    let mut results = Vec::new();
    let mut replacement = Vec::new();
    for &qi in &order {
        let q = &questions[qi];
        let mut built: Vec<(usize, Option<Cell>)> = Vec::with_capacity(models.len());
        for (mi, model) in models.iter().enumerate() {
            let p = &plans[qi][mi];
            let (cell, info) = cells::build(cat, m, q, model, p, spec.explore_scale, &mut c_rng);
            if LABELLED.contains(&model.key.as_str())
                && let Some(c) = &cell
            {
                labelled_sqls.insert((qi, mi), c.sqls.clone());
            }
            infos[qi][mi] = info;
            if p.special != Special::Missing {
                built.push((mi, cell));
            }
        }
        let row = ResultRow {
            trace_id: &q.trace_id,
            nl_question: &q.nl,
            gt_from: &winners[qi],
            candidates: built
                .iter()
                .map(|(mi, c)| (models[*mi].key.as_str(), c.as_ref()))
                .collect(),
        };
        if Some(qi) == duplicate {
            // An earlier save of the same question with fewer candidates; the later row wins.
            let partial = ResultRow {
                trace_id: row.trace_id,
                nl_question: row.nl_question,
                gt_from: row.gt_from,
                candidates: row
                    .candidates
                    .iter()
                    .take(3)
                    .map(|(k, c)| (*k, *c))
                    .collect(),
            };
            push_line(&mut results, &partial)?;
            push_line(&mut replacement, &row)?;
        } else {
            push_line(&mut results, &row)?;
        }
    }
    results.extend_from_slice(&replacement);
    Ok(CorpusOut {
        questions,
        infos,
        labelled_sqls,
        annotated,
        results,
    })
}
