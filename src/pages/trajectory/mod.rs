//! The trajectory viewer: one model × one question (URL `corpus`, `tmodel`, `trace`), with
//! `j` / `k` walking the list named by `from`, `g` toggling the gold / candidate SQL diff and
//! `?` showing the keys.

mod audit_keys;
mod cell_view;
mod chooser;
mod gate;
mod header;
mod keys;
mod label;
pub mod list;
mod results;
mod sql;
mod usage;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::Bundle;

use crate::state::UrlState;
use audit_keys::AuditKeys;
use cell_view::CellView;
use chooser::Chooser;
use keys::NavBar;
pub use label::{OpenCell, RELABEL_SLOT_CLASS, relabel_slot};
use list::{ListKey, resolve_corpus, walk_list_of};

/// The trajectory view of a loaded bundle.
#[component]
pub fn TrajectoryView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let body = StoredValue::new(bundle.clone());
    let model = Memo::new(move |_| state.with(|s| s.cell_model.clone()));
    let trace = Memo::new(move |_| state.with(|s| s.trace.clone()));
    let corpus = Memo::new(move |_| {
        let named = state.with(|s| s.corpus.clone());
        let (m, t) = (model.get(), trace.get());
        body.with_value(|b| resolve_corpus(b, named.as_deref(), m.as_deref(), t.as_deref()))
    });
    let list_key = Memo::new(move |_| {
        let corpus = corpus.get()?;
        Some(state.with(|s| ListKey::of(corpus, s)))
    });
    let list_name = Signal::derive(move || {
        list_key.with(|k| {
            k.as_ref()
                .map_or_else(|| "all cells".to_owned(), ListKey::label)
        })
    });
    let list = Memo::new(move |_| {
        let Some(key) = list_key.get() else {
            return Arc::new(Vec::new());
        };
        body.with_value(|b| walk_list_of(b, &key))
    });
    let open = Memo::new(move |_| {
        let (m, t, c) = (model.get()?, trace.get()?, corpus.get()?);
        let found = body.with_value(|b| b.body.corpus(&c).and_then(|k| k.cell(&t, &m)).is_some());
        Some((c, m, t, found))
    });
    let data_key = move || {
        open.with(|o| {
            o.as_ref()
                .map_or_else(String::new, |(_, m, t, _)| format!("{m}/{t}"))
        })
    };
    view! {
        <section class="trajectory" data-testid="trajectory-view" data-trajectory=data_key>
            <h2>"Trajectory"</h2>
            <NavBar list=list name=list_name />
            {move || match open.get() {
                None => view! {
                    <p class="hint">"Choose a cell: a corpus, a model and a question."</p>
                    <Chooser bundle=body.get_value() />
                }.into_any(),
                Some((c, m, t, false)) => view! {
                    <p class="notice" data-testid="trajectory-missing">
                        "No cell for model " <code>{m}</code> " on question " <code>{t}</code>
                        " in corpus " <code>{c}</code> "."
                    </p>
                    <Chooser bundle=body.get_value() />
                }.into_any(),
                Some((c, m, t, true)) => view! {
                    <AuditKeys bundle=body.get_value() corpus=c.clone() model=m.clone() trace=t.clone() list=list />
                    <CellView bundle=body.get_value() corpus=c model=m trace=t />
                }.into_any(),
            }}
        </section>
    }
}
