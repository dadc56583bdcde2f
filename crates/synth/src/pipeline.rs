//! Builds one corpus end to end: questions, annotations, plans and candidate cells, and
//! serialises `annotated.jsonl` and `results.jsonl`.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use indexmap::IndexMap;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::annotate;
use crate::catalog::Catalog;
use crate::cells::{self, Cell, CellInfo};
use crate::corpus::{self, CorpusSpec};
use crate::gold::Matchers;
use crate::json::push_line;
use crate::models::{LABELLED, Model, Variant};
use crate::plan::{self, Special};
use crate::question::Question;
use crate::{SynthError, io_err};

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
    /// Size of results.jsonl (written as it is built).
    pub results_size: u64,
    /// Lower-case hex SHA-256 of results.jsonl.
    pub results_sha256: String,
}

/// A writer that hashes and counts what it writes.
struct Hashing<W> {
    inner: W,
    hasher: Sha256,
    size: u64,
}

impl<W: Write> Hashing<W> {
    fn line(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.inner.write_all(line)?;
        self.hasher.update(line);
        self.size += line.len() as u64;
        Ok(())
    }
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
    /// The variant of the preset being written, if any (`runlens synth --variant N`).
    pub variant: Option<Variant>,
}

#[derive(Serialize)]
struct ResultRow<'a> {
    trace_id: &'a str,
    nl_question: &'a str,
    gt_from: &'a str,
    candidates: IndexMap<&'a str, Option<&'a Cell>>,
}

/// Builds one corpus, writing its results.jsonl to `results_path` row by row (a `huge` run's
/// file is several GB).
pub fn build(
    cat: &Catalog,
    m: &Matchers,
    models: &[Model],
    spec: &BuildSpec,
    results_path: &Path,
) -> Result<CorpusOut, SynthError> {
    if let Some(parent) = results_path.parent() {
        std::fs::create_dir_all(parent).map_err(io_err(parent))?;
    }
    let file = std::fs::File::create(results_path).map_err(io_err(results_path))?;
    let mut results = Hashing {
        inner: std::io::BufWriter::with_capacity(1 << 20, file),
        hasher: Sha256::new(),
        size: 0,
    };
    let mut line = Vec::new();
    let io = |e: std::io::Error| io_err(results_path)(e);
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

    let mut plans = plan::plan(&questions, models, spec.exact_labelled, &mut p_rng);
    if let Some(variant) = &spec.variant {
        // Its own stream: the preset's draws above are left as they were.
        let mut v_rng = ChaCha8Rng::seed_from_u64(spec.seed ^ 0x7A21 ^ u64::from(variant.n));
        plan::perturb(&mut plans, &questions, models, variant, &mut v_rng);
    }
    let mut order: Vec<usize> = (0..questions.len()).collect();
    order.shuffle(&mut c_rng);
    let duplicate = order.get(order.len() / 3).copied();
    let mut infos: Vec<Vec<Option<CellInfo>>> = vec![vec![None; models.len()]; questions.len()];
    let mut labelled_sqls = HashMap::new();
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
            line.clear();
            push_line(&mut line, &partial)?;
            results.line(&line).map_err(io)?;
            push_line(&mut replacement, &row)?;
        } else {
            line.clear();
            push_line(&mut line, &row)?;
            results.line(&line).map_err(io)?;
        }
    }
    results.line(&replacement).map_err(io)?;
    results.inner.flush().map_err(io)?;
    Ok(CorpusOut {
        questions,
        infos,
        labelled_sqls,
        annotated,
        results_size: results.size,
        results_sha256: results
            .hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::models;
    use crate::plan::Outcome;

    /// 60 questions of the article catalog, with the preset's models or `variant`'s.
    fn corpus(models: &[Model], variant: Option<Variant>, dir: &Path) -> CorpusOut {
        let cat = catalog::article();
        let m = Matchers::new(&cat.namespaces).expect("matchers");
        let spec = BuildSpec {
            corpus: CorpusSpec {
                n: 60,
                worked_examples: false,
                hostile_questions: 0,
            },
            excluded: 0,
            exact_labelled: false,
            seed: 7,
            explore_scale: 0.1,
            variant,
        };
        build(&cat, &m, models, &spec, &dir.join("results.jsonl")).expect("build")
    }

    fn outcome(out: &CorpusOut, q: usize, m: usize) -> Option<Outcome> {
        out.infos[q][m].as_ref().map(|i| i.outcome)
    }

    #[test]
    fn a_variant_changes_its_four_models_and_swaps_the_last_one_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let preset = models::article();
        let (changed, variant) = models::variant(&preset, 1);
        assert_eq!(changed.len(), preset.len());
        assert_eq!(variant.dropped, preset[preset.len() - 1].key);
        assert_eq!(changed[changed.len() - 1].key, "variant1-model");
        let moved: Vec<&String> = variant.improved.iter().chain(&variant.regressed).collect();
        assert_eq!(moved.len(), 4);
        for key in &moved {
            assert!(!LABELLED.contains(&key.as_str()), "{key} is labelled");
            assert_eq!(moved.iter().filter(|k| k == &key).count(), 1, "{key} twice");
        }
        let base = corpus(&preset, None, &dir.path().join("a"));
        let other = corpus(&changed, Some(variant.clone()), &dir.path().join("b"));
        let ids = |c: &CorpusOut| {
            c.questions
                .iter()
                .map(|q| q.trace_id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(&base), ids(&other));
        let (mut up, mut down) = (0, 0);
        for (mi, model) in preset[..preset.len() - 1].iter().enumerate() {
            for q in 0..base.questions.len() {
                let (a, b) = (outcome(&base, q, mi), outcome(&other, q, mi));
                let pass = |o: Option<Outcome>| o == Some(Outcome::Pass);
                if variant.improved.contains(&model.key) {
                    assert!(!pass(a) || pass(b), "{} regressed on {q}", model.key);
                    up += usize::from(!pass(a) && pass(b));
                } else if variant.regressed.contains(&model.key) {
                    assert!(pass(a) || !pass(b), "{} improved on {q}", model.key);
                    down += usize::from(pass(a) && !pass(b));
                } else {
                    assert_eq!(a, b, "{} on question {q}", model.key);
                }
            }
        }
        assert!(up > 0 && down > 0, "improved {up}, regressed {down}");
    }
}
