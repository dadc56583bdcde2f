//! One corpus's table rankings in both runs (#21, "Retrieval"): each run's curves of the
//! metrics the ranking view shows (its `curves=`, `k` and `gold` choices) on one chart, A
//! with circles and B with squares, and per k the paired difference B − A over the
//! questions ranked in both (`runlens_core::metrics::compare_ranking`), with its 95%
//! interval. `data-metric="rdelta:<metric>@<k>"` carries the unrounded difference.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_charts::{AnyChart, CurveChart, Marker, Series};
use runlens_core::bundle::Bundle;
use runlens_core::csv::to_csv;
use runlens_core::metrics::compare_ranking::{RankingCompare, compare_rankings};
use runlens_core::metrics::curves::{QuestionRanking, RetrievalCurves};
use runlens_core::metrics::ranking_metrics::{RANKING_METRICS, RankingMetric};
use runlens_core::metrics::ranking_view::{RankingAnswer, RankingQuery};

use crate::components::{ChartCanvas, ExportButtons, caption};
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::pages::ranking::curve_series::{curve_style, shown_metrics};
use crate::state::UrlState;
use crate::theme::chart_theme;

/// `answer`'s curves and rankings when it shows `corpus` (a corpus without rankings makes
/// the worker show another, or none).
fn of_corpus(
    answer: &RankingAnswer,
    corpus: &str,
) -> Option<(RetrievalCurves, Vec<(String, QuestionRanking)>)> {
    if answer.shown.as_deref() != Some(corpus) {
        return None;
    }
    let section = answer.section.as_ref()?;
    Some((
        section.curves.clone(),
        answer
            .rows
            .iter()
            .map(|r| (r.trace_id.clone(), r.ranking()))
            .collect(),
    ))
}

/// Both runs' curves of `shown` metrics on one chart: A with circles, B with squares.
pub fn both_curves(
    title: String,
    a: &RetrievalCurves,
    b: &RetrievalCurves,
    shown: &[&RankingMetric],
    theme: runlens_charts::Theme,
) -> CurveChart {
    let mut series = Vec::new();
    for (i, metric) in RANKING_METRICS.into_iter().enumerate() {
        if !shown.iter().any(|s| s.key == metric.key) {
            continue;
        }
        let (color, _) = curve_style(i);
        for (run, curves, marker) in [("A", a, Marker::Circle), ("B", b, Marker::Square)] {
            series.push(Series {
                label: format!("{}, run {run}", metric.label),
                color,
                marker,
                points: curves
                    .k
                    .iter()
                    .zip(curves.of(metric))
                    .map(|(&k, &y)| (k as u32, y))
                    .collect(),
            });
        }
    }
    CurveChart {
        title,
        k_max: a.k.len().min(b.k.len()).max(1) as u32,
        series,
        theme,
    }
}

/// `v` with a sign and three decimals (`−` for negatives), or `–`.
pub fn signed3(v: Option<f64>) -> String {
    match v {
        Some(v) if v >= 0.0005 => format!("+{v:.3}"),
        Some(v) if v <= -0.0005 => format!("−{:.3}", -v),
        Some(_) => "0.000".to_owned(),
        None => "–".to_owned(),
    }
}

/// Every metric's paired differences as CSV: one row per metric and k, unrounded.
fn deltas_csv(c: &RankingCompare) -> String {
    let o = |v: Option<f64>| v.map_or_else(String::new, |v| v.to_string());
    let mut rows = Vec::new();
    for m in &c.metrics {
        for (i, d) in m.deltas.iter().enumerate() {
            let ci = d.interval95();
            rows.push(vec![
                m.metric.key.to_owned(),
                (i + 1).to_string(),
                d.n.to_string(),
                o(d.pass_a),
                o(d.pass_b),
                o(d.delta),
                o(d.se),
                o(ci.map(|c| c.0)),
                o(ci.map(|c| c.1)),
                o(d.p),
            ]);
        }
    }
    to_csv(
        &["metric", "k", "n", "a", "b", "delta", "se", "lo", "hi", "p"],
        &rows,
    )
}

