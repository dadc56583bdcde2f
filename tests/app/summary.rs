//! The v2 summary in wasm: the sample written as `runlens.bundle/2` entries, checked and
//! inflated by the browser as the worker does, its summary encoded as the worker does and
//! decoded as the page does, gives each corpus's leaderboard exactly as the bundle gives it,
//! and the head with every corpus's models and no rows; the bundle read from the inflated
//! entries is the bundle; a changed entry is named.

use crate::sample_files::SAMPLE;
use runlens_core::bundle::LossRule;
use std::collections::HashSet;

use runlens_core::bundle::v2::{
    MANIFEST, Manifest, MemoryEntries, read_bundle_inflated, write_entries,
};
use runlens_core::metrics::Stepwise;
use runlens_core::metrics::board_run::BoardRun;
use runlens_web::data::decode_bundle;
use runlens_web::loader::skeleton::{read_skeleton, skeleton_json};
use runlens_web::loader::summary::{decode, encode};
use runlens_web::loader::v2::check_and_inflate;
use wasm_bindgen_test::*;

/// The sample's entries as fetched (compressed).
fn entries() -> (Manifest, MemoryEntries) {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let (manifest, list) = write_entries(&bundle).unwrap();
    let mut memory = MemoryEntries::default();
    memory.0.insert(MANIFEST.to_owned(), manifest.clone());
    memory.0.extend(list.into_iter().map(|e| (e.path, e.bytes)));
    (serde_json::from_slice(&manifest).unwrap(), memory)
}

#[wasm_bindgen_test]
async fn the_summary_is_the_bundles_leaderboard_and_head() {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let (manifest, mut memory) = entries();
    let mut done = HashSet::new();
    check_and_inflate(&manifest, &mut memory, &mut done)
        .await
        .unwrap();
    assert_eq!(
        done.len(),
        manifest
            .entries
            .iter()
            .filter(|e| e.path.ends_with(".gz"))
            .count()
    );
    let (body, skeleton_len) = encode(&manifest, &memory).unwrap().unwrap();
    let summary = decode(&body, skeleton_len).unwrap();
    assert_eq!(summary.skeleton.content_hash, bundle.content_hash);
    assert_eq!(summary.corpora.len(), 2);
    for (got, corpus) in summary.corpora.iter().zip(&bundle.body.corpora) {
        assert_eq!(got.name, corpus.name);
        assert_eq!(got.questions, corpus.results.len());
        // The sample has no legacy loss cells: one rule only.
        assert_eq!(got.boards.len(), 1);
        let expected = BoardRun::new(&bundle.body, corpus, LossRule::Excluded).finish();
        assert_eq!(got.rows(LossRule::Excluded), Some(&expected));
        assert_eq!(got.rows(LossRule::AsFail), None);
    }
    for (head, corpus) in summary
        .skeleton
        .body
        .corpora
        .iter()
        .zip(&bundle.body.corpora)
    {
        assert_eq!(head.models, corpus.models);
        assert!(head.results.is_empty() && head.questions.is_empty());
    }
    // The summary's head is the whole bundle's skeleton but for the schema prompt and the
    // corpora's board manifests (entries of their own, read with the rest): the page keeps
    // the views it mounted with the summary when the whole bundle arrives (the prompt's one
    // reader, the re-label panel, mounts after it; no view reads a board manifest).
    let mut whole = read_skeleton(&skeleton_json(&bundle)).unwrap();
    assert!(whole.body.schema_prompt.is_some());
    whole.body.schema_prompt = None;
    for c in &mut whole.body.corpora {
        c.board_manifest = None;
    }
    assert_eq!(*summary.skeleton, whole);
    assert_eq!(read_bundle_inflated(&mut memory).unwrap(), *bundle);
}

#[wasm_bindgen_test]
async fn a_changed_cells_entry_is_named_and_a_cut_summary_is_refused() {
    let (manifest, mut memory) = entries();
    let mut plain = MemoryEntries(memory.0.clone());
    check_and_inflate(&manifest, &mut plain, &mut HashSet::new())
        .await
        .unwrap();
    let (body, skeleton_len) = encode(&manifest, &plain).unwrap().unwrap();
    assert_eq!(
        decode(&body, body.len() + 1).unwrap_err(),
        "loader: a summary shorter than its skeleton"
    );
    assert!(
        decode(&body[..body.len() - 1], skeleton_len)
            .unwrap_err()
            .starts_with("loader: a malformed summary")
    );
    let path = "corpora/1/cells.cols.gz";
    memory.0.get_mut(path).unwrap()[40] ^= 1;
    let e = check_and_inflate(&manifest, &mut memory, &mut HashSet::new())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("bundle: entry {path}: sha256 ")),
        "{e}"
    );
}

/// The sample's summary as the page gets it, and the whole bundle's skeleton after it.
async fn summary_then_whole() -> (
    runlens_web::loader::summary::Summary,
    std::sync::Arc<runlens_core::bundle::Bundle>,
) {
    let bundle = decode_bundle("article.json.gz", SAMPLE).unwrap();
    let (manifest, mut memory) = entries();
    check_and_inflate(&manifest, &mut memory, &mut HashSet::new())
        .await
        .unwrap();
    let (body, skeleton_len) = encode(&manifest, &memory).unwrap().unwrap();
    let summary = decode(&body, skeleton_len).unwrap();
    let whole = read_skeleton(&skeleton_json(&bundle)).unwrap();
    (summary, std::sync::Arc::new(whole))
}

