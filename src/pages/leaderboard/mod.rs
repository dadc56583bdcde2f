//! Leaderboard per corpus, recomputed from the cells (08_results_stats): pass rate with its
//! 95% interval, SE, n, answered, turn-limited, effort medians, tokens, and the paired test
//! against the top model; a table sortable on every column (sort in the URL, `lbsort=`) and a
//! bar chart with interval whiskers.

pub mod url;

use std::cmp::Ordering;
use std::sync::Arc;

use leptos::prelude::*;
use plotters::style::RGBColor;
use runlens_charts::{CiBar, CiBarChart, Theme};
use runlens_core::bundle::{Bundle, LossRule};
use runlens_core::metrics::board_run::{CorpusBoard as Board, headline};
use runlens_core::metrics::report_board::{LeaderboardEntry, top_model};
pub use runlens_core::metrics::report_board::{Standing, TIED_P, standing};

use crate::components::{AnyChart, ChartCanvas, ExportButtons, MetricValue, caption};
use crate::derived::board_cache;
use crate::loader::summary::Summary;
use crate::pages::board_columns::{COLUMNS, Column, Value};
use crate::state::{Sort, UrlState};
use crate::theme::chart_theme;
use crate::yield_now::ready_after_tasks;
use leptos::task::spawn_local;

/// The rows of one corpus, by pass descending.
type Rows = Arc<Vec<LeaderboardEntry>>;

/// Okabe-Ito blue: the bars of the top model and of models statistically tied with it.
const BAR: RGBColor = RGBColor(0x00, 0x72, 0xb2);
/// The same blue, light: the bars of models the paired test separates from the top.
const BAR_BELOW: RGBColor = RGBColor(0x8f, 0xbf, 0xdf);

/// Rows in the order of `sort` (`None`: pass descending, as the core ranks them). Missing
/// values sort last in both directions; ties keep the core's order.
pub fn sorted(rows: &[LeaderboardEntry], sort: Option<&Sort>) -> Vec<LeaderboardEntry> {
    let mut rows = rows.to_vec();
    let Some(sort) = sort else { return rows };
    let Some(col) = COLUMNS.iter().find(|c| c.key == sort.column) else {
        return rows;
    };
    rows.sort_by(|a, b| {
        let (va, vb) = ((col.value)(a), (col.value)(b));
        match (va.is_missing(), vb.is_missing()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => {
                let o = va.order(&vb);
                if sort.descending { o.reverse() } else { o }
            }
        }
    });
    rows
}

/// The bar chart of pass rates with 95% intervals, in table order.
/// In percent, as the table; the top model and those tied with it (see [`standing`]) dark,
/// marked in their labels ("top", "≈ top"), the rest light.
pub fn pass_chart(title: String, rows: &[LeaderboardEntry], theme: Theme) -> CiBarChart {
    let top = top_model(rows);
    CiBarChart {
        title,
        x_desc: "pass rate, % (95% CI); dark: the top model and those tied with it (p ≥ 0.05)"
            .into(),
        x_range: (0.0, 100.0),
        bars: rows
            .iter()
            .filter_map(|e| {
                let (label, color) = match standing(e, top) {
                    Standing::Top => (format!("{} (top)", e.name), BAR),
                    Standing::Tied => (format!("{} ≈ top", e.name), BAR),
                    Standing::Below => (e.name.clone(), BAR_BELOW),
                };
                Some(CiBar {
                    label,
                    value: 100.0 * e.row.pass?,
                    ci: e.row.ci95.map(|[lo, hi]| (100.0 * lo, 100.0 * hi)),
                    color,
                })
            })
            .collect(),
        theme,
        label_width: 220,
    }
}

/// The table as CSV, unrounded values, in the shown order (the CI column is split into
/// its two bounds).
pub fn board_csv(rows: &[LeaderboardEntry]) -> String {
    let mut header: Vec<&str> = COLUMNS.iter().map(|c| c.key).collect();
    header.push("ci95_high");
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|e| {
            let mut r: Vec<String> = COLUMNS.iter().map(|c| (c.value)(e).raw()).collect();
            r.push(e.row.ci95.map_or_else(String::new, |c| c[1].to_string()));
            r
        })
        .collect();
    let header: Vec<&str> = header
        .into_iter()
        .map(|h| if h == "ci95" { "ci95_low" } else { h })
        .collect();
    runlens_core::csv::to_csv(&header, &body)
}

