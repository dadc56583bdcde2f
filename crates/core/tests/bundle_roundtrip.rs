//! Bundle encoding: JSON and gzip round trips, content hash, format and error reporting.

mod common;

use runlens_core::bundle::{Bundle, BundleError, Outcome};
use runlens_core::import::{ImportOptions, import_files};

fn dev_bundle() -> Bundle {
    let opts = ImportOptions {
        runlens_version: "0.1.0".into(),
        created_at: "2026-12-02T12:00:00Z".into(),
        ..ImportOptions::default()
    };
    import_files(&common::dev_corpus_files(), &opts)
        .unwrap()
        .bundle
}

#[test]
fn json_and_gzip_round_trip_losslessly() {
    let bundle = dev_bundle();
    let json = bundle.to_json_vec();
    assert_eq!(Bundle::from_slice(&json).unwrap(), bundle);
    let gz = bundle.to_json_gz_vec();
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    assert!(gz.len() < json.len());
    assert_eq!(Bundle::from_slice(&gz).unwrap(), bundle);
    // Serialising again gives the same bytes (canonical form).
    assert_eq!(Bundle::from_slice(&json).unwrap().to_json_vec(), json);
}

#[test]
fn floats_survive_unrounded() {
    let mut bundle = dev_bundle();
    let row = &mut bundle.body.corpora[0].results[1];
    let cell = row.candidates.get_mut("gpt-4.1").unwrap().as_mut().unwrap();
    cell.latency = Some(0.1 + 0.2); // 0.30000000000000004
    let back = Bundle::from_slice(&bundle.to_json_vec()).unwrap();
    let cell = back.body.corpora[0].cell("q1", "gpt-4.1").unwrap();
    assert_eq!(cell.latency, Some(0.1 + 0.2));
    assert_ne!(cell.latency, Some(0.3));
}

#[test]
fn content_hash_covers_the_body_only() {
    let bundle = dev_bundle();
    assert_eq!(bundle.content_hash.len(), 64);
    bundle.verify_content_hash().unwrap();
    let mut other_time = bundle.clone();
    other_time.provenance.created_at = "2030-01-01T00:00:00Z".into();
    assert_eq!(other_time.body.content_hash(), bundle.content_hash);
    let mut edited = bundle.clone();
    edited.body.corpora[0].questions[0].gt_answer.push('!');
    let err = edited.verify_content_hash().unwrap_err();
    assert!(matches!(err, BundleError::HashMismatch { .. }), "{err}");
}

#[test]
fn the_format_tag_is_checked() {
    let mut bundle = dev_bundle();
    bundle.format = "runlens.bundle/2".into();
    let err = Bundle::from_slice(&bundle.to_json_vec()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bundle: unsupported format \"runlens.bundle/2\"; expected \"runlens.bundle/1\""
    );
    let err = Bundle::from_slice(br#"{"format": "something/9", "rows": []}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bundle: unsupported format \"something/9\"; expected \"runlens.bundle/1\""
    );
}

#[test]
fn json_errors_give_line_and_column() {
    let err =
        Bundle::from_slice(b"{\"format\": \"runlens.bundle/1\",\n \"provenance\": 3}").unwrap_err();
    match err {
        BundleError::Json {
            line,
            column,
            message,
        } => {
            assert_eq!((line, column), (2, 16));
            assert!(
                message.starts_with("invalid type: integer `3`, expected struct Provenance"),
                "{message}"
            );
        }
        other => panic!("unexpected {other}"),
    }
}

#[test]
fn a_bom_is_skipped_and_corrupt_gzip_is_reported() {
    let bundle = dev_bundle();
    let mut with_bom = vec![0xef, 0xbb, 0xbf];
    with_bom.extend(bundle.to_json_vec());
    assert_eq!(Bundle::from_slice(&with_bom).unwrap(), bundle);
    let gz = bundle.to_json_gz_vec();
    let err = Bundle::from_slice(&gz[..gz.len() / 2]).unwrap_err();
    assert!(matches!(err, BundleError::Gzip(_)), "{err}");
}

#[test]
fn outcomes_serialise_as_the_harness_strings() {
    let outcomes = [
        Outcome::Pass,
        Outcome::Loss,
        Outcome::Other("skipped".into()),
    ];
    let json = serde_json::to_string(&outcomes).unwrap();
    assert_eq!(json, r#"["pass","loss","skipped"]"#);
    let back: Vec<Outcome> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, outcomes);
}

#[test]
fn streamed_output_equals_the_in_memory_encodings() {
    let bundle = dev_bundle();
    let mut json = Vec::new();
    bundle.write_json(&mut json).unwrap();
    assert_eq!(json, bundle.to_json_vec());
    let mut gz = Vec::new();
    bundle.write_json_gz(&mut gz).unwrap();
    assert_eq!(Bundle::from_slice(&gz).unwrap(), bundle);
    // The gzip trailer's ISIZE (used to reserve the output) is the JSON length.
    let isize = u32::from_le_bytes(gz[gz.len() - 4..].try_into().unwrap());
    assert_eq!(isize as usize, json.len());
}
