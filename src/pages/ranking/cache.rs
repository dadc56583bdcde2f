//! What the ranking view derives from a bundle, kept across mounts (per bundle, per corpus
//! and gold rule; question rows also per threshold), and built in steps that yield to the
//! browser so that opening the view on a large bundle does not freeze the page.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use runlens_core::bundle::{Bundle, Corpus};
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::question_rows::{QuestionRow, QuestionRowsRun};
use runlens_core::metrics::report::ReportOptions;
use runlens_core::metrics::report_retrieval::{
    RetrievalInputs, RetrievalInputsRun, RetrievalSection, RetrievalSectionRun,
    retrieval_section_with,
};

use crate::bundle_matcher::{bundle_matcher, parses_pending};
use crate::data::now_ms;
use crate::per_bundle::{Loaded, PerBundle, loaded};
use crate::yield_now::{yield_idle, yield_now};

/// A corpus (by name; `None` = every corpus pooled) under a gold rule.
pub type InputsKey = (Option<String>, GoldRule);

/// Work (ranked tables to scan) below which a build runs at once, in the mount's task.
pub const SYNC_WORK: usize = 200_000;

/// Rows per step between two clock reads (a row of the large preset scans 710 tables, about
/// 1 ms in the size-optimised build: 16 rows per step overshot the slice by 30 ms).
const STEP_ROWS: usize = 4;

/// Time one task may compute before yielding, ms.
const SLICE_MS: f64 = 30.0;

/// Sections kept per bundle before the cache of sections is emptied (each k or threshold
/// value makes one per gold rule, the shown one and the prefetched other).
const MAX_SECTIONS: usize = 32;

#[derive(Default)]
struct Cache {
    pooled: Option<Arc<Corpus>>,
    inputs: HashMap<InputsKey, Arc<RetrievalInputs>>,
    rows: HashMap<(InputsKey, u64), Arc<Vec<QuestionRow>>>,
    /// Sections per key, `k_max` and threshold bits.
    sections: HashMap<(InputsKey, usize, u64), RetrievalSection>,
}

thread_local! {
    static CACHE: RefCell<PerBundle<Loaded, Cache>> = RefCell::default();
}

/// Runs `f` on the cache of `bundle`.
fn with_cache<T>(bundle: &Arc<Bundle>, f: impl FnOnce(&mut Cache) -> T) -> T {
    CACHE.with_borrow_mut(|c| f(c.of(loaded(bundle))))
}

/// Every corpus with ranking rows pooled into one (the "all corpora" choice), built once per
/// bundle and only when asked for.
pub fn pooled(bundle: &Arc<Bundle>) -> Arc<Corpus> {
    with_cache(bundle, |c| {
        c.pooled
            .get_or_insert_with(|| {
                let with: Vec<&Corpus> = bundle
                    .body
                    .corpora
                    .iter()
                    .filter(|c| !c.rankings.is_empty())
                    .collect();
                Arc::new(Corpus {
                    name: "all corpora".into(),
                    rankings: with.iter().flat_map(|c| c.rankings.clone()).collect(),
                    questions: with.iter().flat_map(|c| c.questions.clone()).collect(),
                    ..Default::default()
                })
            })
            .clone()
    })
}

/// Runs `f` on the corpus named `name` of `bundle` (the pooled corpus for `None`).
pub fn with_corpus<T>(
    bundle: &Arc<Bundle>,
    name: Option<&str>,
    f: impl FnOnce(&Corpus) -> T,
) -> Option<T> {
    let mut slot = None;
    corpus_of(bundle, name, &mut slot).map(f)
}

/// Cached inputs of `key`, if built.
pub fn cached_inputs(bundle: &Arc<Bundle>, key: &InputsKey) -> Option<Arc<RetrievalInputs>> {
    with_cache(bundle, |c| c.inputs.get(key).cloned())
}

/// Cached question rows of `key` at threshold `t`, if built.
pub fn cached_rows(bundle: &Arc<Bundle>, key: &InputsKey, t: f64) -> Option<Arc<Vec<QuestionRow>>> {
    with_cache(bundle, |c| c.rows.get(&(key.clone(), t.to_bits())).cloned())
}

type SectionKey = (InputsKey, usize, u64);

fn section_key(key: &InputsKey, opts: &ReportOptions) -> SectionKey {
    (key.clone(), opts.k_max, opts.confidence_threshold.to_bits())
}

/// The cached section of `key` under `opts`, if built.
pub fn cached_section(
    bundle: &Arc<Bundle>,
    key: &InputsKey,
    opts: &ReportOptions,
) -> Option<RetrievalSection> {
    let k = section_key(key, opts);
    with_cache(bundle, |c| c.sections.get(&k).cloned())
}

