//! Table ranking: the curves of every ranking metric in the registry (nDCG@k, recall@k and
//! all-required@k drawn by default; precision@k, success@k and MRR@k on request) for
//! k = 1..K, the k*
//! distribution, the high-confidence set, a per-question table and the question view —
//! recomputed by `runlens-core` (the code behind `runlens metrics`) whenever k, the
//! threshold, the gold definition or the corpus changes.

mod controls;
pub(crate) mod curve_series;
mod curves_table;
mod question_panel;
mod question_table;
pub mod url;

use std::collections::HashSet;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{AnyLayout, CurveLayout, KStarChart};
use runlens_core::bundle::{Bundle, RankingRow};
use runlens_core::metrics::curves::QuestionRanking;
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::ranking_metrics::{ALL_REQUIRED, RECALL, RankingMetric, ranking_metric};
use runlens_core::metrics::ranking_view::{POOLED, RankingAnswer, RankingQuery};
use runlens_core::metrics::report_retrieval::RetrievalSection;
use wasm_bindgen::JsCast;

use crate::components::{AnyChart, ChartCanvas, ExportButtons, MetricValue, caption, layout_point};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{UrlState, ViewState};
use crate::theme::chart_theme;
use controls::RankingControls;
pub use curve_series::{CurvePicker, curve_chart, curve_style, curves_csv, shown_metrics};
use curves_table::CurvesTable;
use question_panel::QuestionPanel;
use question_table::QuestionTable;

pub use crate::theme::prefers_dark;

/// Reduces ranking rows to what the metrics need (stored gold).
pub fn question_rankings(rows: &[RankingRow]) -> Vec<QuestionRanking> {
    rows.iter()
        .map(|r| {
            let gold: HashSet<&str> = r.gold.iter().map(|g| &**g).collect();
            QuestionRanking::new(&r.ranked, &gold)
        })
        .collect()
}

/// The question the view asks for state `s`.
fn query_of(s: &ViewState) -> RankingQuery {
    RankingQuery {
        corpus: s.corpus.clone(),
        gold: s.ranking.gold,
        k: s.ranking.k,
        threshold: s.ranking.threshold,
    }
}

/// The table-ranking view. Its numbers come from the data's owner ([`NewestAnswer`]: the loader
/// worker, which holds the ranking rows; the page never does), asked again whenever the
/// corpus, k, threshold or gold rule changes; the last answer stays shown until the next.
#[component]
pub fn RankingView(bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let query = Memo::new(move |_| state.with(query_of));
    let answer = NewestAnswer::<_, RankingAnswer>::ask(bundle.clone(), query, ViewQuery::Ranking);
    let bundle = StoredValue::new(bundle);
    let ok = move || answer.answer();
    // Changes once per bundle: the controls are built once (a slider keeps its focus).
    let scope = Memo::new(move |_| ok().map(|a| a.scope.clone()));
    let section = Memo::new(move |_| {
        ok().and_then(|a| {
            let label = a.shown.clone().unwrap_or_else(|| POOLED.into());
            a.section.clone().map(|s| (s, label))
        })
    });
    let rows = Memo::new(move |_| ok().map(|a| Arc::new(a.rows.clone())).unwrap_or_default());
    let error = move || answer.error();
    view! {
        <section class="ranking" data-testid="ranking-view">
            <h2>"Table ranking"</h2>
            {move || scope.get().map(|sc| if sc.names.is_empty() {
                view! {
                    <p>"This bundle has no table-ranking rows (out/schema_retrieval.jsonl)."</p>
                }.into_any()
            } else {
                view! {
                    <RankingControls corpora=sc.names k_limit=sc.k_limit parser_available=sc.parser_available />
                }.into_any()
            })}
            <Show when=move || answer.pending() && scope.with(|s| s.as_ref().is_none_or(|s| !s.names.is_empty()))>
                <p class="notice" role="status" data-testid="ranking-progress">"Computing the rankings…"</p>
            </Show>
            {move || error().map(|e| view! {
                <p class="error" role="alert" data-testid="ranking-error">{format!("The rankings could not be computed: {e}")}</p>
            })}
            {move || section.get().map(|(s, label)| view! { <SectionView section=s corpus=label /> })}
            <Show when=move || scope.with(|s| s.as_ref().is_some_and(|s| !s.names.is_empty()))>
                <QuestionPanel bundle=bundle.get_value() query=query rows=rows />
                <QuestionTable rows=rows />
            </Show>
        </section>
    }
}

