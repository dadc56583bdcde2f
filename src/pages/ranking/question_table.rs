//! The per-question table: sortable (URL `sort=`), filterable by text (`q=`), number of gold
//! tables (`ngold=`) and "needs a table below rank 5" (`below5=`); a click opens the question.
//! Every row is reachable by scrolling; only the rows in view (plus a margin) are rendered
//! ([`ROWS`]), so a corpus of thousands of questions costs no more to show than the sample.

use std::cmp::Ordering;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::metrics::question_rows::QuestionRow;

use runlens_core::csv::to_csv;

use crate::components::{ExportButtons, RowWindow, ScrollBox};
use crate::state::{Sort, UrlState, ViewState};

/// Geometry of the virtualised rows (fixed-height rows, question text cut with an ellipsis
/// and shown whole in its tooltip).
pub const ROWS: RowWindow = RowWindow {
    row_height: 30,
    view_height: 450,
    margin: 6,
};

/// A sortable column: key (URL), header, and the sort value.
struct Col {
    key: &'static str,
    label: &'static str,
    numeric: bool,
}

const COLS: [Col; 7] = [
    Col {
        key: "trace_id",
        label: "id",
        numeric: false,
    },
    Col {
        key: "question",
        label: "question",
        numeric: false,
    },
    Col {
        key: "n_gold",
        label: "gold tables",
        numeric: true,
    },
    Col {
        key: "worst",
        label: "worst gold rank",
        numeric: true,
    },
    Col {
        key: "k_star",
        label: "k*",
        numeric: true,
    },
    Col {
        key: "ndcg10",
        label: "nDCG@10",
        numeric: true,
    },
    Col {
        key: "latency",
        label: "latency s",
        numeric: true,
    },
];

/// Orders two rows by `column`; missing numbers sort as +∞ (a question whose gold is never
/// fully ranked is "worse" than any rank).
fn compare(a: &QuestionRow, b: &QuestionRow, column: &str) -> Ordering {
    let n = |v: Option<usize>| v.map_or(f64::INFINITY, |x| x as f64);
    match column {
        "question" => a.question.cmp(&b.question),
        "n_gold" => a.n_gold.cmp(&b.n_gold),
        "worst" => n(a.worst_gold_rank).total_cmp(&n(b.worst_gold_rank)),
        "k_star" => n(a.k_star).total_cmp(&n(b.k_star)),
        "ndcg10" => a.ndcg_at_10.total_cmp(&b.ndcg_at_10),
        "latency" => a
            .latency_s
            .unwrap_or(f64::INFINITY)
            .total_cmp(&b.latency_s.unwrap_or(f64::INFINITY)),
        _ => a.trace_id.cmp(&b.trace_id),
    }
}

/// Whether `row` passes the filters of `state`.
pub fn matches(row: &QuestionRow, state: &ViewState) -> bool {
    let needle = state.ranking.search.trim().to_lowercase();
    let text_ok = needle.is_empty()
        || row.trace_id.to_lowercase().contains(&needle)
        || row.question.to_lowercase().contains(&needle)
        || row.gold.iter().any(|g| g.to_lowercase().contains(&needle));
    text_ok
        && state.ranking.n_gold.is_none_or(|n| row.n_gold == n)
        && (!state.ranking.below5 || row.needs_below_rank_5)
}

/// Indices of the filtered rows in the order of `state.sort` (stable; default =
/// ranking-file order). Indices, not copies: a row holds every ranked table's score.
pub fn visible_rows(rows: &[QuestionRow], state: &ViewState) -> Vec<usize> {
    let mut out: Vec<usize> = (0..rows.len())
        .filter(|&i| matches(&rows[i], state))
        .collect();
    if let Some(sort) = &state.ranking.sort {
        out.sort_by(|&a, &b| {
            let o = compare(&rows[a], &rows[b], &sort.column);
            if sort.descending { o.reverse() } else { o }
        });
    }
    out
}

