//! The `large` scale test. Slow in debug builds, so ignored by default; run with
//! `cargo test -p runlens-synth --profile native --test large_preset -- --ignored`.

use runlens_synth::Preset;

#[test]
#[ignore = "writes ~490 MB; run explicitly in an optimised profile"]
fn large_has_710_tables_5000_questions_40_models_and_200000_cells() {
    let dir = tempfile::tempdir().expect("temp dir");
    let start = std::time::Instant::now();
    let s = runlens_synth::generate(Preset::Large, 1, &dir.path().join("large"))
        .expect("generate large");
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(s.tables, 710);
    assert_eq!(s.dev_questions + s.board_questions, 5000);
    assert_eq!(s.models, 40);
    assert_eq!(s.labelled_attempts, 4 * s.dev_questions);
    let results = std::fs::read_to_string(
        dir.path()
            .join("large/text2sqlbench-synthetic/results.jsonl"),
    )
    .expect("results");
    let mut cells = 0;
    let mut ids = std::collections::HashSet::new();
    for line in results.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("row");
        if ids.insert(row["trace_id"].as_str().unwrap_or("").to_string()) {
            cells += row["candidates"].as_object().map(|m| m.len()).unwrap_or(0);
        }
    }
    assert!(cells > 4000 * 40 * 99 / 100, "{cells}");
    assert!(secs < 60.0, "took {secs:.1} s");
}
