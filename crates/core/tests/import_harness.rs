//! Importing a hand-written harness corpus (tests/data/import) with every accepted variant.

mod common;

use common::{dev_corpus_files, input};
use runlens_core::bundle::{Outcome, UniverseSource};
use runlens_core::import::{ImportOptions, Imported, InputFile, import_files};

fn import_dev(extra: Vec<InputFile>, opts: &ImportOptions) -> Imported {
    let mut files = dev_corpus_files();
    files.extend(extra);
    import_files(&files, opts).expect("the dev corpus imports")
}

#[test]
fn annotated_rows_keep_gold_exclusions_and_extra_fields() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let corpus = &imported.bundle.body.corpora[0];
    assert_eq!(corpus.name, "dev");
    let ids: Vec<&str> = corpus
        .questions
        .iter()
        .map(|q| q.trace_id.as_str())
        .collect();
    assert_eq!(ids, ["q1", "q2", "q3"]);
    let q1 = &corpus.questions[0];
    assert_eq!(q1.extra["split"], "mart-only");
    assert_eq!(q1.agreers, ["claude-sonnet", "gpt-4.1"]);
    let ann = &q1.annotators.as_ref().unwrap()["gpt-4.1"];
    assert_eq!((ann.turns, ann.latency), (Some(2), Some(3.25)));
    // gt_sql written as one string: one statement, flagged.
    let q2 = &corpus.questions[1];
    assert_eq!(q2.gt_sql.len(), 1);
    assert!(q2.gt_sql_was_string);
    assert!(q2.annotators.is_none());
    let q3 = &corpus.questions[2];
    assert!(q3.excluded && !q3.is_usable());
    assert_eq!(q3.gt_from, None);
    assert!(q3.annotators.as_ref().unwrap().is_empty());
}

#[test]
fn a_later_duplicate_result_row_replaces_the_earlier_in_place() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let corpus = &imported.bundle.body.corpora[0];
    let ids: Vec<&str> = corpus.results.iter().map(|r| r.trace_id.as_str()).collect();
    assert_eq!(ids, ["q2", "q1"]);
    let q2_gpt = corpus.cell("q2", "gpt-4.1").unwrap();
    assert_eq!(q2_gpt.error.as_deref(), Some("max turns (60)"));
    assert_eq!(q2_gpt.turns, Some(60));
    assert_eq!(corpus.models, ["gpt-4.1", "kimi-k3", "glm-5.2"]);
}

#[test]
fn null_cells_stay_null_and_missing_cells_stay_missing() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let corpus = &imported.bundle.body.corpora[0];
    let q1 = &corpus.results[1];
    assert_eq!(q1.candidates.get("glm-5.2"), Some(&None));
    assert_eq!(corpus.results[0].candidates.get("glm-5.2"), None);
    // 2 cells on q2 + 2 non-null cells on q1.
    assert_eq!(corpus.cell_count(), 2 + 2);
    assert_eq!(corpus.cells().count(), 4);
}

