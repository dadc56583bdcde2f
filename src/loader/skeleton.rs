//! The bundle's skeleton: the bundle without any corpus rows, as the worker hands it to the
//! page (which keeps no rows: its views ask the worker) and as a v2 summary carries it.

use runlens_core::bundle::Bundle;

/// The bundle without any corpus rows (names, models and manifests kept), as JSON.
pub fn skeleton_json(bundle: &Bundle) -> Vec<u8> {
    let body = bundle.body.skeleton();
    let skeleton = Bundle {
        format: bundle.format.clone(),
        provenance: bundle.provenance.clone(),
        content_hash: bundle.content_hash.clone(),
        body,
    };
    serde_json::to_vec(&skeleton).unwrap_or_default()
}

/// Reads a skeleton written by [`skeleton_json`].
pub fn read_skeleton(json: &[u8]) -> Result<Bundle, String> {
    serde_json::from_slice(json)
        .map_err(|e| format!("loader: the bundle skeleton is not valid ({e})"))
}
