//! The judge audit queue: failures whose `correct_despite_fail` is at or above the
//! threshold (`ct`), most likely first, reviewed with the keyboard (`a` grader wrong,
//! `r` grader right, `u` unsure, `n` note, `j` / `k` move). The queue is the answer of the
//! data's owner (the loader worker) to the view's filters and the re-labels in force;
//! decisions persist in localStorage per bundle hash and export / import as JSON and CSV.

mod controls;
mod detail;
mod entries;
mod files;
pub mod list;
pub mod store;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::{AuditAnswer, AuditLog, AuditQuery, Verdict};
use runlens_core::bundle::Bundle;

use crate::components::MetricValue;
use crate::derived::answers::ViewQuery;
use crate::derived::newest_answer::NewestAnswer;
use crate::state::{UrlState, relabels_in_force};
use controls::{AuditActions, AuditControls};
use detail::ItemDetail;
pub use entries::{Entry, queue_counts};
use files::AuditFiles;
pub use files::read_audit_file;
use list::QueueList;
pub use store::storage_key;

/// The audit view of a loaded bundle.
#[component]
pub fn AuditView(
    /// The loaded bundle.
    bundle: Arc<Bundle>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let hash = bundle.content_hash.clone();
    let (log0, load_error) = match store::load(&hash) {
        Ok(l) => (l, None),
        Err(e) => (AuditLog::new(), Some(e)),
    };
    let log = RwSignal::new(log0);
    let (save_error, set_save_error) = signal(load_error);
    let relabels = relabels_in_force();
    let query = Memo::new(move |_| {
        let relabels = relabels.get();
        state.with(|s| AuditQuery {
            corpus: s.corpus.clone(),
            threshold: s.failures.cdf_threshold,
            models: s.models.clone(),
            relabels,
        })
    });
    // The newest question's answer is shown; the last one stays meanwhile.
    let answer = NewestAnswer::<_, AuditAnswer>::ask(bundle.clone(), query, ViewQuery::Audit);
    let pending = Memo::new(move |_| answer.pending());
    let queue = Memo::new(move |_| {
        answer
            .answer()
            .map_or_else(|| Arc::new(Vec::new()), |a| Arc::new(a.entries.clone()))
    });
    let corpora = Memo::new(move |_| {
        answer
            .answer()
            .map(|a| a.corpora.clone())
            .unwrap_or_default()
    });
    let phase = Memo::new(move |_| match (answer.answered(), answer.error()) {
        (false, _) => 0,
        (true, Some(_)) => 1,
        (true, None) => 2,
    });
    let selected = RwSignal::new(None::<usize>);
    // A new queue selects its first item (or nothing).
    Effect::new(move |_| {
        let n = queue.with(|q| q.len());
        selected.set((n > 0).then_some(0));
    });
    let current = Memo::new(move |_| {
        selected
            .get()
            .and_then(|i| queue.with(|q| q.get(i).cloned()))
    });
    let persist = {
        let hash = hash.clone();
        move || set_save_error.set(log.with_untracked(|l| store::save(&hash, l)).err())
    };
    let p1 = persist.clone();
    let decide = Callback::new(move |(verdict, note): (Option<Verdict>, Option<String>)| {
        let Some(e) = current.get_untracked() else {
            return;
        };
        log.update(|l| {
            l.amend(&e.item.key, verdict, note, store::now());
        });
        p1();
    });
    let on_import = Callback::new(move |imported: AuditLog| {
        log.update(|l| {
            l.merge(imported);
        });
        persist();
    });
    let counts = Memo::new(move |_| queue.with(|q| log.with(|l| queue_counts(q, l))));
    let n = move || queue.with(|q| q.len()) as f64;
    let metric = |name: &'static str, v: Signal<f64>| {
        view! {
            <div><dt>{name.trim_start_matches("audit:").replace('_', " ")}</dt>
            <dd><MetricValue name=name value=v digits=0 /></dd></div>
        }
    };
    let short: String = hash.chars().take(12).collect();
    view! {
        <section class="audit" data-testid="audit-view"
            data-answered=move || (phase.get() == 2).to_string()
            data-pending=move || pending.get().to_string()>
            <h2>"Judge audit queue"</h2>
            <p class="hint">"Failures the labeller thinks were graded wrongly, most likely first. Keys: a grader wrong · r grader right · u unsure · n note · j / k next / previous."</p>
            {move || match (answer.answered(), answer.error()) {
                (false, _) => Some(view! { <p class="notice" role="status" data-testid="audit-loading">"Building the audit queue…"</p> }.into_any()),
                (true, Some(e)) => Some(view! { <p class="error" role="alert">{format!("The audit queue could not be built: {e}")}</p> }.into_any()),
                (true, None) => None,
            }}
            {move || (phase.get() == 2).then(|| view! { <AuditControls corpora=corpora.get() /> })}
            // The counts once the queue is in (zeros before it would read as an empty queue).
            {move || (phase.get() == 2).then(|| view! {
                <dl class="headline audit-counts">
                    {metric("audit:count", Signal::derive(n))}
                    {metric("audit:grader_wrong", Signal::derive(move || counts.get().grader_wrong as f64))}
                    {metric("audit:grader_right", Signal::derive(move || counts.get().grader_right as f64))}
                    {metric("audit:unsure", Signal::derive(move || counts.get().unsure as f64))}
                    {metric("audit:undecided", Signal::derive(move || n() - counts.get().total as f64))}
                </dl>
            })}
            {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <AuditFiles log=log base=format!("audit-{short}") on_import=on_import />
            <Show when=move || { n() > 0.0 } fallback=move || (phase.get() == 2).then(|| view! {
                <p data-testid="audit-empty">"No failure at or above this threshold."</p>
            })>
                <div class="audit-body">
                    <QueueList queue=queue log=log selected=selected />
                    <div class="audit-side">
                        <AuditActions queue=queue selected=selected current=current log=log decide=decide />
                        {let b = bundle.clone(); move || current.get().map(|e| view! { <ItemDetail entry=e bundle=b.clone() /> })}
                    </div>
                </div>
            </Show>
        </section>
    }
}

crate::pages::views::lazy_view! {
    /// The audit queue. In a chunk of its own (`split_audit`).
    audit: AuditView
}

/// This view in the registry (`pages::registry`).
pub const VIEW: crate::pages::views::ViewDef = crate::pages::views::ViewDef {
    tab: crate::state::Tab::Audit,
    label: "Audit queue",
    needs: crate::pages::views::Needs::WholeForAnswers,
    code: crate::pages::views::Code::Chunk(CHUNK),
};
