//! One open cell: header, SQL diff, gold and candidate runs side by side, answer and usage,
//! rule checks, labels and gate details. The full cell (large bundles travel without long
//! text) is fetched with [`crate::data::cell_detail`]; the page's copy shows meanwhile.

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, Cell, RankingRow};
use runlens_core::metrics::gold_tables::TableMatcher;
use runlens_core::trajectory::{
    Step, gold_set, result_table, run_steps, sql_diff_statements, sql_highlight,
};

use super::gate::GateDetails;
use super::header::Header;
use super::label::{FmLabelView, JevLabel, OpenCell, RuleChecks, relabel_slot};
use super::results::RunColumn;
use super::sql::DiffView;
use super::usage::UsageSection;
use crate::data;
use crate::derived::bundle_matcher::bundle_matcher;
use crate::pages::relabel::RelabelPanel;
use crate::state::UrlState;
use crate::yield_now::yield_now;

/// Steps of one run; without a table matcher (invalid namespaces) the tables are left out.
fn steps(
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
                sql: sqls.get(i).map(|s| sql_highlight(s)).unwrap_or_default(),
                tables: Vec::new(),
                result: results.get(i).map(|r| result_table(r)),
            })
            .collect(),
    }
}

/// True when the page's copy looks stripped of long text (see `crate::loader::split`).
fn looks_stripped(cell: &Cell) -> bool {
    cell.sql_results.iter().any(String::is_empty) || cell.final_answer.as_deref() == Some("")
}

/// The open cell.
#[component]
pub fn CellView(
    bundle: Arc<Bundle>,
    corpus: String,
    model: String,
    trace: String,
) -> impl IntoView {
    let state = UrlState::use_context();
    provide_context(OpenCell {
        corpus: corpus.clone(),
        model: model.clone(),
        trace: trace.clone(),
    });
    let body = &bundle.body;
    let c = body.corpus(&corpus);
    let page_cell = c
        .and_then(|c| c.cell(&trace, &model))
        .cloned()
        .unwrap_or_default();
    let question = c.and_then(|c| c.question(&trace)).cloned();
    let question_text = question
        .as_ref()
        .map(|q| q.nl_question.clone())
        .filter(|t| !t.is_empty())
        .or_else(|| {
            c.and_then(|c| c.results.iter().find(|r| r.trace_id == trace))
                .and_then(|r| r.nl_question.clone())
        })
        .unwrap_or_default();
    let ranking = c
        .and_then(|c| c.rankings.iter().find(|r| r.trace_id == trace))
        .cloned();
    let label = c.and_then(|c| {
        c.failure_labels
            .iter()
            .find(|l| l.trace_id == trace && l.model == model)
            .cloned()
    });
    let fm = c.and_then(|c| {
        c.fm_labels
            .iter()
            .find(|l| l.trace_id == trace && l.model == model)
            .cloned()
    });
    let gate = c.and_then(|c| {
        c.gate_rows
            .iter()
            .find(|g| g.trace_id == trace && g.model == model)
            .cloned()
    });
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
    let rules = body.rules.clone();
    let stripped = looks_stripped(&page_cell);
    let detail = {
        let (c, m, t) = (corpus.clone(), model.clone(), trace.clone());
        LocalResource::new(move || {
            let (c, m, t) = (c.clone(), m.clone(), t.clone());
            async move { data::full_detail(&c, &m, &t).await }
        })
    };
    let cell = Memo::new(move |_| match detail.get() {
        Some(Ok(data::CellDetail {
            cell: Some(full), ..
        })) => full,
        _ => page_cell.clone(),
    });
    // A stripped bundle has empty FM reasons: the detail brings the real one.
    let fm = Memo::new(move |_| {
        let mut fm = fm.clone();
        if let (Some(f), Some(Ok(d))) = (fm.as_mut(), detail.get())
            && d.fm_reason.is_some()
        {
            f.reason = d.fm_reason;
        }
        fm
    });
    let status = move || match detail.get() {
        None => Some("Loading the full trajectory…".to_owned()),
        Some(Err(e)) if stripped => Some(format!(
            "The full trajectory could not be loaded ({e}); long text is missing."
        )),
        _ => None,
    };
    let key = format!("{model}/{trace}");
    // The re-label panel (its editable request is the heaviest part of the viewer) mounts in
    // the task after the viewer, so opening a trajectory is not one long task.
    let panel_due = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        yield_now().await;
        panel_due.try_set(true);
    });
    let relabel = {
        let (b, c, m, t) = (bundle.clone(), corpus.clone(), model.clone(), trace.clone());
        move || {
            panel_due.get().then(|| {
                view! { <RelabelPanel bundle=b.clone() corpus=c.clone() model=m.clone() trace_id=t.clone() /> }
            })
        }
    };
    // The runs, usage, checks and labels mount in the task after the header, so opening a
    // trajectory is two shorter tasks; from a stripped bundle they wait for the full cell
    // (built once, not once with the page's copy and again with the detail).
    let rest_due = RwSignal::new(false);
    leptos::task::spawn_local(async move {
        yield_now().await;
        rest_due.try_set(true);
    });
    let rest_ready = move || rest_due.get() && !(stripped && detail.with(Option::is_none));
    let gold_steps = StoredValue::new(None::<Vec<Step>>);
    let gold_sql = StoredValue::new(gold_sql);
    let header = move || {
        let cell = cell.get();
        view! {
            <Header question=question_text.clone() corpus=corpus.clone() model=model.clone()
                display=display.clone() trace=trace.clone() cell=cell />
        }
    };
    let diff = move || {
        state.with(|s| s.diff).then(|| {
            let lines = cell.with(|c| gold_sql.with_value(|g| sql_diff_statements(g, &c.sqls)));
            view! { <DiffView lines=lines /> }
        })
    };
    let rest = move || {
        if !rest_ready() {
            return None;
        }
        let cell = cell.get();
        if gold_steps.with_value(Option::is_none) {
            let built = gold_sql.with_value(|sql| {
                steps(
                    matcher.as_ref(),
                    sql,
                    &gold_results,
                    &gold,
                    ranking.as_ref(),
                )
            });
            gold_steps.set_value(Some(built));
        }
        let cand_steps = steps(
            matcher.as_ref(),
            &cell.sqls,
            &cell.sql_results,
            &gold,
            ranking.as_ref(),
        );
        Some(view! {
            <div class="runs">
                <RunColumn title=gold_title.clone() run="gold" steps=gold_steps.get_value().unwrap_or_default() />
                <RunColumn title="Candidate".to_owned() run="candidate" steps=cand_steps />
            </div>
            <UsageSection cell=cell.clone() key=key.clone() />
            <RuleChecks rules=rules.clone() sqls=cell.sqls.clone() label=label.clone() />
            <JevLabel label=label.clone() />
            {relabel_slot(relabel.clone())}
            {move || view! { <FmLabelView label=fm.get() /> }}
            <GateDetails row=gate.clone() />
        })
    };
    view! {
        <article class="trajectory-cell">
            {move || status().map(|s| view! { <p class="loading hint" data-testid="trajectory-loading">{s}</p> })}
            {header}
            {diff}
            {rest}
        </article>
    }
}
