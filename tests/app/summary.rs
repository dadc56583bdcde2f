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
use runlens_core::metrics::board_run::BoardRun;
use runlens_web::data::decode_bundle;
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