fn store_section(bundle: &Arc<Bundle>, k: SectionKey, built: &RetrievalSection) {
    with_cache(bundle, |c| {
        // Moving the k or threshold slider makes a section per value: keep a few only.
        if c.sections.len() >= MAX_SECTIONS {
            c.sections.clear();
        }
        c.sections.insert(k, built.clone())
    });
}

/// The cached section of `key` under `opts`, or `build()`'s (then cached).
pub fn section(
    bundle: &Arc<Bundle>,
    key: &InputsKey,
    opts: &ReportOptions,
    build: impl FnOnce() -> Option<RetrievalSection>,
) -> Option<RetrievalSection> {
    if let Some(hit) = cached_section(bundle, key, opts) {
        return Some(hit);
    }
    let built = build()?;
    store_section(bundle, section_key(key, opts), &built);
    Some(built)
}

/// Builds the section of `key` under `opts` from `inputs` in slices (see
/// [`inputs_in_steps`]), then caches it.
pub async fn section_in_steps(
    bundle: Arc<Bundle>,
    key: InputsKey,
    inputs: Arc<RetrievalInputs>,
    opts: ReportOptions,
    alive: impl Fn() -> bool,
    progress: impl Fn(usize, usize),
) -> Option<RetrievalSection> {
    if let Some(hit) = cached_section(&bundle, &key, &opts) {
        return Some(hit);
    }
    let mut slot = None;
    let corpus = corpus_of(&bundle, key.0.as_deref(), &mut slot)?;
    let mut run = RetrievalSectionRun::new(&bundle.body, corpus, &inputs, &opts);
    let total = run.len();
    if !in_slices(&mut run, total, alive, progress).await {
        return None;
    }
    let built = run.finish();
    store_section(&bundle, section_key(&key, &opts), &built);
    Some(built)
}

/// Whether the corpus is small enough to build at once (ranking rows × ranked tables) and
/// no gold SQL would be parsed here because the loader worker's parses are on their way.
pub fn is_small(bundle: &Bundle, corpus: &Corpus) -> bool {
    corpus
        .rankings
        .iter()
        .map(|r| r.ranked.len())
        .sum::<usize>()
        <= SYNC_WORK
        && !parses_pending(bundle)
}

/// Builds (or returns the cached) inputs of `key` at once.
pub fn inputs_now(bundle: &Arc<Bundle>, key: &InputsKey) -> Option<Arc<RetrievalInputs>> {
    if let Some(hit) = cached_inputs(bundle, key) {
        return Some(hit);
    }
    let matcher = bundle_matcher(bundle);
    let built = with_corpus(bundle, key.0.as_deref(), |c| {
        Arc::new(RetrievalInputsRun::with_matcher(c, key.1, matcher).finish())
    })?;
    with_cache(bundle, |c| c.inputs.insert(key.clone(), built.clone()));
    Some(built)
}

/// Builds (or returns the cached) question rows at once.
pub fn rows_now(
    bundle: &Arc<Bundle>,
    key: &InputsKey,
    inputs: &RetrievalInputs,
    t: f64,
) -> Arc<Vec<QuestionRow>> {
    if let Some(hit) = cached_rows(bundle, key, t) {
        return hit;
    }
    let opts = options(t);
    let rows = with_corpus(bundle, key.0.as_deref(), |c| {
        QuestionRowsRun::new(c, inputs, &opts).finish()
    })
    .unwrap_or_default();
    let rows = Arc::new(rows);
    with_cache(bundle, |c| {
        c.rows.insert((key.clone(), t.to_bits()), rows.clone())
    });
    rows
}

fn options(t: f64) -> ReportOptions {
    ReportOptions {
        confidence_threshold: t,
        ..ReportOptions::default()
    }
}

/// A core computation that advances a few rows per call.
trait Steps {
    /// Does up to `n` more rows; true when finished.
    fn step(&mut self, n: usize) -> bool;
    /// Rows done so far.
    fn done(&self) -> usize;
}

impl Steps for RetrievalInputsRun<'_> {
    fn step(&mut self, n: usize) -> bool {
        RetrievalInputsRun::step(self, n)
    }
    fn done(&self) -> usize {
        RetrievalInputsRun::done(self)
    }
}

impl Steps for RetrievalSectionRun<'_> {
    fn step(&mut self, n: usize) -> bool {
        RetrievalSectionRun::step(self, n)
    }
    fn done(&self) -> usize {
        RetrievalSectionRun::done(self)
    }
}

impl Steps for QuestionRowsRun<'_> {
    fn step(&mut self, n: usize) -> bool {
        QuestionRowsRun::step(self, n)
    }
    fn done(&self) -> usize {
        QuestionRowsRun::done(self)
    }
}

