//! The open controls: a file picker (bundle or raw harness files), a folder picker, a drop
//! zone, and a URL field.

use leptos::{html::Input, prelude::*};
use wasm_bindgen::JsCast;
use web_sys::{FileList, HtmlInputElement};

use crate::data::BundleRequest;

/// The drop zone's text; its accessible name starts with it (WCAG 2.5.3, label in name).
const DROP_TEXT: &str = "Drop a bundle (.json, .json.gz, .zip) or raw harness files \
                         (annotated.jsonl, results.jsonl, out/*.jsonl, schema.md, rules.yaml) here";

/// File types the picker offers: bundles and harness files.
pub const ACCEPT: &str = ".json,.gz,.zip,.jsonl,.yaml,.yml,.md,.txt";

/// Opens `?bundle=URL` in this page (a shareable address).
pub fn navigate_to_bundle(url: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = format!(
        "?bundle={}",
        String::from(js_sys::encode_uri_component(url))
    );
    let _ = window.location().set_search(&query);
}

fn files_of(list: Option<FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

/// "Open files…", "Open a folder…", a keyboard-reachable drop zone, and a URL field; every
/// choice is passed to `on_open`.
#[component]
pub fn OpenBundle(
    /// Called with what the reader chose.
    on_open: Callback<BundleRequest>,
) -> impl IntoView {
    let file_input = NodeRef::<Input>::new();
    let (dragging, set_dragging) = signal(false);
    let (url, set_url) = signal(String::new());
    let open_files = move |files: Vec<web_sys::File>| {
        if !files.is_empty() {
            on_open.run(BundleRequest::Files(files));
        }
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        let files = files_of(input.files());
        // Let the same file be picked again later.
        input.set_value("");
        open_files(files);
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        open_files(files_of(ev.data_transfer().and_then(|d| d.files())));
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            if let Some(input) = file_input.get() {
                input.click();
            }
        }
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let u = url.get_untracked().trim().to_owned();
        if !u.is_empty() {
            on_open.run(BundleRequest::Url(u));
        }
    };
    view! {
        <section class="open-bundle" data-testid="open-bundle">
            <div class="open-buttons">
                <label class="open-files">
                    "Open files… "
                    <input
                        type="file"
                        multiple
                        accept=ACCEPT
                        data-testid="open-files"
                        node_ref=file_input
                        on:change=on_pick
                    />
                </label>
                <label class="open-folder">
                    "Open a folder (harness files or a bundle directory)… "
                    <input type="file" prop:webkitdirectory=true data-testid="open-folder" on:change=on_pick />
                </label>
            </div>
            <div
                class="drop-zone"
                class:dragging=move || dragging.get()
                data-testid="drop-zone"
                role="button"
                tabindex="0"
                aria-label=format!("{DROP_TEXT}, or press Enter to choose files")
                on:dragover=move |ev: leptos::ev::DragEvent| {
                    ev.prevent_default();
                    set_dragging.set(true);
                }
                on:dragleave=move |_| set_dragging.set(false)
                on:drop=on_drop
                on:keydown=on_key
            >
                {DROP_TEXT}
            </div>
            <form class="open-url" on:submit=on_submit>
                <label>
                    "Bundle URL "
                    <input
                        type="text"
                        inputmode="url"
                        placeholder="https://…/run.zip"
                        data-testid="open-url"
                        prop:value=move || url.get()
                        on:input=move |ev| set_url.set(event_target_value(&ev))
                    />
                </label>
                <button type="submit">"Open"</button>
            </form>
        </section>
    }
}