/// `known`, else what `ask` answers (set when it comes) or the error it gives: the value and
/// the error as signals.
fn known_or_asked<T, F>(
    known: Option<T>,
    ask: impl FnOnce() -> F,
) -> (RwSignal<Option<T>>, RwSignal<Option<String>>)
where
    T: Clone + Send + Sync + 'static,
    F: std::future::Future<Output = Result<T, String>> + 'static,
{
    let asking = known.is_none();
    let value = RwSignal::new(known);
    let error = RwSignal::new(None::<String>);
    if asking {
        let answer = ask();
        spawn_local(async move {
            match answer.await {
                Ok(answered) => {
                    value.try_set(Some(answered));
                }
                Err(e) => {
                    error.try_set(Some(e));
                }
            }
        });
    }
    (value, error)
}

/// The leaderboard of every corpus that has results (or the one chosen by `corpus=`),
/// restricted to the models chosen by `models=`, legacy `loss` cells scored as `loss=` says.
/// Rows are kept per bundle and rule across mounts (crate::derived::board_cache); the data's
/// owner computes them.
#[component]
pub fn LeaderboardView(bundle: Arc<Bundle>) -> impl IntoView {
    let state = UrlState::use_context();
    let loss = Memo::new(move |_| state.with(|s| s.leaderboard.loss));
    view! {
        <section class="leaderboard" data-testid="leaderboard-view">
            <h2>"Leaderboard"</h2>
            {move || view! { <Boards bundle=bundle.clone() loss=loss.get() /> }}
        </section>
    }
}

/// Every shown corpus's board under one `loss` rule: from a v2 summary while only it is in,
/// else the boards kept for the bundle (sent by the worker after the load, or answered
/// before), else the data owner's answer to the leaderboard's question (a notice meanwhile).
#[component]
fn Boards(bundle: Arc<Bundle>, loss: LossRule) -> impl IntoView {
    let known = match use_context::<Summary>() {
        Some(summary) => Some(Arc::new(summary.boards(loss))),
        None => board_cache::cached(&bundle, loss),
    };
    let asked = bundle.clone();
    let (boards, error) = known_or_asked(known, || async move {
        board_cache::ask_boards(&asked, loss).await
    });
    let asking = move || boards.with(Option::is_none) && error.with(Option::is_none);
    let state = UrlState::use_context();
    let bundle2 = bundle.clone();
    view! {
        {move || asking().then(|| view! {
            <p class="notice" role="status" data-testid="leaderboard-progress">"Computing the leaderboard…"</p>
        })}
        {move || error.get().map(|e| view! {
            <p class="error" role="alert">{format!("The leaderboard could not be computed: {e}")}</p>
        })}
        {move || boards.get().map(|boards| {
            let shown: Vec<&Board> = boards.iter().filter(|c| c.questions > 0).collect();
            let headline = headline(&shown).map(str::to_owned);
            let pool = (shown.len() > 1).then(|| PoolChoice {
                corpora: shown.len(),
                questions: shown.iter().map(|c| c.questions).sum(),
            });
            let bundle = bundle2.clone();
            let mut ordered = shown.clone();
            ordered.sort_by_key(|c| Some(&c.corpus) != headline.as_ref());
            // The headline board first; the others one task later, so the first render of
            // the view (often the first thing a reader sees) is one board's work.
            let rest_ready = ready_after_tasks(1);
            let sections = ordered
                .into_iter()
                .map(|c| {
                    let is_headline = Some(&c.corpus) == headline.as_ref();
                    let (corpus, questions, rows) = (c.corpus.clone(), c.questions, Arc::new(c.rows.clone()));
                    if is_headline {
                        corpus_section(corpus, questions, rows, loss, true).into_any()
                    } else {
                        view! {
                            <Show when=move || rest_ready.get()>
                                {corpus_section(corpus.clone(), questions, rows.clone(), loss, false)}
                            </Show>
                        }
                        .into_any()
                    }
                })
                .collect_view();
            view! {
                {pool.map(|p| view! { <PoolSwitch choice=p /> })}
                <Show when=move || state.with(|s| s.leaderboard.pooled) && pool.is_some()>
                    <Pooled bundle=bundle.clone() loss=loss />
                </Show>
                <div class="corpus-boards"
                    style:display=move || if state.with(|s| s.leaderboard.pooled) && pool.is_some() { "none" } else { "" }>
                    {sections}
                </div>
            }
        })}
    }
}

/// How many corpora and questions pooling would join.
#[derive(Debug, Clone, Copy)]
struct PoolChoice {
    corpora: usize,
    questions: usize,
}

/// The switch between one board per corpus and every corpus pooled (`pool=1`).
#[component]
fn PoolSwitch(choice: PoolChoice) -> impl IntoView {
    let state = UrlState::use_context();
    let toggle = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        state.push(|s| s.leaderboard.pooled = on);
    };
    view! {
        <p class="pool-switch">
            <label>
                <input type="checkbox" data-testid="pool-corpora"
                    prop:checked=move || state.with(|s| s.leaderboard.pooled) on:change=toggle />
                {format!(" Pool the {} corpora into one board ({} questions)", choice.corpora, choice.questions)}
            </label>
            <span class="hint">" every question of every corpus as one matrix; a model not run on a corpus has no cells there"</span>
        </p>
    }
}