/// Headline numbers, curves (hover for exact values), their exact-value table and the k*
/// histogram, each exportable, for one computed section.
#[component]
fn SectionView(section: RetrievalSection, corpus: String) -> impl IntoView {
    let state = UrlState::use_context();
    let shown = Memo::new(move |_| state.with(|s| shown_metrics(&s.ranking.curves)));
    let curves = section.curves.clone();
    let k_hi = curves.k.len();
    let k_mid = 5.min(k_hi);
    // After the figures at K of every curve drawn: the harness's published recall and
    // all-required at 5, and the high-confidence set.
    let mut fixed: Vec<(String, f64)> = Vec::new();
    if k_mid < k_hi {
        for m in [&RECALL, &ALL_REQUIRED] {
            fixed.push((format!("{}@{k_mid}", m.key), curves_at(&curves, m, k_mid)));
        }
    }
    let hc = section.high_confidence.clone();
    let t = hc.threshold;
    fixed.extend([
        ("high_confidence:mean_size".to_owned(), hc.mean_size),
        ("high_confidence:precision".to_owned(), hc.precision),
        ("high_confidence:recall".to_owned(), hc.recall),
        ("high_confidence:full_coverage".to_owned(), hc.full_coverage),
    ]);
    let headline = {
        let curves = curves.clone();
        move || {
            let mut items: Vec<(String, f64)> = shown
                .get()
                .into_iter()
                .map(|m| (format!("{}@{k_hi}", m.key), curves_at(&curves, m, k_hi)))
                .collect();
            items.extend(fixed.iter().cloned());
            items
        }
    };
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
        move || {
            let drawn = shown.get();
            AnyChart::Curves(curve_chart(title.clone(), &curves, &drawn, chart_theme()))
        }
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
        let (x, _) = layout_point(&canvas, ev.offset_x(), ev.offset_y());
        let k = layout.with(|l| l.as_ref().and_then(|l| l.k_at(x)));
        set_hover_k.set(k.map(|k| k as usize));
    };
    let readout = {
        let curves = curves.clone();
        move || {
            hover_k.get().map(|k| {
                let values: Vec<String> = shown
                    .get()
                    .into_iter()
                    .map(|m| format!("{} {:.4}", m.column, curves_at(&curves, m, k)))
                    .collect();
                format!("k = {k}: {}", values.join(" · "))
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
                {move || headline().into_iter().map(|(name, value)| view! {
                    <div><dt>{headline_term(&name)}</dt><dd><MetricValue name=name value=value /></dd></div>
                }).collect_view()}
            </dl>
            <CurvePicker shown=shown />
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

/// The words shown for a headline figure (its `data-metric` key stays as it is):
/// `ndcg@10` reads "nDCG@10", `all_required@5` "all-required@5", `mrr@10` "MRR@10",
/// `high_confidence:mean_size` "mean size of the high-confidence set".
pub fn headline_term(key: &str) -> String {
    if let Some(rest) = key.strip_prefix("high_confidence:") {
        return match rest {
            "mean_size" => "mean size of the high-confidence set".to_owned(),
            "precision" => "mean precision of the high-confidence set".to_owned(),
            "recall" => "mean recall of the high-confidence set".to_owned(),
            "full_coverage" => "share of questions whose set holds every gold table".to_owned(),
            other => format!("high-confidence set: {}", other.replace('_', " ")),
        };
    }
    if let Some((name, k)) = key.split_once('@')
        && let Some(metric) = ranking_metric(name)
    {
        return format!("{}@{k}", metric.label.trim_end_matches("@k"));
    }
    key.replace('_', " ")
}

/// The value of `metric` at `k` (k below 1 reads as 1), 0 past the curve's end.
fn curves_at(
    curves: &runlens_core::metrics::curves::RetrievalCurves,
    metric: &RankingMetric,
    k: usize,
) -> f64 {
    curves.at(metric, k.max(1)).unwrap_or(0.0)
}

crate::pages::views::lazy_view! {
    /// The table-ranking view. In a chunk of its own (`split_ranking`).
    ranking: RankingView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Ranking,
    label: "Table ranking",
    needs: crate::pages::views::Needs::Summary,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
