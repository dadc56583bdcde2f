//! The judge audit queue: failures whose `correct_despite_fail` is at or above the
//! threshold (`ct`), most likely first, reviewed with the keyboard (`a` grader wrong,
//! `r` grader right, `u` unsure, `n` note, `j` / `k` move). Decisions persist in
//! localStorage per bundle hash and export / import as JSON and CSV.

mod controls;
mod detail;
mod entries;
mod files;
pub mod list;
pub mod store;

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::audit::{AuditLog, Verdict};
use runlens_core::bundle::Bundle;

use crate::components::MetricValue;
use crate::state::UrlState;
use controls::{AuditActions, AuditControls};
use detail::ItemDetail;
pub use entries::{Entry, entries, queue_counts};
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
    let body = StoredValue::new(bundle.clone());
    let queue = Memo::new(move |_| {
        let (corpus, t, models) =
            state.with(|s| (s.corpus.clone(), s.cdf_threshold, s.models.clone()));
        let shows = |m: &str| models.is_empty() || models.iter().any(|x| x == m);
        Arc::new(body.with_value(|b| entries(b, corpus.as_deref(), t, shows)))
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
    let corpora: Vec<String> = bundle
        .body
        .corpora
        .iter()
        .filter(|c| !c.failure_labels.is_empty())
        .map(|c| c.name.clone())
        .collect();
    let short: String = hash.chars().take(12).collect();
    view! {
        <section class="audit" data-testid="audit-view">
            <h2>"Judge audit queue"</h2>
            <p class="hint">"Failures the labeller thinks were graded wrongly, most likely first. Keys: a grader wrong · r grader right · u unsure · n note · j / k next / previous."</p>
            <AuditControls corpora=corpora />
            <dl class="headline audit-counts">
                {metric("audit:count", Signal::derive(n))}
                {metric("audit:grader_wrong", Signal::derive(move || counts.get().grader_wrong as f64))}
                {metric("audit:grader_right", Signal::derive(move || counts.get().grader_right as f64))}
                {metric("audit:unsure", Signal::derive(move || counts.get().unsure as f64))}
                {metric("audit:undecided", Signal::derive(move || n() - counts.get().total as f64))}
            </dl>
            {move || save_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <AuditFiles log=log base=format!("audit-{short}") on_import=on_import />
            <Show when=move || { n() > 0.0 } fallback=|| view! {
                <p data-testid="audit-empty">"No failure at or above this threshold."</p>
            }>
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