/// The pooled board, asked of the data's owner once per rule.
#[component]
fn Pooled(bundle: Arc<Bundle>, loss: LossRule) -> impl IntoView {
    let known = board_cache::cached_pooled(&bundle, loss);
    let (pooled, error) = known_or_asked(known, || async move {
        board_cache::ask_pooled(&bundle, loss).await
    });
    let asking = move || pooled.with(Option::is_none) && error.with(Option::is_none);
    view! {
        {move || asking().then(|| view! {
            <p class="notice" role="status" data-testid="pooled-progress">"Pooling the corpora…"</p>
        })}
        {move || error.get().map(|e| view! {
            <p class="error" role="alert">{format!("The pooled board could not be computed: {e}")}</p>
        })}
        {move || pooled.get().and_then(|p| (*p).clone()).map(|p| {
            let heading = format!("All corpora pooled: {}", p.corpora.join(" + "));
            view! {
                <CorpusBoard corpus=p.corpora.join(" + ") heading=heading slug="pooled".to_owned()
                    n_questions=p.questions rows=Arc::new(p.rows) loss=loss headline=false />
            }
        })}
    }
}

/// One corpus's board, shown when `corpus=` allows it.
fn corpus_section(
    corpus: String,
    n_questions: usize,
    rows: Rows,
    loss: LossRule,
    headline: bool,
) -> impl IntoView {
    let state = UrlState::use_context();
    let name = corpus.clone();
    let shown = move || state.with(|s| s.shows_corpus(&name));
    view! {
        <Show when=shown>
            <CorpusBoard corpus=corpus.clone() heading=corpus.clone() slug=corpus.clone()
                n_questions=n_questions rows=rows.clone() loss=loss headline=headline />
        </Show>
    }
}

/// The line beside a board whose corpus has legacy `loss` cells: what the board did with
/// them, and the switch to the other reading (`loss=fail` in the URL).
#[component]
fn LossNotice(cells: usize, loss: LossRule) -> impl IntoView {
    let state = UrlState::use_context();
    let plural = if cells == 1 { "" } else { "s" };
    let text = match loss {
        LossRule::Excluded => format!(
            "{cells} legacy loss cell{plural} excluded, as the harness's board does \
             (08_results_stats scores only pass, tie and fail)."
        ),
        LossRule::AsFail => format!(
            "{cells} legacy loss cell{plural} scored as fail (06_eval's tally); \
             the harness's board excludes them."
        ),
    };
    let toggle = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        state.push(|s| {
            s.leaderboard.loss = if on {
                LossRule::AsFail
            } else {
                LossRule::Excluded
            };
        });
    };
    view! {
        <p class="notice loss-notice" role="note" data-testid="loss-notice">
            <span>{text}</span>
            " "
            <label>
                <input type="checkbox" data-testid="loss-as-fail"
                    prop:checked=loss == LossRule::AsFail on:change=toggle />
                " score loss as fail"
            </label>
        </p>
    }
}