#[test]
fn votes_usage_and_legacy_outcomes_are_kept_as_read() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let corpus = &imported.bundle.body.corpora[0];
    let cell = corpus.cell("q1", "gpt-4.1").unwrap();
    let score = cell.result_score.as_ref().unwrap();
    assert_eq!(score.outcome, Some(Outcome::Pass));
    assert_eq!(score.tally.as_ref().unwrap()["pass"], 2);
    let votes = score.votes.as_ref().unwrap();
    assert_eq!(votes.len(), 3);
    assert_eq!(votes[1].judge.as_deref(), Some("kimi"));
    assert_eq!(cell.latency, Some(41.27));
    let usage = cell.usage.as_ref().unwrap();
    assert_eq!(usage.per_turn.as_ref().unwrap()[1], [8100, 400, 0, 3673, 0]);
    assert_eq!(usage.calls_missing_usage(), Some(3));
    assert_eq!(usage.total_tokens(), Some(64703));

    let errored = corpus.cell("q1", "kimi-k3").unwrap();
    assert_eq!((errored.usage.as_ref(), errored.latency), (None, None));
    assert_eq!(errored.outcome(), Some(&Outcome::Error));

    let legacy = corpus.cell("q2", "kimi-k3").unwrap();
    assert_eq!(legacy.outcome(), Some(&Outcome::Loss));
    let votes = legacy
        .result_score
        .as_ref()
        .unwrap()
        .votes
        .as_ref()
        .unwrap();
    assert_eq!(votes[0].outcome, None);
    assert_eq!(votes[0].effective_outcome(), Some(Outcome::Fail));
    assert_eq!(votes[1].effective_outcome(), Some(Outcome::Pass));
    // A non-string result is stored as its compact JSON text.
    assert_eq!(legacy.sql_results, [r#"{"plan":"growth"}"#]);
    assert_eq!(legacy.extra["bench_version"], "monolithic");
}

#[test]
fn jev_rows_attach_to_the_corpus_and_problems_become_warnings() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let corpus = &imported.bundle.body.corpora[0];
    let ranked: Vec<&str> = corpus
        .rankings
        .iter()
        .map(|r| r.trace_id.as_str())
        .collect();
    assert_eq!(ranked, ["q2", "q1"]);
    assert_eq!(corpus.rankings[0].extra["ndcg@10"], 1.0);
    assert_eq!(
        corpus.rankings[0].scores().get("crm.dim_account"),
        Some(0.8812)
    );
    assert_eq!(corpus.failure_labels.len(), 2);
    assert_eq!(corpus.failure_labels[1].family_confidence, None);
    let checks = corpus.failure_labels[0].checks.as_ref().unwrap();
    assert_eq!(checks.decidable["default_to_usage_mart"], "violation");
    assert_eq!(corpus.fm_labels.len(), 2);
    assert_eq!(corpus.gate_rows.len(), 2);
    assert!(corpus.gate_rows[1].is_error());
    assert_eq!(corpus.gate_rows[0].baseline_usage, None);
    assert_eq!(
        corpus.gate_rows[0]
            .gated_usage
            .as_ref()
            .unwrap()
            .api_calls(),
        Some(6)
    );
    assert_eq!(corpus.board_manifest.as_ref().unwrap()["schema_version"], 2);

    let got: Vec<(&str, Option<usize>, &str)> = imported
        .warnings
        .iter()
        .map(|w| (w.file.as_str(), w.line, w.kind.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("dev/results.jsonl", Some(3), "non_string_item"),
            ("dev/results.jsonl", Some(3), "duplicate_row"),
            ("dev/fm_labels.jsonl", None, "label_for_unknown_cell"),
            ("out/schema_retrieval.jsonl", Some(3), "unknown_question"),
            (
                "out/failure_labels.jsonl",
                Some(2),
                "label_for_unknown_cell"
            ),
        ]
    );
    assert_eq!(imported.bundle.body.warnings, imported.warnings);
}

#[test]
fn universe_comes_from_the_ranking_rows_without_a_prompt() {
    let imported = import_dev(vec![], &ImportOptions::default());
    let body = &imported.bundle.body;
    assert_eq!(body.universe_source, UniverseSource::RankingRows);
    assert_eq!(
        body.universe,
        [
            "crm.dim_account",
            "crm.fct_opportunity",
            "crm.fct_support_case",
            "marts.usage_daily"
        ]
    );
    assert_eq!(body.namespaces, ["crm", "marts"]);
}

#[test]
fn universe_comes_from_the_harness_example_schema_prompt() {
    // harness-formats.md §5.1: the saas universe is these 4 tables.
    let schema = input("harness-examples/saas/schema.md", "schema.md");
    let files = vec![
        schema,
        input("import/dev/annotated.jsonl", "dev/annotated.jsonl"),
    ];
    let imported = import_files(&files, &ImportOptions::default()).unwrap();
    let body = &imported.bundle.body;
    assert_eq!(body.universe_source, UniverseSource::SchemaPrompt);
    assert_eq!(
        body.universe,
        [
            "crm.dim_account",
            "crm.fct_opportunity",
            "crm.fct_support_case",
            "marts.usage_daily"
        ]
    );
    assert_eq!(body.namespaces, ["crm", "marts"]);
    assert_eq!(body.schema_prompt.as_ref().unwrap().file_name, "schema.md");
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);

    // Explicit namespaces restrict the matcher.
    let opts = ImportOptions {
        namespaces: Some(vec!["marts".into()]),
        ..ImportOptions::default()
    };
    let only_marts = import_files(&files, &opts).unwrap();
    assert_eq!(only_marts.bundle.body.universe, ["marts.usage_daily"]);
    assert_eq!(only_marts.bundle.body.namespaces, ["marts"]);
}

