//! Leaderboard per corpus, recomputed from the cells (08_results_stats): pass rate with its
//! 95% interval, SE, n, answered, turn-limited, effort medians, tokens, and the paired test
//! against the top model; a sortable table and a bar chart with interval whiskers.

use std::sync::Arc;

use leptos::prelude::*;
use plotters::style::RGBColor;
use runlens_charts::{CiBar, CiBarChart, Theme};
use runlens_core::bundle::Bundle;
use runlens_core::metrics::report_board::{LeaderboardEntry, board_section};

use crate::components::{AnyChart, ChartCanvas, MetricValue};
use crate::pages::ranking::prefers_dark;

/// Okabe-Ito blue: the bars.
const BAR: RGBColor = RGBColor(0x00, 0x72, 0xb2);

/// A sortable column of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SortKey {
    Pass,
    Name,
    Turns,
    TurnLimited,
}

fn sorted(rows: &[LeaderboardEntry], key: SortKey) -> Vec<LeaderboardEntry> {
    let mut rows = rows.to_vec();
    let num = |v: Option<f64>| v.unwrap_or(f64::NEG_INFINITY);
    match key {
        // Stored order is pass descending (ties as the core sorts them).
        SortKey::Pass => {}
        SortKey::Name => rows.sort_by(|a, b| a.name.cmp(&b.name)),
        SortKey::Turns => rows.sort_by(|a, b| num(a.row.turns).total_cmp(&num(b.row.turns))),
        SortKey::TurnLimited => rows.sort_by_key(|e| std::cmp::Reverse(e.row.tl)),
    }
    rows
}

/// The bar chart of pass rates with 95% intervals, in table order.
pub fn pass_chart(title: String, rows: &[LeaderboardEntry], theme: Theme) -> CiBarChart {
    CiBarChart {
        title,
        x_desc: "pass rate (pass 1, tie 0.5, fail 0; 95% CI)".into(),
        x_range: (0.0, 1.0),
        bars: rows
            .iter()
            .filter_map(|e| {
                Some(CiBar {
                    label: e.name.clone(),
                    value: e.row.pass?,
                    ci: e.row.ci95.map(|[lo, hi]| (lo, hi)),
                    color: BAR,
                })
            })
            .collect(),
        theme,
        label_width: 170,
    }
}

/// The leaderboard of every corpus that has results.
#[component]
pub fn LeaderboardView(bundle: Arc<Bundle>) -> impl IntoView {
    let sections: Vec<_> = bundle
        .body
        .corpora
        .iter()
        .filter(|c| !c.results.is_empty())
        .map(|c| {
            let (rows, board) = board_section(&bundle.body, c);
            view! { <CorpusBoard corpus=c.name.clone() n_questions=board.n_questions rows=rows /> }
        })
        .collect();
    view! {
        <section class="leaderboard" data-testid="leaderboard-view">
            <h2>"Leaderboard"</h2>
            {sections}
        </section>
    }
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{:.1}", 100.0 * x))
}

fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "–".into(), |x| format!("{x:.digits$}"))
}

#[component]
fn CorpusBoard(corpus: String, n_questions: usize, rows: Vec<LeaderboardEntry>) -> impl IntoView {
    let theme = if prefers_dark() {
        Theme::DARK
    } else {
        Theme::LIGHT
    };
    let (sort, set_sort) = signal(SortKey::Pass);
    let rows = StoredValue::new(rows);
    let view_rows = Memo::new(move |_| rows.with_value(|r| sorted(r, sort.get())));
    let title = format!("Pass rate on {corpus} ({n_questions} questions)");
    let chart = Signal::derive(move || {
        AnyChart::CiBars(pass_chart(title.clone(), &view_rows.get(), theme))
    });
    let height = 60 + 26 * rows.with_value(Vec::len) as u32;
    let header = move |label: &'static str, key: SortKey| {
        view! {
            <th>
                <button class="sort" aria-pressed=move || (sort.get() == key).to_string() on:click=move |_| set_sort.set(key)>
                    {label}
                </button>
            </th>
        }
    };
    view! {
        <article class="corpus-board" data-corpus=corpus.clone()>
            <h3>{corpus.clone()}</h3>
            <table class="board">
                <thead>
                    <tr>
                        {header("model", SortKey::Name)}
                        {header("pass %", SortKey::Pass)}
                        <th>"95% CI"</th><th>"SE"</th><th>"n"</th><th>"answered %"</th>
                        {header("turn-limited", SortKey::TurnLimited)}
                        {header("turns", SortKey::Turns)}
                        <th>"queries"</th><th>"q/turn"</th><th>"output tokens (median)"</th>
                        <th>"z vs top"</th><th>"p"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || view_rows.get() key=|e| e.row.model.clone() let(e)>
                        <tr data-model=e.row.model.clone()>
                            <td title=e.row.model.clone()>{e.name.clone()}</td>
                            <td class="num">
                                {match e.row.pass {
                                    Some(p) => view! { <MetricValue name=format!("pass:{}", e.row.model) value=p digits=1 percent=true /> }.into_any(),
                                    None => "–".into_any(),
                                }}
                            </td>
                            <td class="num">{e.row.ci95.map_or_else(|| "–".into(), |[lo, hi]| format!("[{:.1}, {:.1}]", 100.0 * lo, 100.0 * hi))}</td>
                            <td class="num">{pct(e.row.se)}</td>
                            <td class="num">{e.row.n}</td>
                            <td class="num">{pct(e.row.answered)}</td>
                            <td class="num">{e.row.tl}</td>
                            <td class="num">{num(e.row.turns, 1)}</td>
                            <td class="num">{num(e.row.queries, 1)}</td>
                            <td class="num">{num(e.row.queries_per_turn, 2)}</td>
                            <td class="num">{num(e.row.tokens.median_output_tokens, 0)}</td>
                            <td class="num">{num(e.row.vs_top.z, 2)}</td>
                            <td class="num">{num(e.row.vs_top.p, 3)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
            <ChartCanvas id=format!("board-{corpus}") chart=chart height=height />
        </article>
    }
}
