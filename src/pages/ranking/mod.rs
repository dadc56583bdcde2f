//! Table ranking: nDCG@k, recall@k and all-required@k curves for k = 1..K, the k*
//! distribution, the high-confidence set, a per-question table and the question view —
//! recomputed by `runlens-core` (the code behind `runlens metrics`) whenever k, the
//! threshold, the gold definition or the corpus changes.

pub mod cache;
mod controls;
mod curves_table;
mod question_panel;
mod question_table;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_charts::{
    AnyLayout, CurveChart, CurveLayout, KStarChart, Marker, Palette, Series, Theme,
};
use runlens_core::bundle::{Bundle, Corpus, RankingRow};
use runlens_core::csv::to_csv;
use runlens_core::metrics::curves::{QuestionRanking, RetrievalCurves};
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::question_rows::QuestionRow;
use runlens_core::metrics::report::ReportOptions;
use runlens_core::metrics::report_retrieval::{
    RetrievalInputs, RetrievalSection, retrieval_section_with,
};
use wasm_bindgen::JsCast;

use crate::components::{AnyChart, ChartCanvas, ExportButtons, MetricValue, caption};
use crate::state::{UrlState, ViewState};
use crate::theme::chart_theme;
use crate::yield_now::mounted_flag;
use cache::InputsKey;
use controls::RankingControls;
pub use controls::shown_corpus;
use curves_table::CurvesTable;
use question_panel::QuestionPanel;
use question_table::QuestionTable;

pub use crate::theme::prefers_dark;

/// Reduces ranking rows to what the metrics need (stored gold).
pub fn question_rankings(rows: &[RankingRow]) -> Vec<QuestionRanking> {
    rows.iter()
        .map(|r| {
            let gold: HashSet<&str> = r.gold.iter().map(String::as_str).collect();
            QuestionRanking::new(&r.ranked, &gold)
        })
        .collect()
}

/// The curve chart for `curves`, in the harness's colours plus nDCG.
pub fn curve_chart(title: String, curves: &RetrievalCurves, theme: Theme) -> CurveChart {
    let pts = |v: &[f64]| {
        curves
            .k
            .iter()
            .zip(v)
            .map(|(&k, &y)| (k as u32, y))
            .collect()
    };
    CurveChart {
        title,
        k_max: curves.k.len() as u32,
        series: vec![
            Series {
                label: "recall@k (share of gold tables found)".into(),
                color: Palette::RECALL,
                marker: Marker::Circle,
                points: pts(&curves.recall),
            },
            Series {
                label: "all-required@k (every gold table found)".into(),
                color: Palette::ALL_REQUIRED,
                marker: Marker::Square,
                points: pts(&curves.all_required),
            },
            Series {
                label: "nDCG@k".into(),
                color: Palette::NDCG,
                marker: Marker::Triangle,
                points: pts(&curves.ndcg),
            },
        ],
        theme,
    }
}

/// What the view shows of a bundle for a view state: which corpus, the largest k, whether
/// the parser rule can be chosen (shared by the view and [`prefetch_view`]).
struct Scope {
    /// Corpora with ranking rows.
    names: Vec<String>,
    /// The largest k on the slider.
    k_limit: usize,
    /// Namespaces and gold SQL exist.
    parser_available: bool,
}

impl Scope {
    fn of(bundle: &Bundle) -> Scope {
        let with_rows: Vec<&Corpus> = bundle
            .body
            .corpora
            .iter()
            .filter(|c| !c.rankings.is_empty())
            .collect();
        Scope {
            names: with_rows.iter().map(|c| c.name.clone()).collect(),
            k_limit: with_rows
                .iter()
                .flat_map(|c| c.rankings.iter().map(|r| r.ranked.len()))
                .max()
                .unwrap_or(0)
                .max(bundle.body.universe.len())
                .max(1),
            parser_available: !bundle.body.namespaces.is_empty()
                && with_rows
                    .iter()
                    .any(|c| c.questions.iter().any(|q| !q.gt_sql.is_empty())),
        }
    }

    /// The corpus shown for the `chosen` one: it if it has rankings, else the only one with
    /// rankings, else all pooled (`None`).
    fn corpus(&self, chosen: Option<String>) -> Option<String> {
        shown_corpus(&self.names, chosen)
    }

