//! Browser tests of the export buttons and the download helpers (headless Chromium).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use runlens_charts::{AnyChart, KStarChart, Theme};
use runlens_web::components::ExportButtons;
use runlens_web::export::{ExportError, download_canvas_png, download_text, safe_filename};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

fn chart() -> AnyChart {
    AnyChart::KStar(KStarChart {
        title: "k*".into(),
        counts: vec![2, 1],
        not_found: 0,
        theme: Theme::LIGHT,
    })
}

fn host() -> web_sys::HtmlElement {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host.unchecked_into()
}

fn labels(host: &web_sys::HtmlElement) -> Vec<String> {
    let buttons = host.query_selector_all("button").unwrap();
    (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .map(|n| n.unchecked_into::<web_sys::Element>())
        .map(|b| b.get_attribute("aria-label").unwrap_or_default())
        .collect()
}

fn click(host: &web_sys::HtmlElement, label: &str) {
    host.query_selector(&format!("button[aria-label='{label}']"))
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
}

#[wasm_bindgen_test]
async fn all_three_buttons_when_every_source_is_given() {
    let host = host();
    let produced = Arc::new(AtomicUsize::new(0));
    let count = produced.clone();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        let count = count.clone();
        let csv = Callback::new(move |_: ()| {
            count.fetch_add(1, Ordering::SeqCst);
            "a,b\r\n1,2\r\n".to_string()
        });
        view! {
            <ExportButtons base_name="ranking dev" canvas_id="no-such-canvas"
                chart=Signal::derive(chart) csv=csv />
        }
    }));
    leptos::task::tick().await;
    assert_eq!(
        labels(&host),
        vec![
            "Download chart as PNG",
            "Download chart as SVG",
            "Download table as CSV"
        ]
    );
    let group = host.query_selector("[role='group']").unwrap().unwrap();
    assert_eq!(group.get_attribute("aria-label").as_deref(), Some("Export"));
    // CSV and SVG downloads start without an error message.
    click(&host, "Download table as CSV");
    click(&host, "Download chart as SVG");
    leptos::task::tick().await;
    assert_eq!(produced.load(Ordering::SeqCst), 1);
    assert!(host.query_selector("[role='alert']").unwrap().is_none());
    // The PNG of a canvas that does not exist is explained in words.
    click(&host, "Download chart as PNG");
    for _ in 0..5 {
        leptos::task::tick().await;
    }
    let alert = host.query_selector("[role='alert']").unwrap().unwrap();
    assert_eq!(
        alert.text_content().unwrap(),
        "could not save ranking-dev.png: no chart canvas with id \"no-such-canvas\""
    );
}

#[wasm_bindgen_test]
async fn only_the_buttons_whose_source_is_given() {
    let host = host();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        view! { <ExportButtons base_name="k-star" chart=Signal::derive(chart) /> }
    }));
    leptos::task::tick().await;
    assert_eq!(labels(&host), vec!["Download chart as SVG"]);
}

#[wasm_bindgen_test]
async fn helpers_download_and_explain_failures() {
    assert_eq!(download_text("t.csv", "text/csv", "a\r\n"), Ok(()));
    let canvas: web_sys::HtmlCanvasElement = document()
        .create_element("canvas")
        .unwrap()
        .unchecked_into();
    canvas.set_id("export-test-canvas");
    canvas.set_width(4);
    canvas.set_height(4);
    document().body().unwrap().append_child(&canvas).unwrap();
    assert_eq!(
        download_canvas_png("export-test-canvas", "c.png").await,
        Ok(())
    );
    assert_eq!(
        download_canvas_png("missing", "c.png").await,
        Err(ExportError::NoCanvas {
            file: "c.png".into(),
            id: "missing".into()
        })
    );
}

#[wasm_bindgen_test]
fn filenames_are_made_safe() {
    assert_eq!(safe_filename("dev set/k*", "csv"), "dev-set-k-.csv");
    assert_eq!(
        safe_filename("ranking_dev-1.0", "svg"),
        "ranking_dev-1.0.svg"
    );
    assert_eq!(safe_filename("", "png"), "runlens.png");
    assert_eq!(safe_filename("../", "png"), "runlens.png");
}
