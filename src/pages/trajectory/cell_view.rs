//! One open cell, told as a story (#17, Inspect's sample view): the question, then each query
//! the model ran with the result it saw, what it spent, its final answer and the judges'
//! votes, with the gold SQL and its results beside; then rule checks, labels and gate
//! details. From the worker's answer ([`OpenedCell`]: the cell in full with its question,
//! ranking, labels and gate row).

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, RankingRow};
use runlens_core::metrics::gold_tables::TableMatcher;
use runlens_core::trajectory::{
    OpenedCell, Step, gold_set, result_table, run_steps, sql_diff_statements, sql_highlight,
    sql_pretty,
};

use super::gate::GateDetails;
use super::header::Header;
use super::label::{FmLabelView, JevLabel, OpenCell, RuleChecks, relabel_slot};
use super::results::RunColumn;
use super::sql::DiffView;
use super::usage::{FinalAnswer, UsageSection};
use super::verdict::Verdict;
use crate::components::{NavItem, PageNav};
use crate::derived::bundle_matcher::bundle_matcher;
use crate::pages::relabel::RelabelPanel;
use crate::state::UrlState;
use crate::yield_now::yield_now;

/// Steps of one run; without a table matcher (invalid namespaces) the tables are left out.
pub(crate) fn steps(
    matcher: Option<&TableMatcher>,
    sqls: &[String],
    results: &[String],
    gold: &BTreeSet<String>,
    ranking: Option<&RankingRow>,
) -> Vec<Step> {
    match matcher {
        Some(m) => run_steps(sqls, results, m, gold, ranking),
        None => (0..sqls.len().max(results.len()))
            .map(|i| Step {
                index: i,
                sql: sqls
                    .get(i)
                    .map(|s| sql_pretty(sql_highlight(s)))
                    .unwrap_or_default(),
                tables: Vec::new(),
                result: results.get(i).map(|r| result_table(r)),
            })
            .collect(),
    }
}

/// The story's heading: whose run, how many queries in how many turns (a turn is one model
/// call, which may run several queries).
pub fn run_title(display: &str, queries: usize, turns: Option<u32>) -> String {
    let q = match queries {
        1 => "1 query".to_owned(),
        n => format!("{n} queries"),
    };
    match turns {
        Some(1) => format!("{display}'s run: {q} in 1 turn"),
        Some(t) => format!("{display}'s run: {q} in {t} turns"),
        None => format!("{display}'s run: {q}"),
    }
}

/// The trajectory's sections, in the order shown (the gate's when the cell has a gate row).
fn sections(gate: bool) -> Vec<NavItem> {
    let item = |label, target| NavItem { label, target };
    let mut out = vec![
        item("The run", "traj-runs"),
        item("What it spent", "traj-spent"),
        item("Answer and verdict", "traj-answer"),
        item("Rule checks", "traj-checks"),
        item("Jev label", "traj-label"),
        item("Re-label", "traj-relabel"),
        item("FM label", "traj-fm"),
    ];
    if gate {
        out.push(item("Gate", "traj-gate"));
    }
    out
}

