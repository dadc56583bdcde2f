//! The bundle's skeleton: the bundle without any corpus rows, as the worker hands it to the
//! page (which keeps no rows: its views ask the worker) and as a v2 summary carries it.
//!
//! It is written as the bundle itself ([`skeleton_json`]) but read through types of its own
//! that have no row fields ([`read_skeleton`]): reading it as a [`Bundle`] would put the
//! parsers of every row type (cells, labels, gate rows…) in the page's first download, which
//! otherwise needs them only in the `v1` chunk (docs/performance.md, "Shipped size").

use runlens_core::bundle::{
    Bundle, BundleBody, Corpus, ModelInfo, Provenance, SchemaPrompt, UniverseSource, Warning,
};
use runlens_core::rules::RulesConfig;
use serde::Deserialize;

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

/// Reads a skeleton written by [`skeleton_json`]: the bundle with its corpora's names, models
/// and board manifests, and no rows (the row arrays in the JSON, empty, are skipped).
pub fn read_skeleton(json: &[u8]) -> Result<Bundle, String> {
    let wire: SkeletonWire = serde_json::from_slice(json)
        .map_err(|e| format!("loader: the bundle skeleton is not valid ({e})"))?;
    Ok(wire.into_bundle())
}

#[derive(Deserialize)]
struct SkeletonWire {
    format: String,
    provenance: Provenance,
    content_hash: String,
    body: BodyWire,
}

/// [`BundleBody`]'s fields, with the corpora as [`CorpusWire`] (`into_bundle` builds the body
/// without `..`, so a field added to `BundleBody` does not compile until it is read here).
#[derive(Deserialize)]
struct BodyWire {
    #[serde(default)]
    synthetic: bool,
    #[serde(default)]
    notice: Option<String>,
    #[serde(default)]
    universe: Vec<String>,
    #[serde(default)]
    universe_source: UniverseSource,
    #[serde(default)]
    namespaces: Vec<String>,
    #[serde(default)]
    schema_prompt: Option<SchemaPrompt>,
    #[serde(default)]
    rules: Option<RulesConfig>,
    #[serde(default)]
    models: Vec<ModelInfo>,
    #[serde(default)]
    corpora: Vec<CorpusWire>,
    #[serde(default)]
    warnings: Vec<Warning>,
}

/// What [`BundleBody::skeleton`] keeps of a corpus.
#[derive(Deserialize)]
struct CorpusWire {
    name: String,
    #[serde(default)]
    models: Vec<String>,
    #[serde(default)]
    board_manifest: Option<serde_json::Value>,
}

impl SkeletonWire {
    fn into_bundle(self) -> Bundle {
        let w = self.body;
        let corpora = w
            .corpora
            .into_iter()
            .map(|c| Corpus {
                name: c.name,
                models: c.models,
                board_manifest: c.board_manifest,
                ..Corpus::default()
            })
            .collect();
        Bundle {
            format: self.format,
            provenance: self.provenance,
            content_hash: self.content_hash,
            body: BundleBody {
                synthetic: w.synthetic,
                notice: w.notice,
                universe: w.universe,
                universe_source: w.universe_source,
                namespaces: w.namespaces,
                schema_prompt: w.schema_prompt,
                rules: w.rules,
                models: w.models,
                corpora,
                warnings: w.warnings,
            },
        }
    }
}