    fn options(&self, s: &ViewState) -> ReportOptions {
        ReportOptions {
            k_max: s.k.clamp(1, self.k_limit),
            gold_rule: s.gold,
            confidence_threshold: s.threshold,
            ..ReportOptions::default()
        }
    }
}

/// Builds and caches, in idle tasks, what opening the ranking view in state `s` would compute
/// (small corpora only; see [`cache::prefetch`]): the overview calls it after the first view is
/// shown, so the first open of the view only renders. Stops when `current()` turns false.
pub async fn prefetch_view(bundle: Arc<Bundle>, s: ViewState, current: impl Fn() -> bool) {
    let scope = Scope::of(&bundle);
    if scope.names.is_empty() {
        return;
    }
    let key = (scope.corpus(s.corpus.clone()), s.gold);
    cache::prefetch(bundle, key, scope.options(&s), current).await;
}

/// The table-ranking view.
#[component]
pub fn RankingView(bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let scope = Scope::of(&bundle);
    if scope.names.is_empty() {
        return view! {
            <section class="ranking" data-testid="ranking-view">
                <h2>"Table ranking"</h2>
                <p>"This bundle has no table-ranking rows (out/schema_retrieval.jsonl)."</p>
            </section>
        }
        .into_any();
    }
    let (k_limit, parser_available) = (scope.k_limit, scope.parser_available);
    let corpora = scope.names.clone();
    let body = StoredValue::new(bundle.clone());
    let scope = StoredValue::new(scope);
    // The corpus shown: the chosen one if it has rankings, else all (or the only one).
    let corpus_name =
        Memo::new(move |_| state.with(|s| scope.with_value(|sc| sc.corpus(s.corpus.clone()))));
    let options = Memo::new(move |_| state.with(|s| scope.with_value(|sc| sc.options(s))));
    // Gold sets (the SQL parsing) depend only on the corpus and the gold rule; k and the
    // threshold reuse them. They and the question rows are cached per bundle (cache.rs) and,
    // on large corpora, built in slices that yield to the browser.
    let gold_rule = Memo::new(move |_| options.with(|o| o.gold_rule));
    let threshold = Memo::new(move |_| options.with(|o| o.confidence_threshold));
    let key = Memo::new(move |_| (corpus_name.get(), gold_rule.get()));
    let progress = RwSignal::new(None::<(usize, usize)>);
    let alive = mounted_flag();
    let (inputs, rows) = builds(body, key, threshold, progress, alive.clone());
    // What the section is computed from: the bundle, key, inputs and options, while the
    // inputs shown are the current key's.
    let section_inputs = move || {
        let opts = options.get();
        let inputs = inputs.get()?;
        let k = key.get();
        let b = body.get_value();
        let own = cache::cached_inputs(&b, &k).is_some_and(|c| Arc::ptr_eq(&c, &inputs));
        let small = cache::with_corpus(&b, k.0.as_deref(), |c| cache::is_small(&b, c));
        own.then_some((b, k, inputs, opts, small.unwrap_or(true)))
    };
    // Bumped when a section built in slices lands in the cache.
    let section_built = RwSignal::new(0u64);
    let section_progress = RwSignal::new(None::<(usize, usize)>);
    // The section of the current key, k and threshold (cached per bundle): at once on small
    // corpora; on large ones built in slices by the effect below.
    let section = Memo::new(move |_| {
        section_built.track();
        let (b, k, inputs, opts, small) = section_inputs()?;
        if let Some(hit) = cache::cached_section(&b, &k, &opts) {
            return Some(hit);
        }
        if !small {
            return None;
        }
        cache::section(&b, &k, &opts, || {
            cache::with_corpus(&b, k.0.as_deref(), |c| {
                retrieval_section_with(&b.body, c, &inputs, &opts)
            })
        })
    });
    let generation = Arc::new(AtomicUsize::new(0));
    let section_alive = alive.clone();
    Effect::new(move |_| {
        let alive = &section_alive;
        let wanted = section_inputs();
        let mine = generation.fetch_add(1, Ordering::Relaxed) + 1;
        section_progress.set(None);
        let Some((b, k, inputs, opts, false)) = wanted else {
            return;
        };
        if section.with_untracked(Option::is_some) {
            return;
        }
        let (generation, alive) = (generation.clone(), alive.clone());
        let current =
            move || alive.load(Ordering::Relaxed) && generation.load(Ordering::Relaxed) == mine;
        section_progress.set(Some((0, 1)));
        spawn_local(async move {
            let report = |done, total| {
                if current() {
                    section_progress.set(Some((done, total)));
                }
            };
            let built = cache::section_in_steps(b, k, inputs, opts, &current, report).await;
            if built.is_some() && current() {
                section_progress.set(None);
                section_built.update(|n| *n += 1);
            }
        });
    });
    // In idle time after each change, the other gold rule's inputs, rows and section for the
    // same corpus, k and threshold (small corpora only): the gold switch then only renders.
    let prefetched = Arc::new(AtomicUsize::new(0));
    Effect::new(move |_| {
        let (k, opts) = (key.get(), options.get());
        if !parser_available {
            return;
        }
        let other = match k.1 {
            GoldRule::Harness => GoldRule::Parser,
            GoldRule::Parser => GoldRule::Harness,
        };
        let mine = prefetched.fetch_add(1, Ordering::Relaxed) + 1;
        let (prefetched, alive) = (prefetched.clone(), alive.clone());
        let current =
            move || alive.load(Ordering::Relaxed) && prefetched.load(Ordering::Relaxed) == mine;
        let Some(b) = body.try_get_value() else {
            return;
        };
        let opts = ReportOptions {
            gold_rule: other,
            ..opts
        };
        spawn_local(cache::prefetch(b, (k.0, other), opts, current));
    });
    let cells = Callback::new(move |trace: String| {
        let chosen = corpus_name.get_untracked();
        body.with_value(|b| question_cells(b, chosen.as_deref(), &trace))
    });
    let rows = Signal::derive(move || rows.get());
    view! {
        <section class="ranking" data-testid="ranking-view">
            <h2>"Table ranking"</h2>
            <RankingControls corpora=corpora k_limit=k_limit parser_available=parser_available />
            {move || progress.get().or_else(|| section_progress.get()).map(|(done, total)| view! {
                <p class="notice" role="status" data-testid="ranking-progress">
                    {format!("Computing the rankings… {done} of {total}")}
                </p>
            })}
            {move || section.get().map(|s| {
                let label = corpus_name.get().unwrap_or_else(|| "all corpora".into());
                view! { <SectionView section=s corpus=label /> }
            })}
            <QuestionPanel rows=rows cells=cells />
            <QuestionTable rows=rows />
        </section>
    }
    .into_any()
}

