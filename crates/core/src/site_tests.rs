use super::*;

fn model(key: &str, pass: Option<f64>, n: usize) -> RunModel {
    RunModel {
        model: key.to_owned(),
        display_name: None,
        n,
        pass,
        ci95: pass.map(|p| [p - 0.1, p + 0.1]),
    }
}

fn run(name: &str, corpora: Vec<(&str, usize, Vec<RunModel>)>) -> RunEntry {
    RunEntry {
        name: name.to_owned(),
        file: format!("bundles/{name}.zip"),
        created_at: String::new(),
        content_hash: "0".repeat(64),
        synthetic: true,
        corpora: corpora
            .into_iter()
            .map(|(name, questions, models)| RunCorpus {
                name: name.to_owned(),
                questions,
                models,
            })
            .collect(),
    }
}

fn index(runs: Vec<RunEntry>) -> RunIndex {
    RunIndex {
        format: SITE_FORMAT.to_owned(),
        runs,
    }
}

#[test]
fn trend_orders_models_by_their_newest_pass_rate_and_leaves_gaps() {
    let idx = index(vec![
        run(
            "r1",
            vec![(
                "dev",
                10,
                vec![model("m", Some(0.5), 10), model("k", Some(0.7), 9)],
            )],
        ),
        run("r2", vec![("other", 5, vec![model("m", Some(0.1), 5)])]),
        run(
            "r3",
            vec![(
                "dev",
                10,
                vec![model("m", Some(0.8), 10), model("z", None, 0)],
            )],
        ),
    ]);
    let t = trend(&idx, "dev");
    assert_eq!(t.runs, vec![0, 2]);
    let keys: Vec<&str> = t.models.iter().map(|m| m.model.as_str()).collect();
    // m's newest is 0.8 (r3), k's 0.7 (r1), z has none (last).
    assert_eq!(keys, ["m", "k", "z"]);
    assert_eq!(t.models[0].points[0].map(|p| p.pass), Some(0.5));
    assert_eq!(
        t.models[0].points[1].map(|p| (p.pass, p.n)),
        Some((0.8, 10))
    );
    assert_eq!(t.models[1].points[1], None);
    assert_eq!(t.models[2].points, vec![None, None]);
    assert_eq!(
        t.models[1].points[0].and_then(|p| p.ci95),
        Some([0.7 - 0.1, 0.7 + 0.1])
    );
}

#[test]
fn display_names_come_from_the_newest_run_that_names_the_model() {
    let mut old = model("m", Some(0.5), 1);
    old.display_name = Some("Old name".to_owned());
    let mut new = model("m", Some(0.6), 1);
    new.display_name = Some("New name".to_owned());
    let idx = index(vec![
        run("a", vec![("dev", 1, vec![old])]),
        run("b", vec![("dev", 1, vec![new])]),
        run("c", vec![("dev", 1, vec![model("m", Some(0.7), 1)])]),
    ]);
    assert_eq!(trend(&idx, "dev").models[0].name, "New name");
    assert_eq!(trend(&idx, "none").runs, Vec::<usize>::new());
}

#[test]
fn default_corpus_is_the_one_in_most_runs_then_the_largest() {
    let idx = index(vec![
        run("a", vec![("small", 5, vec![]), ("big", 50, vec![])]),
        run(
            "b",
            vec![
                ("small", 5, vec![]),
                ("big", 60, vec![]),
                ("rare", 900, vec![]),
            ],
        ),
    ]);
    assert_eq!(corpora(&idx), ["small", "big", "rare"]);
    assert_eq!(default_corpus(&idx).as_deref(), Some("big"));
    assert_eq!(default_corpus(&index(vec![])), None);
}

#[test]
fn parse_names_the_line_and_the_format() {
    let e = parse_index("{\"format\": \"runlens.site/1\",\n \"runs\": 3}").unwrap_err();
    assert!(
        e.to_string().starts_with("runs.json: line 2, column"),
        "{e}"
    );
    assert!(e.to_string().contains("expected a sequence"), "{e}");
    let e = parse_index("{\"format\": \"runlens.site/9\", \"runs\": []}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "runs.json: field `format`: `runlens.site/9`, expected `runlens.site/1`"
    );
    let ok = parse_index("{\"format\": \"runlens.site/1\", \"runs\": []}").unwrap();
    assert!(ok.runs.is_empty());
}

#[test]
fn an_index_without_display_names_still_reads_and_writes_none() {
    let text = r#"{"format":"runlens.site/1","runs":[{"name":"r","file":"bundles/r.zip",
        "created_at":"","content_hash":"","synthetic":false,"corpora":[{"name":"dev",
        "questions":1,"models":[{"model":"m","n":1,"pass":1.0,"ci95":null}]}]}]}"#;
    let idx = parse_index(text).unwrap();
    assert_eq!(idx.runs[0].corpora[0].models[0].display_name, None);
    let out = serde_json::to_string(&idx).unwrap();
    assert!(!out.contains("display_name"), "{out}");
}

#[test]
fn creation_times_read_as_utc_minutes() {
    assert_eq!(
        readable_time("2026-12-01T09:30:00Z"),
        "2026-12-01 09:30 UTC"
    );
    assert_eq!(
        readable_time("2026-12-01T09:30:00+02:00"),
        "2026-12-01T09:30:00+02:00"
    );
    assert_eq!(readable_time(""), "");
}