#[test]
fn display_names_default_to_the_board_table_and_can_be_overridden() {
    let mut opts = ImportOptions::default();
    opts.display_names
        .insert("kimi-k3".into(), "Kimi (ours)".into());
    let imported = import_dev(vec![], &opts);
    let names: Vec<(&str, &str)> = imported
        .bundle
        .body
        .models
        .iter()
        .map(|m| (m.key.as_str(), m.display_name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("gpt-4.1", "GPT-4.1"),
            ("kimi-k3", "Kimi (ours)"),
            ("glm-5.2", "GLM-5.2")
        ]
    );
}

#[test]
fn synthetic_notice_rules_and_provenance() {
    let notice = InputFile {
        path: "SYNTHETIC.md".into(),
        bytes: b"# Synthetic data\n\nInvented by runlens synth.\n".to_vec(),
    };
    let rules = input(
        "harness-examples/config/rules.example.yaml",
        "config/rules.example.yaml",
    );
    let opts = ImportOptions {
        runlens_version: "0.1.0".into(),
        created_at: "2026-12-02T12:00:00Z".into(),
        ..ImportOptions::default()
    };
    let imported = import_dev(vec![notice, rules], &opts);
    let bundle = &imported.bundle;
    assert!(bundle.body.synthetic);
    assert_eq!(bundle.body.notice.as_deref(), Some("Synthetic data"));
    assert_eq!(bundle.body.rules.as_ref().unwrap().decidable_rules.len(), 3);
    let inputs = &bundle.provenance.inputs;
    assert_eq!(inputs.len(), 9);
    assert_eq!(inputs[7].name, "SYNTHETIC.md");
    // "# Synthetic data\n" + "\n" + "Invented by runlens synth.\n"
    assert_eq!(inputs[7].size, 17 + 1 + 27);
    assert_eq!(bundle.provenance.created_at, "2026-12-02T12:00:00Z");
    // Provenance is not hashed: a different time gives the same content hash.
    let later = ImportOptions {
        created_at: "2027-01-01T00:00:00Z".into(),
        ..opts
    };
    let again = import_dev(
        vec![
            InputFile {
                path: "SYNTHETIC.md".into(),
                bytes: b"# Synthetic data\n\nInvented by runlens synth.\n".to_vec(),
            },
            input(
                "harness-examples/config/rules.example.yaml",
                "config/rules.example.yaml",
            ),
        ],
        &later,
    );
    assert_eq!(again.bundle.content_hash, bundle.content_hash);
}

#[test]
fn input_sha256_is_the_standard_digest() {
    // FIPS 180-2 test vector: sha256("abc").
    let files = vec![InputFile {
        path: "notes/abc.txt".into(),
        bytes: b"abc".to_vec(),
    }];
    let imported = import_files(&files, &ImportOptions::default()).unwrap();
    assert_eq!(
        imported.bundle.provenance.inputs[0].sha256,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(imported.warnings[0].kind, "unrecognised_file");
}

#[test]
fn jev_files_alone_make_one_corpus_named_after_their_folder() {
    let files = vec![input(
        "import/out/schema_retrieval.jsonl",
        "out/schema_retrieval.jsonl",
    )];
    let imported = import_files(&files, &ImportOptions::default()).unwrap();
    let body = &imported.bundle.body;
    assert_eq!(body.corpora.len(), 1);
    assert_eq!(body.corpora[0].name, "out");
    assert_eq!(body.corpora[0].rankings.len(), 3);
    assert!(imported.warnings.is_empty());
}

#[test]
fn two_corpora_side_by_side_share_one_jev_folder() {
    let mut files = dev_corpus_files();
    files.push(InputFile {
        path: "board/results.jsonl".into(),
        bytes: br#"{"trace_id": "b1", "candidates": {"opus48": {"turns": 4, "result_score": {"outcome": "pass"}}}}"#.to_vec(),
    });
    files.push(InputFile {
        path: "extra/failure_labels.jsonl".into(),
        bytes: br#"{"trace_id": "b1", "model": "opus48", "sub_mode": "wrong_join"}"#.to_vec(),
    });
    let imported = import_files(&files, &ImportOptions::default()).unwrap();
    let body = &imported.bundle.body;
    let names: Vec<&str> = body.corpora.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["dev", "board"]);
    assert_eq!(body.corpora[1].failure_labels.len(), 1);
    assert_eq!(body.display_name("opus48"), "Claude Opus 4.8");
    let s = body.summary();
    assert_eq!(
        (s.corpora, s.questions, s.result_rows, s.cells, s.models),
        (2, 3, 3, 5, 4)
    );
    assert_eq!(
        (s.failure_labels, s.fm_labels, s.rankings, s.gate_rows),
        (3, 2, 2, 2)
    );
}
