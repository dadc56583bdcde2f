//! The trajectory viewer: one model × one question (URL `corpus`, `tmodel`, `trace`), with
//! `j` / `k` walking the list named by `from`, `g` toggling the gold / candidate SQL diff and
//! `?` showing the keys.

mod audit_keys;
pub(crate) mod cell_view;
mod chooser;
mod gate;
mod header;
mod keys;
mod label;
pub mod list;
pub(crate) mod results;
pub(crate) mod sql;
pub mod url;
pub(crate) mod usage;
pub(crate) mod verdict;

use std::cell::RefCell;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;
use runlens_core::trajectory::{OpenedCell, TrajectoryAnswer, TrajectoryQuery};

use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{UrlState, relabels_in_force};
use audit_keys::AuditKeys;
use cell_view::CellView;
use chooser::Chooser;
use keys::NavBar;
pub use label::{OpenCell, RELABEL_SLOT_CLASS, relabel_slot};
use list::walk_from;

thread_local! {
    /// The last answer shown, with its bundle's content hash and its question. The view
    /// mounted again for the same bundle and cell (every view re-renders when a re-label is
    /// applied) shows it at once, so the page keeps its height and the reader their place
    /// while the new answer comes.
    static LAST: RefCell<Option<(String, TrajectoryQuery, Arc<TrajectoryAnswer>)>> =
        const { RefCell::new(None) };
}

/// The trajectory view of a loaded bundle. The open cell and its place in the list are the
/// answer of the data's owner (the loader worker, else the page) to the address's question;
/// the page holds only that answer.
#[component]
pub fn TrajectoryView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let relabels = relabels_in_force();
    let query = Memo::new(move |_| {
        let relabels = relabels.get();
        state.with(|s| TrajectoryQuery {
            corpus: s.corpus.clone(),
            model: s.trajectory.model.clone(),
            trace: s.trajectory.trace.clone(),
            walk: walk_from(s),
            relabels,
        })
    });
    let hash = bundle.content_hash.clone();
    // The last answer shown of this bundle's same cell starts the view (the whole bundle
    // replacing a v2 summary's head mounts it again); every answer that is one is kept.
    let asked = query.get_untracked();
    let seed = LAST.with_borrow(Clone::clone).filter(|(h, q, _)| {
        *h == hash && (&q.corpus, &q.model, &q.trace) == (&asked.corpus, &asked.model, &asked.trace)
    });
    let asked = NewestAnswer::<_, TrajectoryAnswer>::ask_seeded(
        bundle.clone(),
        query,
        |q| Some(ViewQuery::Trajectory(q)),
        seed.map(|(_, q, a)| (q, a)),
    );
    Effect::new(move |_| {
        if let Some((q, a)) = asked.last_answer_with_query() {
            LAST.set(Some((hash.clone(), q, a)));
        }
    });
    // The last answer stays shown beside an error, and while the next is computed.
    let answered = Memo::new(move |_| asked.last_answer_with_query());
    let error = Signal::derive(move || asked.error());
    let pending = Memo::new(move |_| asked.pending());
    let place = Signal::derive(move || {
        answered.with(|a| a.as_ref().map(|(_, a)| a.place.clone()).unwrap_or_default())
    });
    // Whether any answer (so the list's length) has come yet.
    let counted = Signal::derive(move || answered.with(Option::is_some));
    let list_name = Signal::derive(move || query.with(|q| q.walk.label()));
    // What is shown: nothing named, a named cell the corpus lacks, or the cell. Compared
    // before re-rendering, so an answer that changes nothing shown rebuilds nothing.
    let shown = Memo::new(move |_| {
        answered.with(|a| {
            let (q, a) = a.as_ref()?;
            Some(match (q.model.clone(), q.trace.clone(), a.corpus.clone()) {
                (Some(m), Some(t), Some(c)) => match &a.opened {
                    Some(o) => Shown::Cell(c, m, t, Box::new(o.clone()), a.in_audit_queue),
                    None => Shown::Missing(c, m, t),
                },
                _ => Shown::Nothing,
            })
        })
    });
    let names_cell = move || query.with(|q| q.model.is_some() && q.trace.is_some());
    let data_key = move || {
        shown.with(|s| match s {
            Some(Shown::Cell(_, m, t, _, _) | Shown::Missing(_, m, t)) => format!("{m}/{t}"),
            _ => String::new(),
        })
    };
    let body = StoredValue::new(bundle);
    let last_cell = StoredValue::new(None::<(String, String, String)>);
    view! {
        <section class="trajectory" data-testid="trajectory-view" data-trajectory=data_key
            data-pending=move || pending.get().to_string()>
            <h2>"Trajectory"</h2>
            <NavBar place=place counted=counted name=list_name />
            {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            {move || match shown.get() {
                None if names_cell() => view! {
                    <p class="loading hint" data-testid="trajectory-loading">"Loading the trajectory…"</p>
                }.into_any(),
                None | Some(Shown::Nothing) => view! {
                    <p class="hint">"Choose a cell: a corpus, a model and a question."</p>
                    <Chooser bundle=body.get_value() />
                }.into_any(),
                Some(Shown::Missing(c, m, t)) => view! {
                    <p class="notice" data-testid="trajectory-missing">
                        "No cell for model " <code>{m}</code> " on question " <code>{t}</code>
                        " in corpus " <code>{c}</code> "."
                    </p>
                    <Chooser bundle=body.get_value() />
                }.into_any(),
                Some(Shown::Cell(c, m, t, opened, in_queue)) => {
                    let bundle = body.get_value();
                    let hash = bundle.content_hash.clone();
                    // The same cell again (its labels changed: a re-label applied) is built in
                    // one task, so the page keeps its height and the reader their place.
                    let id = (c.clone(), m.clone(), t.clone());
                    let again = last_cell.with_value(|l| l.as_ref() == Some(&id));
                    last_cell.set_value(Some(id));
                    view! {
                        {in_queue.then(|| view! { <AuditKeys hash=hash model=m.clone() trace=t.clone() place=place /> })}
                        <CellView bundle=bundle corpus=c model=m trace=t opened=*opened at_once=again />
                    }.into_any()
                }
            }}
        </section>
    }
}

/// What the view shows.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    /// No cell named.
    Nothing,
    /// The named cell is not in its corpus: corpus, model, trace.
    Missing(String, String, String),
    /// The cell: corpus, model, trace, the cell, whether it is in the audit queue.
    Cell(String, String, String, Box<OpenedCell>, bool),
}

crate::pages::views::lazy_view! {
    /// The trajectory viewer. In a chunk of its own (`split_trajectory`).
    trajectory: TrajectoryView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Trajectory,
    label: "Trajectory",
    needs: crate::pages::views::Needs::WholeToMount,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
