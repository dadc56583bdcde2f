//! Export the decisions as JSON or CSV (core's `AuditLog::to_json` / `to_csv`) and import
//! either (merged; the later decision per key wins). Import errors name file, line and field.

use leptos::prelude::*;
use leptos::task::spawn_local;
use runlens_core::audit::AuditLog;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;

use crate::export::{download_text, safe_filename};

/// Reads an audit file: JSON when the name ends in `.json` or the text starts with `{`,
/// else CSV. The error names the file, then core's line / field / expectation.
pub fn read_audit_file(name: &str, text: &str) -> Result<AuditLog, String> {
    let json = name.to_ascii_lowercase().ends_with(".json")
        || text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{');
    let parsed = if json {
        AuditLog::from_json(text)
    } else {
        AuditLog::from_csv(text)
    };
    parsed.map_err(|e| format!("{name}: {e}"))
}

async fn file_text(file: &web_sys::File) -> Result<String, String> {
    let value = JsFuture::from(file.text())
        .await
        .map_err(|_| format!("{}: the browser could not read the file", file.name()))?;
    value
        .as_string()
        .ok_or_else(|| format!("{}: not a text file", file.name()))
}

/// Export and import controls. `on_import` receives each imported log.
#[component]
pub fn AuditFiles(
    log: RwSignal<AuditLog>,
    /// File name stem, e.g. `audit-<hash>`.
    base: String,
    on_import: Callback<AuditLog>,
) -> impl IntoView {
    let (message, set_message) = signal(None::<(bool, String)>);
    let save = move |ext: &str, text: String, mime: &str| {
        let file = safe_filename(&base, ext);
        if let Err(e) = download_text(&file, mime, &text) {
            set_message.set(Some((true, e.to_string())));
        }
    };
    let save2 = save.clone();
    let on_pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let files: Vec<web_sys::File> = input
            .files()
            .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
            .unwrap_or_default();
        input.set_value("");
        spawn_local(async move {
            for file in files {
                let result = file_text(&file)
                    .await
                    .and_then(|t| read_audit_file(&file.name(), &t));
                match result {
                    Ok(imported) => {
                        let n = imported.len();
                        on_import.run(imported);
                        set_message.set(Some((
                            false,
                            format!("{}: {n} decisions imported", file.name()),
                        )));
                    }
                    Err(e) => set_message.set(Some((true, e))),
                }
            }
        });
    };
    view! {
        <div class="audit-files" role="group" aria-label="Decisions file">
            <button type="button" data-testid="audit-export-json"
                on:click=move |_| save("json", log.with_untracked(AuditLog::to_json), "application/json")>
                "Export JSON"
            </button>
            <button type="button" data-testid="audit-export-csv"
                on:click=move |_| save2("csv", log.with_untracked(AuditLog::to_csv), "text/csv;charset=utf-8")>
                "Export CSV"
            </button>
            <label class="import">
                "Import JSON or CSV "
                <input type="file" accept=".json,.csv,application/json,text/csv" data-testid="audit-import"
                    on:change=on_pick />
            </label>
            {move || message.get().map(|(error, text)| view! {
                <p class=if error { "error" } else { "hint" } role=if error { "alert" } else { "status" }
                    data-testid="audit-file-message">{text}</p>
            })}
        </div>
    }
}