/// The open cell.
#[component]
pub fn CellView(
    /// The bundle shown (its universe, rules and model names).
    bundle: Arc<Bundle>,
    corpus: String,
    model: String,
    trace: String,
    /// The cell and what is beside it.
    opened: OpenedCell,
    /// Build everything in this task (the cell shown again with other labels), not the
    /// runs and the re-label panel in the tasks after the header (a cell opened).
    #[prop(optional)]
    at_once: bool,
) -> impl IntoView {
    let state = UrlState::use_context();
    provide_context(OpenCell {
        corpus: corpus.clone(),
        model: model.clone(),
        trace: trace.clone(),
    });
    let body = &bundle.body;
    let for_panel = opened.clone();
    let OpenedCell {
        cell,
        question,
        question_text,
        ranking,
        label,
        fm,
        gate,
        ..
    } = opened;
    let matcher = bundle_matcher(&bundle);
    let gold = matcher
        .as_ref()
        .map(|m| gold_set(m, question.as_ref(), ranking.as_ref()))
        .unwrap_or_default();
    let (gold_sql, gold_results) = question
        .as_ref()
        .map(|q| (q.gt_sql.clone(), q.gt_results.clone()))
        .unwrap_or_default();
    let gold_title = match question.as_ref().and_then(|q| q.gt_from.clone()) {
        Some(a) => format!("Gold ({a})"),
        None => "Gold".to_owned(),
    };
    let display = body.display_name(&model).to_owned();
    let runner = display.clone();
    let rules = body.rules.clone();
    let key = format!("{model}/{trace}");
    // The re-label panel (its editable request is the heaviest part of the viewer) mounts in
    // the task after the viewer, so opening a trajectory is not one long task.
    let panel_due = RwSignal::new(at_once);
    if !at_once {
        leptos::task::spawn_local(async move {
            yield_now().await;
            panel_due.try_set(true);
        });
    }
    let relabel = {
        let (b, c, m, t) = (bundle.clone(), corpus.clone(), model.clone(), trace.clone());
        move || {
            panel_due.get().then(|| {
                view! { <RelabelPanel bundle=b.clone() corpus=c.clone() model=m.clone() trace_id=t.clone() opened=for_panel.clone() /> }
            })
        }
    };
    // The runs, usage, checks and labels mount in the task after the header, so opening a
    // trajectory is two shorter tasks.
    let rest_due = RwSignal::new(at_once);
    if !at_once {
        leptos::task::spawn_local(async move {
            yield_now().await;
            rest_due.try_set(true);
        });
    }
    let gold_sql = StoredValue::new(gold_sql);
    let cell = StoredValue::new(cell);
    let header = move || {
        let cell = cell.get_value();
        view! {
            <Header question=question_text.clone() corpus=corpus.clone() model=model.clone()
                display=display.clone() trace=trace.clone() cell=cell />
        }
    };
    let diff = move || {
        state.with(|s| s.trajectory.diff).then(|| {
            let lines =
                cell.with_value(|c| gold_sql.with_value(|g| sql_diff_statements(g, &c.sqls)));
            view! { <DiffView lines=lines /> }
        })
    };
    let rest = move || {
        if !rest_due.get() {
            return None;
        }
        let cell = cell.get_value();
        let gold_steps = gold_sql.with_value(|sql| {
            steps(
                matcher.as_ref(),
                sql,
                &gold_results,
                &gold,
                ranking.as_ref(),
            )
        });
        let cand_steps = steps(
            matcher.as_ref(),
            &cell.sqls,
            &cell.sql_results,
            &gold,
            ranking.as_ref(),
        );
        let run_title = run_title(&runner, cell.sqls.len(), cell.turns);
        Some(view! {
            <PageNav items=sections(gate.is_some()) label="Sections of this trajectory" />
            <div class="runs story-layout" id="traj-runs">
                <div class="story">
                    <RunColumn title=run_title run="candidate" steps=cand_steps />
                    <div id="traj-spent"><UsageSection cell=cell.clone() key=key.clone() /></div>
                    <div id="traj-answer">
                        <FinalAnswer cell=cell.clone() />
                        <Verdict cell=cell.clone() />
                    </div>
                </div>
                <aside class="gold-beside" aria-label="The gold SQL and its results">
                    <RunColumn title=gold_title.clone() run="gold" steps=gold_steps />
                </aside>
            </div>
            <div id="traj-checks">
                <RuleChecks rules=rules.clone() sqls=cell.sqls.clone() label=label.clone() />
            </div>
            <div id="traj-label"><JevLabel label=label.clone() /></div>
            <div id="traj-relabel">{relabel_slot(relabel.clone())}</div>
            <div id="traj-fm"><FmLabelView label=fm.clone() /></div>
            <div id="traj-gate"><GateDetails row=gate.clone() /></div>
        })
    };
    view! {
        <article class="trajectory-cell">
            {header}
            {diff}
            {rest}
        </article>
    }
}