/// One board: `corpus` names what it covers (a corpus, or the pooled ones joined by " + "),
/// `slug` is its `data-corpus` and file names (`pooled` for the pooled board).
#[component]
fn CorpusBoard(
    corpus: String,
    heading: String,
    slug: String,
    n_questions: usize,
    rows: Rows,
    loss: LossRule,
    headline: bool,
) -> impl IntoView {
    let state = UrlState::use_context();
    let loss_cells: usize = rows.iter().map(|e| e.row.loss_cells).sum();
    let top = top_model(&rows).map(str::to_owned);
    let rows = StoredValue::new(rows);
    let view_rows = Memo::new(move |_| {
        let (sort, models) = state.with(|s| (s.leaderboard.sort.clone(), s.models.clone()));
        let shown: Vec<LeaderboardEntry> = rows.with_value(|r| {
            r.iter()
                .filter(|e| models.is_empty() || models.contains(&e.row.model))
                .cloned()
                .collect()
        });
        sorted(&shown, sort.as_ref())
    });
    let title = format!("Pass rate on {corpus} ({n_questions} questions)");
    let chart = Signal::derive(move || {
        AnyChart::CiBars(pass_chart(title.clone(), &view_rows.get(), chart_theme()))
    });
    let height = Signal::derive(move || 60 + 26 * view_rows.with(Vec::len).max(1) as u32);
    let caption_text = caption(&format!("{corpus} · leaderboard"));
    let canvas_id = format!("board-{slug}");
    let csv = Callback::new(move |()| view_rows.with_untracked(|r| board_csv(r)));
    // The chart mounts one task after the table (together they were the longest task of the
    // sample's load: docs/performance.md).
    let chart_ready = ready_after_tasks(1);
    let (chart_id, chart_caption) = (canvas_id.clone(), caption_text.clone());
    view! {
        <article class="corpus-board" data-corpus=slug.clone()>
            <h3>
                {heading}
                {headline.then(|| view! { " " <span class="badge headline-corpus"
                    title="the headline corpus: the one with the most questions">"headline"</span> })}
            </h3>
            {(loss_cells > 0).then(|| view! { <LossNotice cells=loss_cells loss=loss /> })}
            <div class="table-scroll">
            <table class="board">
                <thead>
                    <tr>{COLUMNS.iter().map(|c| view! { <SortHeader column=c /> }).collect_view()}</tr>
                </thead>
                <tbody>
                    <For each=move || view_rows.get() key=|e| e.row.model.clone() let(e)>
                        <BoardRow standing=standing(&e, top.as_deref()) entry=e />
                    </For>
                </tbody>
            </table>
            </div>
            <Show when=move || chart_ready.get()>
                <ChartCanvas id=chart_id.clone() chart=chart height=height caption=chart_caption.clone() />
            </Show>
            <ExportButtons base_name=format!("leaderboard-{slug}") canvas_id=canvas_id
                chart=chart caption=caption_text svg_size=(720, height.get_untracked()) csv=csv />
        </article>
    }
}

/// A header cell; clicking sorts by the column (descending first for numbers), clicking again
/// reverses.
#[component]
fn SortHeader(column: &'static Column) -> impl IntoView {
    let state = UrlState::use_context();
    let current = move || state.with(|s| s.leaderboard.sort.clone());
    let aria = move || match current() {
        Some(s) if s.column == column.key && s.descending => "descending",
        Some(s) if s.column == column.key => "ascending",
        None if column.key == "pass" => "descending",
        _ => "none",
    };
    let click = move |_| {
        state.push(|s| {
            let descending = match &s.leaderboard.sort {
                Some(cur) if cur.column == column.key => !cur.descending,
                None if column.key == "pass" => false,
                _ => column.numeric,
            };
            s.leaderboard.sort = Some(Sort {
                column: column.key.to_owned(),
                descending,
            });
        });
    };
    view! {
        <th aria-sort=aria title=column.help>
            <button class="sort" data-column=column.key on:click=click>{column.label}</button>
        </th>
    }
}

/// One model's row; the top model's own test against itself shows "–" (#17 bug 10: it read
/// "1.000"); the top model and those statistically tied with it are marked beside the name.
#[component]
fn BoardRow(entry: LeaderboardEntry, standing: Standing) -> impl IntoView {
    let is_top = standing == Standing::Top;
    let cells = COLUMNS
        .iter()
        .map(|c| {
            let class = if c.numeric { "num" } else { "" };
            let value = (c.value)(&entry);
            let shown = match (c.key, &value) {
                ("pass", Value::Num(Some(p))) => view! {
                    <MetricValue name=format!("pass:{}", entry.row.model) value=*p digits=1 percent=true />
                }
                .into_any(),
                ("p" | "z", _) if is_top => view! {
                    <span title="the top model: every other row is tested against it">"–"</span>
                }
                .into_any(),
                ("model", _) => {
                    let mark = match standing {
                        Standing::Top => Some(("top", "the highest pass rate")),
                        Standing::Tied => Some((
                            "≈ top",
                            "not separated from the top model by the paired test (p ≥ 0.05)",
                        )),
                        Standing::Below => None,
                    };
                    view! {
                        {(c.display)(&entry)}
                        {mark.map(|(text, help)| view! { " " <span class="badge standing" title=help>{text}</span> })}
                    }
                    .into_any()
                }
                _ => (c.display)(&entry).into_any(),
            };
            view! { <td class=class>{shown}</td> }
        })
        .collect_view();
    let standing = match standing {
        Standing::Top => "top",
        Standing::Tied => "tied",
        Standing::Below => "below",
    };
    view! { <tr data-model=entry.row.model.clone() data-standing=standing title=entry.row.model.clone()>{cells}</tr> }
}

/// This view in the registry (`pages::registry`): in the first download, as the landing view.
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Leaderboard,
    label: "Leaderboard",
    needs: crate::pages::views::Needs::Summary,
    code: crate::pages::views::Code::First(|bundle| {
        view! { <LeaderboardView bundle=bundle /> }.into_any()
    }),
};
