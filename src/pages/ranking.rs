//! Table ranking: nDCG@k, recall@k and all-required@k curves recomputed from the bundle's
//! ranking rows (stored `ranked` lists and `gold` sets).

use std::collections::HashSet;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{CurveChart, Marker, Palette, Series, Theme};
use runlens_core::bundle::{Bundle, RankingRow};
use runlens_core::metrics::curves::{QuestionRanking, RetrievalCurves, retrieval_curves};

use crate::components::{AnyChart, ChartCanvas, MetricValue};

/// Largest k shown by default (the harness reports k = 1..10).
const DEFAULT_K_MAX: usize = 10;

/// Reduces ranking rows to what the metrics need.
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

/// The table-ranking view of every corpus that has ranking rows.
#[component]
pub fn RankingView(bundle: Arc<Bundle>) -> impl IntoView {
    let universe = bundle.body.universe.len();
    let k_max = if universe == 0 {
        DEFAULT_K_MAX
    } else {
        DEFAULT_K_MAX.min(universe)
    };
    let sections: Vec<_> = bundle
        .body
        .corpora
        .iter()
        .filter(|c| !c.rankings.is_empty())
        .map(|c| {
            let curves = retrieval_curves(&question_rankings(&c.rankings), k_max);
            let title = format!(
                "Jev schema retrieval on {} ({} questions, {} tables)",
                c.name, curves.n_questions, universe
            );
            view! { <CorpusCurves corpus=c.name.clone() title=title curves=curves /> }
        })
        .collect();
    let empty = sections.is_empty();
    view! {
        <section class="ranking" data-testid="ranking-view">
            <h2>"Table ranking"</h2>
            <Show when=move || empty>
                <p>"This bundle has no table-ranking rows (out/schema_retrieval.jsonl)."</p>
            </Show>
            {sections}
        </section>
    }
}

#[component]
fn CorpusCurves(corpus: String, title: String, curves: RetrievalCurves) -> impl IntoView {
    let theme = if prefers_dark() {
        Theme::DARK
    } else {
        Theme::LIGHT
    };
    let chart = Signal::derive({
        let curves = curves.clone();
        move || AnyChart::Curves(curve_chart(title.clone(), &curves, theme))
    });
    let at = |v: &[f64], k: usize| v.get(k - 1).copied().unwrap_or(0.0);
    let k_hi = curves.k.len();
    let k_mid = 5.min(k_hi);
    let headline = vec![
        (format!("ndcg@{k_hi}"), at(&curves.ndcg, k_hi)),
        (format!("recall@{k_hi}"), at(&curves.recall, k_hi)),
        (format!("recall@{k_mid}"), at(&curves.recall, k_mid)),
        (
            format!("all_required@{k_mid}"),
            at(&curves.all_required, k_mid),
        ),
    ];
    view! {
        <article class="corpus-curves" data-corpus=corpus.clone()>
            <h3>{corpus.clone()}</h3>
            <dl class="headline">
                {headline.into_iter().map(|(name, value)| view! {
                    <div><dt>{name.clone()}</dt><dd><MetricValue name=name value=value /></dd></div>
                }).collect_view()}
            </dl>
            <ChartCanvas id=format!("curves-{corpus}") chart=chart />
        </article>
    }
}

/// Whether the reader's system asks for a dark theme.
pub fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}