/// The retrieval section of `corpus`: both runs' rankings asked of their workers.
#[component]
pub fn CompareRetrieval(a: Arc<Bundle>, b: Arc<Bundle>, corpus: String) -> impl IntoView {
    let state = UrlState::use_context();
    let name = corpus.clone();
    let query = Memo::new(move |_| {
        state.with(|s| RankingQuery {
            corpus: Some(name.clone()),
            gold: s.ranking.gold,
            k: s.ranking.k,
            threshold: s.ranking.threshold,
        })
    });
    let ans_a = NewestAnswer::<_, RankingAnswer>::ask(a, query, ViewQuery::Ranking);
    let ans_b = NewestAnswer::<_, RankingAnswer>::ask(b, query, ViewQuery::Ranking);
    let name = corpus.clone();
    // `None` until both answered; `Some(None)` when a run has no rankings of this corpus.
    let compared = Memo::new(move |_| {
        let (ra, rb) = (ans_a.answer()?, ans_b.answer()?);
        let pair = of_corpus(&ra, &name).zip(of_corpus(&rb, &name));
        Some(pair.map(|((ca, qa), (cb, qb))| {
            let k = ca.k.len().min(cb.k.len());
            Arc::new((ca, cb, compare_rankings(&qa, &qb, k)))
        }))
    });
    let shown = Memo::new(move |_| state.with(|s| shown_metrics(&s.ranking.curves)));
    let error = move || ans_a.error().or_else(|| ans_b.error());
    let name = corpus.clone();
    let body = move || {
        if let Some(e) = error() {
            return view! { <p class="error" role="alert">{format!("The rankings could not be read: {e}")}</p> }.into_any();
        }
        match compared.get() {
            None => view! { <p class="notice" role="status">"Reading both runs' rankings…"</p> }.into_any(),
            Some(None) => view! {
                <p class="notice" data-testid="compare-retrieval-none">
                    "Both runs need table rankings of this corpus to compare them; at least one has none."
                </p>
            }
            .into_any(),
            Some(Some(c)) => view! { <Retrieval corpus=name.clone() compared=c shown=shown /> }.into_any(),
        }
    };
    view! {
        <section class="compare-retrieval" data-testid="compare-retrieval">
            <h4>"Table ranking"</h4>
            {body}
        </section>
    }
}

/// The chart, export and per-k table of one compared corpus.
#[component]
fn Retrieval(
    corpus: String,
    compared: Arc<(RetrievalCurves, RetrievalCurves, RankingCompare)>,
    shown: Memo<Vec<&'static RankingMetric>>,
) -> impl IntoView {
    let c = compared.clone();
    let title = format!("Table ranking, run A and run B ({corpus})");
    let chart = Signal::derive(move || {
        AnyChart::Curves(both_curves(
            title.clone(),
            &c.0,
            &c.1,
            &shown.get(),
            chart_theme(),
        ))
    });
    let cap = caption(&format!(
        "{corpus} · each run's curves over its own ranked questions; differences over the {} ranked in both",
        compared.2.n
    ));
    let c = compared.clone();
    let csv = Callback::new(move |()| deltas_csv(&c.2));
    let slug = corpus.replace(char::is_whitespace, "-");
    let id = format!("compare-curves-{slug}");
    let cmp = compared.clone();
    let table = move || {
        let metrics = shown.get();
        let c = &cmp.2;
        let head = metrics
            .iter()
            .map(|m| {
                view! {
                    <th scope="col" class="num">{format!("{} A", m.label)}</th>
                    <th scope="col" class="num">{format!("{} B", m.label)}</th>
                    <th scope="col" class="num">"Δ (95% interval)"</th>
                }
            })
            .collect_view();
        let k_max = metrics.first().map_or(0, |m| c.of(m).len());
        let rows = (1..=k_max)
            .map(|k| {
                let cells = metrics
                    .iter()
                    .map(|m| {
                        let d = c.of(m)[k - 1];
                        let ci = d
                            .interval95()
                            .map(|(lo, hi)| format!(" ({} to {})", signed3(Some(lo)), signed3(Some(hi))))
                            .unwrap_or_default();
                        let f = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v:.3}"));
                        view! {
                            <td class="num">{f(d.pass_a)}</td>
                            <td class="num">{f(d.pass_b)}</td>
                            <td class="num">
                                <span class="metric" data-metric=format!("rdelta:{}@{k}", m.key)
                                    data-value=d.delta.map(|v| v.to_string()).unwrap_or_default()>
                                    {signed3(d.delta)}
                                </span>
                                <span class="ci">{ci}</span>
                            </td>
                        }
                    })
                    .collect_view();
                view! { <tr><th scope="row">{k}</th>{cells}</tr> }
            })
            .collect_view();
        view! {
            <thead><tr><th scope="col">"k"</th>{head}</tr></thead>
            <tbody>{rows}</tbody>
        }
    };
    let c = &compared.2;
    let counts = format!(
        "{} questions ranked in both runs (the differences' n); {} in run A only, {} in run B only.",
        c.n, c.only_a, c.only_b
    );
    // Identical rankings (a variant of the same run) draw B's curves over A's: said in words.
    let alike = c.n > 0
        && c.metrics
            .iter()
            .all(|m| m.deltas.iter().all(|d| d.delta == Some(0.0)));
    view! {
        <p data-testid="compare-retrieval-n">{counts}</p>
        {alike.then(|| view! {
            <p class="hint" data-testid="compare-retrieval-alike">
                "Both runs rank every shared question alike at every k: run B's curves lie on run A's."
            </p>
        })}
        <div class="chart-wrap">
            <ChartCanvas id=id.clone() chart=chart caption=cap.clone() />
        </div>
        <ExportButtons base_name=format!("compare-ranking-{slug}") canvas_id=id chart=chart
            caption=cap csv=csv />
        <div class="table-scroll">
            <table class="board compare-ranking-table" data-testid="compare-ranking-table">
                <caption class="visually-hidden">"Mean per k in each run over the questions ranked in both, and the paired difference B − A"</caption>
                {table}
            </table>
        </div>
    }
}
