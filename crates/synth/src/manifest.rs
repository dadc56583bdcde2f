//! `board_manifest.json` (verify_board `--emit`, §11.6).

use indexmap::IndexMap;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::question::Question;

/// Reproduction record of one board question.
#[derive(Debug, Clone, Serialize)]
pub struct Partition {
    /// DB epoch the question is pinned to.
    pub db: &'static str,
    /// Reproduction rate on the pinned epoch at commit time.
    pub baseline_repro: f64,
    /// Reproduction rate per epoch.
    pub repro: IndexMap<&'static str, f64>,
}

/// The manifest document.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    schema_version: u32,
    threshold: f64,
    default_db: &'static str,
    dbs: IndexMap<&'static str, IndexMap<&'static str, &'static str>>,
    engine: IndexMap<&'static str, &'static str>,
    skip_unstable_queries: bool,
    inputs: IndexMap<&'static str, String>,
    summary: IndexMap<&'static str, usize>,
    partition: IndexMap<String, Partition>,
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Builds the manifest over the board questions and the exact bytes of the two inputs.
pub fn manifest(
    questions: &[Question],
    results_sha256: &str,
    annotated: &[u8],
    rng: &mut ChaCha8Rng,
) -> Manifest {
    let threshold = 0.85;
    let mut partition = IndexMap::new();
    let (mut main, mut disp, mut low) = (0, 0, 0);
    for q in questions {
        let crm = q.gold.iter().any(|g| g.starts_with("crm."));
        let db = if crm && rng.random_bool(0.3) {
            "chdb-disp"
        } else {
            "chdb"
        };
        let base = if rng.random_bool(0.04) {
            (rng.random_range(0.5..0.84_f64) * 100.0).round() / 100.0
        } else {
            1.0
        };
        let other = (rng.random_range(0.2..1.0_f64) * 100.0).round() / 100.0;
        let mut repro = IndexMap::new();
        repro.insert("chdb", if db == "chdb" { base } else { other });
        repro.insert("chdb-disp", if db == "chdb-disp" { base } else { other });
        if db == "chdb" {
            main += 1
        } else {
            disp += 1
        }
        if base < threshold {
            low += 1;
        }
        partition.insert(
            q.trace_id.clone(),
            Partition {
                db,
                baseline_repro: base,
                repro,
            },
        );
    }
    let note = |s| [("note", s)].into_iter().collect::<IndexMap<_, _>>();
    Manifest {
        schema_version: 2,
        threshold,
        default_db: "chdb",
        dbs: [
            ("chdb", note("synthetic board commit (majority epoch)")),
            (
                "chdb-disp",
                note("synthetic disposition/CRM re-annotation epoch"),
            ),
        ]
        .into_iter()
        .collect(),
        engine: [
            ("version", "26.3.9.1"),
            ("session_timezone", "Europe/Berlin"),
        ]
        .into_iter()
        .collect(),
        skip_unstable_queries: false,
        inputs: [
            ("results_sha256", results_sha256.to_owned()),
            ("annotated_sha256", sha256_hex(annotated)),
        ]
        .into_iter()
        .collect(),
        summary: [("chdb", main), ("chdb-disp", disp), ("low_confidence", low)]
            .into_iter()
            .collect(),
        partition,
    }
}