/// `(corpus, model, outcome)` of every cell on question `trace` in the chosen corpus (or all).
fn question_cells(b: &Bundle, corpus: Option<&str>, trace: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for c in b
        .body
        .corpora
        .iter()
        .filter(|c| corpus.is_none_or(|n| c.name == n))
    {
        for row in c.results.iter().filter(|r| r.trace_id == trace) {
            for (model, cell) in &row.candidates {
                if let Some(cell) = cell {
                    let outcome = cell.outcome().map_or("unscored", |o| o.as_str());
                    out.push((c.name.clone(), model.clone(), outcome.to_owned()));
                }
            }
        }
    }
    out
}

type InputsSignal = RwSignal<Option<Arc<RetrievalInputs>>>;
type RowsSignal = RwSignal<Arc<Vec<QuestionRow>>>;

/// The inputs and question rows of the current key and threshold: from the cache, built at
/// once for small corpora, else built in slices (`progress` shows how far; a newer key or
/// threshold, or leaving the view, abandons an older build).
fn builds(
    body: StoredValue<Arc<Bundle>>,
    key: Memo<InputsKey>,
    threshold: Memo<f64>,
    progress: RwSignal<Option<(usize, usize)>>,
    alive: Arc<AtomicBool>,
) -> (InputsSignal, RowsSignal) {
    let inputs = RwSignal::new(None::<Arc<RetrievalInputs>>);
    let rows = RwSignal::new(Arc::new(Vec::<QuestionRow>::new()));
    let generation = Arc::new(AtomicUsize::new(0));
    let small = move |k: &InputsKey| {
        body.with_value(|b| cache::with_corpus(b, k.0.as_deref(), |c| cache::is_small(b, c)))
            .unwrap_or(true)
    };
    // What `inputs` and `rows` hold now.
    let loaded = StoredValue::new(None::<(InputsKey, f64)>);
    let sync = move |k: &InputsKey, t: f64| {
        let b = body.get_value();
        if let Some(i) = cache::inputs_now(&b, k) {
            rows.set(cache::rows_now(&b, k, &i, t));
            inputs.set(Some(i));
        }
        loaded.set_value(Some((k.clone(), t)));
        progress.set(None);
    };
    let ready = move |k: &InputsKey, t: f64| {
        let b = body.get_value();
        cache::cached_inputs(&b, k).is_some() && cache::cached_rows(&b, k, t).is_some()
    };
    // At mount: cached or small, at once (no empty first frame).
    let (k0, t0) = (key.get_untracked(), threshold.get_untracked());
    if ready(&k0, t0) || small(&k0) {
        sync(&k0, t0);
    }
    Effect::new(move |_| {
        let (k, t) = (key.get(), threshold.get());
        let now = Some((k.clone(), t));
        if loaded.with_value(|l| *l == now) {
            return;
        }
        if ready(&k, t) || small(&k) {
            generation.fetch_add(1, Ordering::Relaxed);
            sync(&k, t);
            return;
        }
        let b = body.get_value();
        let mine = generation.fetch_add(1, Ordering::Relaxed) + 1;
        let (generation, alive) = (generation.clone(), alive.clone());
        let current =
            move || alive.load(Ordering::Relaxed) && generation.load(Ordering::Relaxed) == mine;
        if cache::cached_inputs(&b, &k).is_none() {
            inputs.set(None);
        }
        progress.set(Some((0, 1)));
        spawn_local(async move {
            let report = |done, total| {
                if current() {
                    progress.set(Some((done, total)));
                }
            };
            let Some(i) = cache::inputs_in_steps(b.clone(), k.clone(), &current, report).await
            else {
                return;
            };
            if !current() {
                return;
            }
            inputs.set(Some(i.clone()));
            let report = |done, total| {
                if current() {
                    progress.set(Some((done, total)));
                }
            };
            let Some(r) = cache::rows_in_steps(b, k, i, t, &current, report).await else {
                return;
            };
            if current() {
                rows.set(r);
                loaded.set_value(now);
                progress.set(None);
            }
        });
    });
    (inputs, rows)
}