/// Runs `run` to the end in slices of about [`SLICE_MS`], reporting `(done, total)` before
/// each yield to the browser; false when `alive()` turned false (the view left or the key
/// changed).
async fn in_slices(
    run: &mut impl Steps,
    total: usize,
    alive: impl Fn() -> bool,
    progress: impl Fn(usize, usize),
) -> bool {
    // The first slice runs after the task that mounted the view, not inside it.
    progress(run.done(), total);
    yield_now().await;
    if !alive() {
        return false;
    }
    let mut start = now_ms();
    while !run.step(STEP_ROWS) {
        if now_ms() - start > SLICE_MS {
            progress(run.done(), total);
            yield_now().await;
            if !alive() {
                return false;
            }
            start = now_ms();
        }
    }
    true
}

/// The corpus named `name` of `bundle`; for `None` the pooled corpus, kept alive in `slot`.
fn corpus_of<'a>(
    bundle: &'a Arc<Bundle>,
    name: Option<&str>,
    slot: &'a mut Option<Arc<Corpus>>,
) -> Option<&'a Corpus> {
    match name {
        Some(n) => bundle.body.corpora.iter().find(|c| c.name == n),
        None => Some(slot.insert(pooled(bundle))),
    }
}

/// Builds the inputs of `key` in slices of about [`SLICE_MS`], reporting `(done, total)`
/// work items; `None` when `alive()` turned false (the view left or the key changed).
pub async fn inputs_in_steps(
    bundle: Arc<Bundle>,
    key: InputsKey,
    alive: impl Fn() -> bool,
    progress: impl Fn(usize, usize),
) -> Option<Arc<RetrievalInputs>> {
    if let Some(hit) = cached_inputs(&bundle, &key) {
        return Some(hit);
    }
    let mut slot = None;
    let corpus = corpus_of(&bundle, key.0.as_deref(), &mut slot)?;
    let mut run = RetrievalInputsRun::with_matcher(corpus, key.1, bundle_matcher(&bundle));
    let total = run.len();
    if !in_slices(&mut run, total, alive, progress).await {
        return None;
    }
    let built = Arc::new(run.finish());
    with_cache(&bundle, |c| c.inputs.insert(key, built.clone()));
    Some(built)
}

/// Builds the question rows in slices (see [`inputs_in_steps`]).
pub async fn rows_in_steps(
    bundle: Arc<Bundle>,
    key: InputsKey,
    inputs: Arc<RetrievalInputs>,
    t: f64,
    alive: impl Fn() -> bool,
    progress: impl Fn(usize, usize),
) -> Option<Arc<Vec<QuestionRow>>> {
    if let Some(hit) = cached_rows(&bundle, &key, t) {
        return Some(hit);
    }
    let mut slot = None;
    let corpus = corpus_of(&bundle, key.0.as_deref(), &mut slot)?;
    let opts = options(t);
    let mut run = QuestionRowsRun::new(corpus, &inputs, &opts);
    let total = run.len();
    if !in_slices(&mut run, total, alive, progress).await {
        return None;
    }
    let rows = Arc::new(run.finish());
    with_cache(&bundle, |c| c.rows.insert((key, t.to_bits()), rows.clone()));
    Some(rows)
}

/// Builds and caches, in idle tasks (`requestIdleCallback`: after the slices and input the
/// page is busy with), what the view would need under `opts` for `key` (the gold rule not
/// shown, or the view not yet opened): its inputs, question rows and section, one per task,
/// on small corpora only, stopping as soon as `current()` turns false. The three enter the
/// cache together at the end, so the cache never holds part of them. Switching the gold rule
/// or opening the view then finds them cached and only renders.
pub async fn prefetch(
    bundle: Arc<Bundle>,
    key: InputsKey,
    opts: ReportOptions,
    current: impl Fn() -> bool,
) {
    yield_idle().await;
    let small = with_corpus(&bundle, key.0.as_deref(), |c| is_small(&bundle, c));
    if !current() || small != Some(true) {
        return;
    }
    let t = opts.confidence_threshold;
    let inputs = match cached_inputs(&bundle, &key) {
        Some(hit) => hit,
        None => {
            let matcher = bundle_matcher(&bundle);
            let Some(built) = with_corpus(&bundle, key.0.as_deref(), |c| {
                Arc::new(RetrievalInputsRun::with_matcher(c, key.1, matcher).finish())
            }) else {
                return;
            };
            built
        }
    };
    yield_idle().await;
    if !current() {
        return;
    }
    let rows = with_corpus(&bundle, key.0.as_deref(), |c| {
        Arc::new(QuestionRowsRun::new(c, &inputs, &options(t)).finish())
    });
    yield_idle().await;
    if !current() {
        return;
    }
    let built = with_corpus(&bundle, key.0.as_deref(), |c| {
        retrieval_section_with(&bundle.body, c, &inputs, &opts)
    });
    let (Some(rows), Some(built)) = (rows, built) else {
        return;
    };
    with_cache(&bundle, |c| {
        c.inputs.insert(key.clone(), inputs);
        c.rows.insert((key.clone(), t.to_bits()), rows);
    });
    store_section(&bundle, section_key(&key, &opts), &built);
}
