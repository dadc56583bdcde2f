//! The one owner of file downloads: text (CSV, SVG) and canvas PNGs are saved through a
//! `Blob`, an object URL and a temporary `<a download>` that is clicked and removed; the
//! URL is revoked shortly after. Errors are data with a readable message.

use js_sys::{Array, Function, Promise};
use thiserror::Error;
use wasm_bindgen::{JsCast, JsValue, closure::Closure};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

/// Why a download could not be started.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExportError {
    /// No `window`/`document`/`<body>` (not running in a page).
    #[error("could not save {file}: no document to attach the download to")]
    NoDocument {
        /// The file name asked for.
        file: String,
    },
    /// No `<canvas>` with this id.
    #[error("could not save {file}: no chart canvas with id \"{id}\"")]
    NoCanvas {
        /// The file name asked for.
        file: String,
        /// The canvas id looked up.
        id: String,
    },
    /// The file's content could not be produced (e.g. the SVG drawing failed).
    #[error("could not save {file}: {reason}")]
    Render {
        /// The file name asked for.
        file: String,
        /// What went wrong.
        reason: String,
    },
    /// The browser refused an operation (message from the browser).
    #[error("could not save {file}: the browser refused ({reason})")]
    Browser {
        /// The file name asked for.
        file: String,
        /// The browser's error message.
        reason: String,
    },
}

/// Milliseconds after the click before the object URL is revoked (the download has
/// started by then; revoking at once can cancel it in some browsers).
const REVOKE_AFTER_MS: i32 = 10_000;

/// `base` made safe as a file name (characters other than ASCII letters, digits, `.`, `_`,
/// `-` become `-`; empty → `runlens`), plus `.ext`. Example: `("dev set/k*", "csv")` →
/// `"dev-set-k-.csv"`.
pub fn safe_filename(base: &str, ext: &str) -> String {
    let mut name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.trim_matches(['-', '.']).is_empty() {
        name = "runlens".into();
    }
    format!("{name}.{ext}")
}

fn browser(file: &str, e: JsValue) -> ExportError {
    let reason = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"));
    ExportError::Browser {
        file: file.into(),
        reason,
    }
}

/// Saves `text` as a file named `filename` with MIME type `mime`
/// (e.g. `"text/csv;charset=utf-8"`, `"image/svg+xml"`).
pub fn download_text(filename: &str, mime: &str, text: &str) -> Result<(), ExportError> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let parts = Array::of1(&JsValue::from_str(text));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| browser(filename, e))?;
    download_blob(filename, &blob)
}

/// Saves the current pixels of `<canvas id=canvas_id>` as a PNG named `filename`.
pub async fn download_canvas_png(canvas_id: &str, filename: &str) -> Result<(), ExportError> {
    let no_doc = || ExportError::NoDocument {
        file: filename.into(),
    };
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(no_doc)?;
    let canvas: HtmlCanvasElement = document
        .get_element_by_id(canvas_id)
        .and_then(|el| el.dyn_into().ok())
        .ok_or_else(|| ExportError::NoCanvas {
            file: filename.into(),
            id: canvas_id.into(),
        })?;
    download_canvas_element_png(&canvas, filename).await
}

/// Saves the pixels of `canvas` (on the page or not) as a PNG named `filename`.
pub async fn download_canvas_element_png(
    canvas: &HtmlCanvasElement,
    filename: &str,
) -> Result<(), ExportError> {
    // toBlob reports through a callback: wrap it in a Promise (a tainted canvas throws).
    let promise = Promise::new(&mut |resolve: Function, reject: Function| {
        if let Err(e) = canvas.to_blob(&resolve) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    });
    let value = JsFuture::from(promise)
        .await
        .map_err(|e| browser(filename, e))?;
    let blob: Blob = value.dyn_into().map_err(|_| ExportError::Browser {
        file: filename.into(),
        reason: "the canvas produced no image".into(),
    })?;
    download_blob(filename, &blob)
}

/// Clicks a temporary `<a download=filename href=blob:…>` and schedules the URL's revocation.
fn download_blob(filename: &str, blob: &Blob) -> Result<(), ExportError> {
    let no_doc = || ExportError::NoDocument {
        file: filename.into(),
    };
    let window = web_sys::window().ok_or_else(no_doc)?;
    let document = window.document().ok_or_else(no_doc)?;
    let body = document.body().ok_or_else(no_doc)?;
    let url = Url::create_object_url_with_blob(blob).map_err(|e| browser(filename, e))?;
    let clicked = (|| -> Result<(), JsValue> {
        let a: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
        a.set_href(&url);
        a.set_download(filename);
        a.set_attribute("hidden", "")?;
        body.append_child(&a)?;
        a.click();
        a.remove();
        Ok(())
    })();
    let revoke_url = url.clone();
    let revoke = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&revoke_url);
    });
    let scheduled = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        revoke.unchecked_ref(),
        REVOKE_AFTER_MS,
    );
    if scheduled.is_err() {
        let _ = Url::revoke_object_url(&url);
    }
    clicked.map_err(|e| browser(filename, e))
}