/// The visible rows as CSV (every column, unrounded; gold tables `;`-separated).
pub fn questions_csv<'a>(rows: impl IntoIterator<Item = &'a QuestionRow>) -> String {
    let opt = |v: Option<usize>| v.map_or_else(String::new, |x| x.to_string());
    let body: Vec<Vec<String>> = rows
        .into_iter()
        .map(|r| {
            vec![
                r.trace_id.clone(),
                r.question.clone(),
                r.gold.join(";"),
                r.n_gold.to_string(),
                opt(r.worst_gold_rank),
                opt(r.k_star),
                r.ndcg_at_10.to_string(),
                r.recall_at_5.to_string(),
                r.all_required_at_5.to_string(),
                r.latency_s.map_or_else(String::new, |l| l.to_string()),
                r.high_confidence.join(";"),
                r.needs_below_rank_5.to_string(),
            ]
        })
        .collect();
    to_csv(
        &[
            "trace_id",
            "question",
            "gold",
            "n_gold",
            "worst_gold_rank",
            "k_star",
            "ndcg@10",
            "recall@5",
            "all_required@5",
            "latency_s",
            "high_confidence_set",
            "needs_below_rank_5",
        ],
        &body,
    )
}

/// The table with its filter bar.
#[component]
pub fn QuestionTable(
    /// Every question row of the current corpus under the current gold rule.
    #[prop(into)]
    rows: Signal<Arc<Vec<QuestionRow>>>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let visible = Memo::new(move |_| state.with(|s| rows.with(|r| visible_rows(r, s))));
    let gold_counts = Memo::new(move |_| {
        let mut c: Vec<usize> = rows.with(|r| r.iter().map(|q| q.n_gold).collect());
        c.sort_unstable();
        c.dedup();
        c
    });
    let total = move || rows.with(|r| r.len());
    let scroll = ScrollBox::new();
    // Other filters or another sort start at the top.
    scroll.reset_on_change(move || visible.track());
    let n = move || visible.with(Vec::len);
    let shown = move || {
        let (start, end) = ROWS.range(scroll.top(), n());
        let all = rows.get();
        visible.with(|v| {
            v.get(start..end)
                .unwrap_or_default()
                .iter()
                .map(|&i| (all.clone(), i))
                .collect::<Vec<_>>()
        })
    };
    let spacer = move |above: bool| {
        let (start, end) = ROWS.range(scroll.top(), n());
        let (a, b) = ROWS.spacers(start, end, n());
        format!("height:{}px", if above { a } else { b })
    };
    view! {
        <section class="question-table" data-testid="question-table">
            <h3>"Questions"</h3>
            <div class="controls">
                <label>
                    "search "
                    <input type="search" data-testid="question-search" placeholder="id, question or table"
                        prop:value=move || state.with(|s| s.ranking.search.clone())
                        on:input=move |ev| { let v = event_target_value(&ev); state.replace(|s| s.ranking.search = v); }
                        on:change=move |ev| { let v = event_target_value(&ev); state.push(|s| s.ranking.search = v); }
                    />
                </label>
                <label>
                    "gold tables "
                    <select data-testid="ngold-select"
                        prop:value=move || state.with(|s| s.ranking.n_gold.map(|n| n.to_string()).unwrap_or_default())
                        on:change=move |ev| { let v = event_target_value(&ev); state.push(|s| s.ranking.n_gold = v.parse().ok()); }
                    >
                        // `selected` on the options too: the select's value is set before
                        // options that arrive later exist (a fresh `ngold=` link showed "any").
                        <option value="" selected=move || state.with(|s| s.ranking.n_gold.is_none())>"any"</option>
                        {move || gold_counts.get().into_iter().map(|n| view! {
                            <option value=n.to_string() selected=move || state.with(|s| s.ranking.n_gold == Some(n))>{n}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    <input type="checkbox" data-testid="below5"
                        prop:checked=move || state.with(|s| s.ranking.below5)
                        on:change=move |ev| { let on = event_target_checked(&ev); state.push(|s| s.ranking.below5 = on); }
                    />
                    "needs a table below rank 5"
                </label>
                <span class="hint" data-testid="question-count">
                    {move || format!("{} of {} questions", visible.with(Vec::len), total())}
                </span>
                <ExportButtons base_name="questions" csv=Callback::new(move |()| rows.with_untracked(|r| visible.with_untracked(|v| questions_csv(v.iter().filter_map(|&i| r.get(i)))))) />
            </div>
            <div class="table-scroll question-scroll" node_ref=scroll.node on:scroll=scroll.on_scroll()
                data-testid="question-scroll" style=format!("max-height:{}px;overflow-y:auto;position:relative", ROWS.view_height)>
            <table class="questions virtual">
                <colgroup>
                    <col class="c-id" /><col class="c-question" /><col class="c-gold" />
                    <col class="c-num" /><col class="c-num" /><col class="c-num" /><col class="c-num" />
                </colgroup>
                <thead><tr>{COLS.iter().map(|c| view! { <Header col=c /> }).collect_view()}</tr></thead>
                <tbody>
                    <tr class="spacer" aria-hidden="true" style=move || spacer(true)></tr>
                    <For each=shown key=|(all, i)| all.get(*i).map(|r| r.trace_id.clone()) let((all, i))>
                        {all.get(i).map(|r| view! { <Row row=r /> })}
                    </For>
                    <tr class="spacer" aria-hidden="true" style=move || spacer(false)></tr>
                </tbody>
            </table>
            </div>
        </section>
    }
}

#[component]
fn Header(col: &'static Col) -> impl IntoView {
    let state = UrlState::use_context();
    let aria = move || match state.with(|s| s.ranking.sort.clone()) {
        Some(s) if s.column == col.key && s.descending => "descending",
        Some(s) if s.column == col.key => "ascending",
        _ => "none",
    };
    let click = move |_| {
        state.push(|s| {
            let descending = match &s.ranking.sort {
                Some(cur) if cur.column == col.key => !cur.descending,
                _ => {
                    col.numeric && col.key != "worst" && col.key != "k_star" && col.key != "latency"
                }
            };
            s.ranking.sort = Some(Sort {
                column: col.key.to_owned(),
                descending,
            });
        });
    };
    view! {
        <th aria-sort=aria>
            <button class="sort" data-column=col.key on:click=click>{col.label}</button>
        </th>
    }
}

#[component]
fn Row<'a>(row: &'a QuestionRow) -> impl IntoView + use<> {
    let state = UrlState::use_context();
    let id = row.trace_id.clone();
    let open = move |_| {
        let id = id.clone();
        state.push(move |s| s.ranking.question = Some(id));
    };
    let selected = {
        let id = row.trace_id.clone();
        move || state.with(|s| s.ranking.question.as_deref() == Some(id.as_str()))
    };
    let dash = |v: Option<usize>| v.map_or_else(|| "not ranked".to_owned(), |x| x.to_string());
    view! {
        <tr data-trace=row.trace_id.clone() class:selected=selected style=format!("height:{}px", ROWS.row_height)>
            <td><button class="link" on:click=open>{row.trace_id.clone()}</button></td>
            <td class="question-text" title=row.question.clone()>{row.question.clone()}</td>
            <td title=row.gold.join(", ")>{row.gold.join(", ")}</td>
            <td class="num">{dash(row.worst_gold_rank)}</td>
            <td class="num">{dash(row.k_star)}</td>
            <td class="num" data-value=row.ndcg_at_10.to_string()>{format!("{:.3}", row.ndcg_at_10)}</td>
            <td class="num">{row.latency_s.map_or_else(|| "–".to_owned(), |l| format!("{l:.2}"))}</td>
        </tr>
    }
}