/// Headline numbers, curves (hover for exact values), their exact-value table and the k*
/// histogram, each exportable, for one computed section.
#[component]
fn SectionView(section: RetrievalSection, corpus: String) -> impl IntoView {
    let curves = section.curves.clone();
    let at = |v: &[f64], k: usize| v.get(k.max(1) - 1).copied().unwrap_or(0.0);
    let k_hi = curves.k.len();
    let k_mid = 5.min(k_hi);
    let mut headline = vec![
        (format!("ndcg@{k_hi}"), at(&curves.ndcg, k_hi)),
        (format!("recall@{k_hi}"), at(&curves.recall, k_hi)),
        (
            format!("all_required@{k_hi}"),
            at(&curves.all_required, k_hi),
        ),
    ];
    if k_mid < k_hi {
        headline.push((format!("recall@{k_mid}"), at(&curves.recall, k_mid)));
        headline.push((
            format!("all_required@{k_mid}"),
            at(&curves.all_required, k_mid),
        ));
    }
    let hc = section.high_confidence.clone();
    let t = hc.threshold;
    headline.extend([
        ("high_confidence:mean_size".to_owned(), hc.mean_size),
        ("high_confidence:precision".to_owned(), hc.precision),
        ("high_confidence:recall".to_owned(), hc.recall),
        ("high_confidence:full_coverage".to_owned(), hc.full_coverage),
    ]);
    let rule = match section.gold_rule {
        GoldRule::Harness => "harness rule",
        GoldRule::Parser => "SQL parser",
    };
    let settings = format!("{corpus} · gold: {rule} · k = 1..{k_hi} · t = {t}");
    let caption_text = caption(&settings);
    let title = format!(
        "Jev schema retrieval on {corpus} ({} questions, {} tables)",
        curves.n_questions, section.universe_size
    );
    let chart = Signal::derive({
        let curves = curves.clone();
        move || AnyChart::Curves(curve_chart(title.clone(), &curves, chart_theme()))
    });
    let k_star_chart = Signal::derive({
        let ks = section.k_star.clone();
        let corpus = corpus.clone();
        let k_limit = section.universe_size.max(1);
        move || {
            AnyChart::KStar(KStarChart {
                title: format!("k*: the smallest k whose top k holds every gold table ({corpus})"),
                counts: (1..=k_limit)
                    .map(|k| ks.counts.get(&k).copied().unwrap_or(0))
                    .collect(),
                not_found: ks.never,
                theme: chart_theme(),
            })
        }
    });
    let fallback = section.gold_fallback_rows;
    let (layout, set_layout) = signal(None::<CurveLayout>);
    let (hover_k, set_hover_k) = signal(None::<usize>);
    let on_layout = Callback::new(move |l: AnyLayout| {
        if let AnyLayout::Curves(c) = l {
            set_layout.set(Some(c));
        }
    });
    let on_move = move |ev: web_sys::MouseEvent| {
        let Some(canvas) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let scale = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1));
        let x = (f64::from(ev.offset_x()) * scale).round() as i32;
        let k = layout.with(|l| l.as_ref().and_then(|l| l.k_at(x)));
        set_hover_k.set(k.map(|k| k as usize));
    };
    let readout = {
        let curves = curves.clone();
        move || {
            hover_k.get().map(|k| {
                format!(
                    "k = {k}: nDCG {:.4} · recall {:.4} · all-required {:.4}",
                    at(&curves.ndcg, k),
                    at(&curves.recall, k),
                    at(&curves.all_required, k)
                )
            })
        }
    };
    let csv = {
        let curves = curves.clone();
        Callback::new(move |()| curves_csv(&curves))
    };
    let slug = corpus.replace(char::is_whitespace, "-");
    view! {
        <article class="corpus-curves" data-corpus=corpus.clone()>
            <h3>{corpus.clone()}</h3>
            <p class="settings">
                {format!("{} questions · gold: {rule} · high-confidence set: P(yes) ≥ {t}", curves.n_questions)}
            </p>
            <Show when=move || { fallback > 0 }>
                <p class="notice">{format!("{fallback} questions had no gold SQL to parse; their stored gold tables are used.")}</p>
            </Show>
            <dl class="headline">
                {headline.into_iter().map(|(name, value)| view! {
                    <div><dt>{name.clone()}</dt><dd><MetricValue name=name value=value /></dd></div>
                }).collect_view()}
            </dl>
            <div class="chart-wrap" on:mousemove=on_move on:mouseleave=move |_| set_hover_k.set(None)>
                <ChartCanvas id="ranking-curves" chart=chart caption=caption_text.clone() on_layout=on_layout />
            </div>
            <p class="readout" aria-live="polite" data-testid="curve-readout">{readout}</p>
            <ExportButtons base_name=format!("ranking-curves-{slug}") canvas_id="ranking-curves"
                chart=chart caption=caption_text.clone() csv=csv />
            <CurvesTable curves=curves />
            <h4>"How deep must the ranking go?"</h4>
            <ChartCanvas id="ranking-kstar" chart=k_star_chart height=320 caption=caption_text.clone() />
            <ExportButtons base_name=format!("k-star-{slug}") canvas_id="ranking-kstar"
                chart=k_star_chart caption=caption_text svg_size=(720, 320) />
        </article>
    }
}

/// The curves as CSV: one row per k, unrounded.
pub fn curves_csv(c: &RetrievalCurves) -> String {
    let v = |s: &[f64], i: usize| s.get(i).map_or_else(String::new, f64::to_string);
    let rows: Vec<Vec<String>> =
        c.k.iter()
            .enumerate()
            .map(|(i, k)| {
                vec![
                    k.to_string(),
                    v(&c.ndcg, i),
                    v(&c.recall, i),
                    v(&c.all_required, i),
                    v(&c.precision, i),
                    v(&c.hit, i),
                ]
            })
            .collect();
    to_csv(
        &["k", "ndcg", "recall", "all_required", "precision", "hit"],
        &rows,
    )
}