/// Mounts the overview of the sample's summary at `tab`, with the whole-bundle signal a
/// loader provides; returns the host and that signal.
async fn mount_summary(
    tab: runlens_web::state::Tab,
) -> (
    web_sys::HtmlElement,
    leptos::prelude::RwSignal<Option<runlens_web::data::Loaded>, leptos::prelude::LocalStorage>,
    std::sync::Arc<runlens_core::bundle::Bundle>,
) {
    use leptos::prelude::*;
    use runlens_web::components::bundle_loader::WholeArrived;
    use runlens_web::data::{LoadStats, Loaded};
    use runlens_web::pages::Overview;
    use runlens_web::state::{UrlState, ViewState};
    use wasm_bindgen::JsCast;
    let (summary, whole) = summary_then_whole().await;
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    let state = UrlState::detached(ViewState {
        tab,
        ..ViewState::default()
    });
    let arrived = RwSignal::new_local(None::<Loaded>);
    let head = summary.skeleton.clone();
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(state);
        provide_context(WholeArrived(arrived));
        provide_context(runlens_web::components::bundle_loader::LoadProgressSignal(
            RwSignal::new(runlens_web::data::Progress {
                phase: runlens_web::data::Phase::Parsing,
                done: 0,
                total: None,
            }),
        ));
        let stats = LoadStats {
            v2: true,
            in_worker: true,
            ..LoadStats::default()
        };
        view! { <Overview bundle=head.clone() source="bundles/article.zip" stats=stats summary=Some(summary.clone()) /> }
    }));
    leptos::task::tick().await;
    // The view mounts one task after the header.
    runlens_web::yield_now::yield_now().await;
    leptos::task::tick().await;
    (host, arrived, whole)
}

fn attr(host: &web_sys::HtmlElement, selector: &str, name: &str) -> Option<String> {
    host.query_selector(selector).unwrap()?.get_attribute(name)
}

#[wasm_bindgen_test]
async fn the_whole_bundle_arriving_keeps_the_views_mounted_from_the_summary() {
    use leptos::prelude::Set;
    use runlens_web::data::{LoadStats, Loaded};
    use runlens_web::state::Tab;
    let (host, arrived, whole) = mount_summary(Tab::Leaderboard).await;
    assert_eq!(
        attr(&host, ".bundle-header", "data-load-summary").as_deref(),
        Some("true")
    );
    // Mark the leaderboard view mounted from the summary.
    host.query_selector("[data-testid='leaderboard-view']")
        .unwrap()
        .expect("the leaderboard from the summary")
        .set_attribute("data-probe", "summary")
        .unwrap();
    let stats = LoadStats {
        v2: true,
        in_worker: true,
        requests: 5,
        ..LoadStats::default()
    };
    arrived.set(Some(Loaded {
        bundle: whole,
        stats,
        source: "bundles/article.zip".into(),
        summary: None,
    }));
    leptos::task::tick().await;
    // The same element (not built again), and the header carries the whole load's figures.
    assert_eq!(
        attr(&host, "[data-testid='leaderboard-view']", "data-probe").as_deref(),
        Some("summary")
    );
    assert_eq!(
        attr(&host, ".bundle-header", "data-load-summary").as_deref(),
        Some("false")
    );
    assert_eq!(
        attr(&host, ".bundle-header", "data-load-requests").as_deref(),
        Some("5")
    );
}

#[wasm_bindgen_test]
async fn the_matrix_mounts_from_the_summary_under_the_line_of_the_rest() {
    use leptos::prelude::Set;
    use runlens_web::data::{LoadStats, Loaded};
    use runlens_web::state::Tab;
    let (host, arrived, whole) = mount_summary(Tab::Matrix).await;
    // Mounted now (its question waits in the worker), with how far the rest is above it:
    // the loader's phase in words (here parsing, as the worker reads the early tables).
    assert_eq!(
        host.query_selector("[data-testid='rest-loading']")
            .unwrap()
            .expect("the line of the rest")
            .text_content()
            .as_deref(),
        Some("Reading the rest of the bundle: parsing the bundle…")
    );
    host.query_selector("[data-testid='matrix-view']")
        .unwrap()
        .expect("the matrix mounted from the summary")
        .set_attribute("data-probe", "summary")
        .unwrap();
    arrived.set(Some(Loaded {
        bundle: whole,
        stats: LoadStats::default(),
        source: "bundles/article.zip".into(),
        summary: None,
    }));
    leptos::task::tick().await;
    assert!(
        host.query_selector("[data-testid='rest-loading']")
            .unwrap()
            .is_none()
    );
    // The same element: not built again when the whole bundle came.
    assert_eq!(
        attr(&host, "[data-testid='matrix-view']", "data-probe").as_deref(),
        Some("summary")
    );
}

#[wasm_bindgen_test]
async fn the_trajectory_waits_for_the_whole_bundle_and_mounts_when_it_arrives() {
    use leptos::prelude::Set;
    use runlens_web::data::{LoadStats, Loaded};
    use runlens_web::state::Tab;
    let (host, arrived, whole) = mount_summary(Tab::Trajectory).await;
    assert!(
        host.query_selector("[data-testid='rest-loading']")
            .unwrap()
            .is_some()
    );
    assert!(
        host.query_selector("[data-testid='trajectory-view']")
            .unwrap()
            .is_none()
    );
    arrived.set(Some(Loaded {
        bundle: whole,
        stats: LoadStats::default(),
        source: "bundles/article.zip".into(),
        summary: None,
    }));
    for _ in 0..50 {
        leptos::task::tick().await;
        if host
            .query_selector("[data-testid='trajectory-view']")
            .unwrap()
            .is_some()
        {
            break;
        }
    }
    assert!(
        host.query_selector("[data-testid='rest-loading']")
            .unwrap()
            .is_none()
    );
    assert!(
        host.query_selector("[data-testid='trajectory-view']")
            .unwrap()
            .is_some()
    );
}
