//! Browser tests of the trajectory viewer (headless Chromium via wasm-bindgen-test-runner),
//! on a hand-made bundle full of hostile strings that must show as text and never run.

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Checks, Corpus, FailureLabel, FmLabel, GateRow, Outcome, Provenance,
    Question, RankingRow, ResultRow, ResultScore, Usage, UsageCounts, Vote,
};
use runlens_web::pages::{RankingView, TrajectoryView};
use runlens_web::state::{FailuresParams, RankingParams, TrajectoryParams};
use runlens_web::state::{Tab, UrlState, ViewState};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

use crate::relabel_fixture::settle;

const HOSTILE: &str = "<img src=x onerror=alert(1)>";

fn vote(judge: &str, verdict: &str, outcome: Outcome, reason: &str) -> Vote {
    Vote {
        judge: Some(judge.into()),
        verdict: Some(verdict.into()),
        outcome: Some(outcome),
        reasoning: Some(reason.into()),
        ..Vote::default()
    }
}

fn cell(outcome: Outcome, sqls: &[&str], results: &[&str], votes: Vec<Vote>) -> Option<Cell> {
    let tally = votes.iter().filter_map(|v| v.outcome.clone()).fold(
        Vec::<(String, u32)>::new(),
        |mut acc, o| {
            match acc.iter_mut().find(|(k, _)| k == o.as_str()) {
                Some((_, n)) => *n += 1,
                None => acc.push((o.as_str().to_owned(), 1)),
            }
            acc
        },
    );
    Some(Cell {
        sqls: sqls.iter().map(|s| s.to_string()).collect(),
        sql_results: results.iter().map(|s| s.to_string()).collect(),
        final_answer: Some(format!("The answer is {HOSTILE}")),
        turns: Some(3),
        latency: Some(1.5),
        result_score: Some(ResultScore {
            outcome: Some(outcome),
            tally: Some(Box::new(tally.into_iter().collect())),
            votes: Some(votes),
            ..ResultScore::default()
        }),
        usage: Some(
            Usage::from(UsageCounts {
                total_tokens: Some(380),
                ..UsageCounts::default()
            })
            .with_per_turn(vec![[100, 50, 10, 0, 0], [200, 20, 0, 10, 0]]),
        ),
        ..Cell::default()
    })
}

fn label(model: &str, trace: &str, probs: bool) -> FailureLabel {
    let mut l = FailureLabel {
        trace_id: trace.into(),
        model: model.into(),
        outcome: Some(Outcome::Fail),
        sub_mode: Some("wrong_table".into()),
        sub_mode_confidence: Some(0.6),
        family: Some("schema".into()),
        family_confidence: Some(0.75),
        prevented_by_rule: Some("none".into()),
        prevented_by_rule_confidence: Some(0.8),
        schema_hint_would_help: Some(0.4),
        correct_despite_fail: Some(0.1),
        checks: Some(Checks {
            decidable: [("reference_date".to_string(), "violation".to_string())]
                .into_iter()
                .collect(),
            n_queries: Some(3),
            has_repeated_query: Some(false),
            ..Checks::default()
        }),
        ..FailureLabel::default()
    };
    if probs {
        l.extra.insert(
            "sub_mode_probabilities".into(),
            serde_json::json!({"wrong_join": 0.3, "wrong_table": 0.6, "wrong_grain": 0.1}),
        );
    }
    l
}

/// Corpus `dev`: q1 (m1 fail, m2 pass), q2 (m1 fail, m2 fail); labels in the order
/// m1/q1, m2/q2, m1/q2, so the failures list is exactly that.
fn bundle() -> Bundle {
    let m1_q1 = cell(
        Outcome::Fail,
        &[
            &format!("SELECT n FROM crm.accounts JOIN crm.cases ON 1 -- {HOSTILE}"),
            "SELECT bad FROM crm.cases",
            "SELECT 1 FROM crm.cases WHERE 0",
        ],
        &[
            &format!("{{\"n\":\"{HOSTILE}\",\"k\":2}}\n{{\"n\":\"7\"}}"),
            &format!("Error: Unknown identifier {HOSTILE}"),
            "(empty result)",
        ],
        vec![
            vote(
                "judge-a",
                "not_equivalent",
                Outcome::Fail,
                &format!("Counts differ {HOSTILE}"),
            ),
            vote("judge-b", "equivalent", Outcome::Pass, "Same rows"),
        ],
    );
    let simple = |o: Outcome| cell(o, &["SELECT 2"], &["{\"x\":2}"], vec![]);
    let corpus = Corpus {
        name: "dev".into(),
        questions: vec![Question {
            trace_id: "q1".into(),
            nl_question: format!("How many open cases {HOSTILE}?"),
            gt_from: Some("ann".into()),
            gt_sql: vec!["SELECT count(*) AS n FROM crm.cases WHERE status = 'open'".into()],
            gt_results: vec!["{\"n\":3}".into()],
            gt_answer: "3".into(),
            ..Question::default()
        }],
        results: vec![
            ResultRow {
                trace_id: "q1".into(),
                candidates: [("m1".into(), m1_q1), ("m2".into(), simple(Outcome::Pass))]
                    .into_iter()
                    .collect(),
                ..ResultRow::default()
            },
            ResultRow {
                trace_id: "q2".into(),
                nl_question: Some("Second question".into()),
                candidates: [
                    ("m1".into(), simple(Outcome::Fail)),
                    ("m2".into(), simple(Outcome::Fail)),
                ]
                .into_iter()
                .collect(),
                ..ResultRow::default()
            },
        ],
        models: vec!["m1".into(), "m2".into()],
        rankings: vec![RankingRow {
            trace_id: "q1".into(),
            gold: vec!["crm.cases".into()],
            ranked: vec!["crm.cases".into(), "crm.accounts".into()],
            scores: [("crm.cases".into(), 0.91), ("crm.accounts".into(), 0.12)]
                .into_iter()
                .collect(),
            ..RankingRow::default()
        }],
        failure_labels: vec![
            label("m1", "q1", true),
            label("m2", "q2", false),
            label("m1", "q2", false),
        ],
        fm_labels: vec![FmLabel {
            trace_id: "q1".into(),
            model: "m1".into(),
            fm: "FM3".into(),
            reason: Some(format!("Read the wrong table {HOSTILE}")),
            ..FmLabel::default()
        }],
        gate_rows: vec![GateRow {
            trace_id: "q1".into(),
            model: "m1".into(),
            topk: Some(vec!["crm.cases".into(), "crm.accounts".into()]),
            fired: Some(1),
            gold: Some(vec!["crm.cases".into()]),
            missed_gold: Some(vec![]),
            missed_now_queried: Some(vec![]),
            baseline_outcome: Some(Outcome::Fail),
            gated_outcome: Some(Outcome::Pass),
            ..GateRow::default()
        }],
        ..Corpus::default()
    };
    let body = BundleBody {
        namespaces: vec!["crm".into()],
        corpora: vec![corpus],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

fn open(model: &str, trace: &str, from: Option<&str>) -> ViewState {
    ViewState {
        tab: Tab::Trajectory,
        corpus: Some("dev".into()),
        trajectory: TrajectoryParams {
            model: Some(model.into()),
            trace: Some(trace.into()),
            from: from.map(str::to_owned),
            ..TrajectoryParams::default()
        },
        ..ViewState::default()
    }
}

fn mount(state: ViewState) -> (web_sys::HtmlElement, UrlState) {
    let doc = document();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let url = UrlState::detached(state);
    let b = Arc::new(bundle());
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(url);
        view! { <TrajectoryView bundle=b.clone() /> }
    }));
    (host, url)
}

fn texts(host: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

fn attr(host: &web_sys::HtmlElement, selector: &str, name: &str) -> Option<String> {
    host.query_selector(selector)
        .unwrap()
        .and_then(|e| e.get_attribute(name))
}

/// Dispatches a bubbling `keydown` of `key` on `target`.
fn press(target: &JsValue, key: &str) {
    let f = js_sys::Function::new_with_args(
        "t, k",
        "t.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, cancelable: true}))",
    );
    f.call2(&JsValue::NULL, target, &JsValue::from_str(key))
        .unwrap();
}

/// Opening a cell is two tasks once its answer is in: the header with the answer, the runs
/// (and everything below them) in the next task.
#[wasm_bindgen_test]
async fn the_runs_mount_in_the_task_after_the_header() {
    let (host, _) = mount(open("m1", "q1", Some("failures")));
    assert_eq!(
        texts(&host, "[data-testid='trajectory-loading']"),
        ["Loading the trajectory…"]
    );
    // Before the list is answered its length is unknown: not "– / 0" (a list without the cell).
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["… / …"]
    );
    for _ in 0..100 {
        if !texts(&host, "[data-testid='trajectory-outcome']").is_empty() {
            break;
        }
        leptos::task::tick().await;
    }
    assert_eq!(texts(&host, "[data-testid='trajectory-outcome']"), ["fail"]);
    assert!(host.query_selector(".runs").unwrap().is_none());
    settle().await;
    assert_eq!(
        host.query_selector_all(".runs [data-run]")
            .unwrap()
            .length(),
        2
    );
}

#[wasm_bindgen_test]
async fn header_votes_sql_tables_and_results_render_as_text() {
    let (host, _) = mount(open("m1", "q1", Some("failures")));
    settle().await;
    let root = "[data-testid='trajectory-view']";
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m1/q1")
    );
    assert_eq!(
        texts(&host, "[data-testid='trajectory-question']"),
        [format!("How many open cases {HOSTILE}?")]
    );
    assert_eq!(texts(&host, "[data-testid='trajectory-outcome']"), ["fail"]);
    assert_eq!(
        texts(&host, "[data-testid='trajectory-tally']"),
        ["(fail 1 · pass 1)"]
    );
    assert_eq!(
        texts(&host, "li.vote"),
        [
            format!("judge-a: not_equivalent (fail) — Counts differ {HOSTILE}"),
            "judge-b: equivalent (pass) — Same rows".to_owned(),
        ]
    );
    // Highlighting: the first candidate statement starts with a keyword; the comment
    // carrying the hostile text is one comment span.
    let cand = "[data-run='candidate'] li.step[data-step='0']";
    assert_eq!(texts(&host, &format!("{cand} .tok"))[0], "SELECT");
    assert_eq!(
        attr(&host, &format!("{cand} .tok"), "class").as_deref(),
        Some("tok tok-keyword")
    );
    assert_eq!(
        texts(&host, &format!("{cand} .tok-comment")),
        [format!("-- {HOSTILE}")]
    );
    assert_eq!(texts(&host, "[data-run='gold'] .tok-string"), ["'open'"]);
    // Tables: crm.cases is gold and ranked 1st (P 0.91), crm.accounts not gold, 2nd.
    assert_eq!(
        texts(&host, &format!("{cand} .table-mark .mark")),
        [
            "not gold · rank 2 · P(yes) 0.1200",
            "gold · rank 1 · P(yes) 0.9100"
        ]
    );
    assert_eq!(
        attr(&host, &format!("{cand} .table-mark.gold"), "data-table").as_deref(),
        Some("crm.cases")
    );
    assert_eq!(
        attr(&host, &format!("{cand} .table-mark.not-gold"), "data-rank").as_deref(),
        Some("2")
    );
    // Results: a table with a missing cell, an error, the empty result; gold beside.
    assert_eq!(texts(&host, &format!("{cand} table.result th")), ["n", "k"]);
    assert_eq!(
        texts(&host, &format!("{cand} table.result td")),
        [HOSTILE, "2", "7", "—"]
    );
    assert_eq!(
        texts(
            &host,
            "[data-run='candidate'] li.step[data-step='1'] [data-result='error']"
        ),
        [format!("Error: Unknown identifier {HOSTILE}")]
    );
    assert_eq!(
        texts(
            &host,
            "[data-run='candidate'] li.step[data-step='2'] [data-result='empty']"
        ),
        ["(empty result)"]
    );
    assert_eq!(texts(&host, "[data-run='gold'] table.result td"), ["3"]);
    assert_eq!(
        texts(&host, "[data-testid='final-answer']"),
        [format!("The answer is {HOSTILE}")]
    );
    // Told as a story: the run's queries, what it spent, its final answer, then the judges'
    // verdict; the gold SQL beside it.
    assert_eq!(
        texts(&host, ".story h4"),
        [
            "m1's run: 3 queries in 3 turns",
            "What it spent",
            "Final answer",
            "The judges' verdict: fail (fail 1 · pass 1)"
        ]
    );
    assert_eq!(
        texts(&host, ".gold-beside [data-run='gold'] h4"),
        ["Gold (ann)"]
    );
    // Recorded checks (no rules config), label bars largest first, FM, gate, slot.
    assert_eq!(
        texts(&host, "[data-rule='reference_date'] td.verdict"),
        ["violation"]
    );
    let bars = host.query_selector_all(".prob-bar").unwrap();
    assert_eq!(bars.length(), 3);
    assert_eq!(
        attr(&host, ".prob-bar", "data-sub-mode").as_deref(),
        Some("wrong_table")
    );
    assert!(
        texts(&host, "[data-testid='fm-label']")[0]
            .contains(&format!("FM3 — Read the wrong table {HOSTILE}"))
    );
    assert_eq!(
        attr(&host, "[data-testid='gate-details']", "data-fired").as_deref(),
        Some("true")
    );
    assert!(
        host.query_selector("#traj-label:has([data-testid='jev-label']) + #traj-relabel > [data-testid='relabel-slot']")
            .unwrap()
            .is_some()
    );
    // Nothing hostile became an element.
    assert!(host.query_selector("img").unwrap().is_none());
    assert!(document().query_selector("img[src=x]").unwrap().is_none());
}

/// Issue 17, bug 1: a trajectory opened from a filtered failures list walked every failure
/// of the corpus ("2 / 277", `j` to a failure the filter left out) although the address
/// still carried the filter.
/// #17, in-page navigation: a button per section of the open cell, each scrolling to an
/// element of the view (the gate's only for a cell with a gate row), focus moved there.
#[wasm_bindgen_test]
async fn the_section_buttons_name_the_sections_shown() {
    let nav = crate::page_nav::items;
    let (host, _) = mount(open("m1", "q1", Some("failures")));
    settle().await;
    let labels = crate::page_nav::labels_of_shown_sections(&host);
    assert_eq!(
        labels,
        [
            "The run",
            "What it spent",
            "Answer and verdict",
            "Rule checks",
            "Jev label",
            "Re-label",
            "FM label",
            "Gate"
        ]
    );
    // A click moves the keyboard focus to its section.
    assert_eq!(
        crate::page_nav::click_and_focused(&host, "traj-gate"),
        "traj-gate"
    );
    // m1/q2 has no gate row: no gate button.
    let (host, _) = mount(open("m1", "q2", Some("failures")));
    settle().await;
    let targets: Vec<String> = nav(&host).into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets.len(), 7);
    assert!(!targets.contains(&"traj-gate".to_owned()));
}

#[wasm_bindgen_test]
async fn j_k_walk_the_failures_list_the_reader_came_from() {
    // m1's wrong_table failures (a heatmap cell): m1/q1 and m1/q2, not m2/q2.
    let (host, url) = mount(ViewState {
        failures: FailuresParams {
            filter: Some("sub_mode:wrong_table|model:m1".into()),
            ..FailuresParams::default()
        },
        ..open("m1", "q1", Some("failures"))
    });
    settle().await;
    let doc: JsValue = document().into();
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 2"]
    );
    assert_eq!(
        texts(&host, "[data-testid='trajectory-list']"),
        [" in failures · wrong_table of m1"]
    );
    press(&doc, "j");
    settle().await;
    assert_eq!(
        url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone())),
        (Some("m1".into()), Some("q2".into()))
    );
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["2 / 2"]
    );
    // The filters stay in the address.
    assert_eq!(
        url.with_untracked(|s| s.failures.filter.clone()).as_deref(),
        Some("sub_mode:wrong_table|model:m1")
    );
    // A model filter of the failures view (models=m2): one failure.
    let (host, _) = mount(ViewState {
        models: vec!["m2".into()],
        ..open("m2", "q2", Some("failures"))
    });
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 1"]
    );
    assert_eq!(
        texts(&host, "[data-testid='trajectory-list']"),
        [" in failures · models: m2"]
    );
}

#[wasm_bindgen_test]
async fn j_k_walk_the_failures_and_g_toggles_the_diff() {
    let (host, url) = mount(open("m1", "q1", Some("failures")));
    settle().await;
    let doc: JsValue = document().into();
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 3"]
    );
    press(&doc, "j");
    settle().await;
    // The second failure is m2 on q2.
    assert_eq!(
        url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone())),
        (Some("m2".into()), Some("q2".into()))
    );
    let root = "[data-testid='trajectory-view']";
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m2/q2")
    );
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["2 / 3"]
    );
    // m2/q2's label has no probabilities: only the chosen sub-mode, said so.
    assert_eq!(host.query_selector_all(".prob-bar").unwrap().length(), 1);
    assert!(texts(&host, "[data-testid='jev-label']")[0].contains("Only the chosen sub-mode"));
    press(&doc, "j");
    settle().await;
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m1/q2")
    );
    // At the end: j stays.
    press(&doc, "j");
    settle().await;
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m1/q2")
    );
    press(&doc, "k");
    press(&doc, "k");
    settle().await;
    assert_eq!(
        url.with_untracked(|s| s.trajectory.trace.clone())
            .as_deref(),
        Some("q1")
    );
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m1/q1")
    );
    // g shows the diff (gold statement deleted, candidate statements inserted), g hides it.
    assert!(
        host.query_selector("[data-testid='sql-diff']")
            .unwrap()
            .is_none()
    );
    press(&doc, "g");
    settle().await;
    assert!(url.with_untracked(|s| s.trajectory.diff));
    assert_eq!(
        texts(&host, ".diff-delete"),
        ["- SELECT count(*) AS n FROM crm.cases WHERE status = 'open'"]
    );
    assert!(texts(&host, ".diff-insert").contains(&"+ SELECT 1 FROM crm.cases WHERE 0".to_owned()));
    press(&doc, "g");
    settle().await;
    assert!(!url.with_untracked(|s| s.trajectory.diff));
    assert!(
        host.query_selector("[data-testid='sql-diff']")
            .unwrap()
            .is_none()
    );
    // ? opens the help as a modal dialog (focus inside, the page inert), j does nothing
    // while it is open, Escape closes it.
    let help = || -> web_sys::HtmlDialogElement {
        host.query_selector("dialog[data-testid='trajectory-help']")
            .unwrap()
            .unwrap()
            .unchecked_into()
    };
    assert!(!help().open());
    press(&doc, "?");
    settle().await;
    assert!(help().open());
    assert!(help().matches(":modal").unwrap());
    let before = attr(&host, root, "data-trajectory");
    press(&doc, "j");
    settle().await;
    assert_eq!(attr(&host, root, "data-trajectory"), before);
    press(&doc, "Escape");
    settle().await;
    assert!(!help().open());
    // Keys typed into a field are ignored.
    let input = document().create_element("input").unwrap();
    host.append_child(&input).unwrap();
    press(&input.clone().into(), "j");
    settle().await;
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m1/q1")
    );
    // The Next button walks too.
    let next: web_sys::HtmlElement = host
        .query_selector("[data-testid='trajectory-next']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    next.click();
    settle().await;
    assert_eq!(
        attr(&host, root, "data-trajectory").as_deref(),
        Some("m2/q2")
    );
}

#[wasm_bindgen_test]
async fn question_list_walks_models_and_unknown_cells_say_so() {
    let (host, _) = mount(open("m1", "q2", Some("question")));
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 2"]
    );
    // q2 has no annotated question: the results row's copy is the title.
    assert_eq!(
        texts(&host, "[data-testid='trajectory-question']"),
        ["Second question"]
    );
    let (host, _) = mount(open("m9", "q1", None));
    settle().await;
    assert!(texts(&host, "[data-testid='trajectory-missing']")[0].contains("m9"));
    assert!(
        host.query_selector("[data-testid='trajectory-chooser']")
            .unwrap()
            .is_some()
    );
    let (host, url) = mount(ViewState {
        tab: Tab::Trajectory,
        ..ViewState::default()
    });
    settle().await;
    assert_eq!(
        attr(&host, "[data-testid='trajectory-view']", "data-trajectory").as_deref(),
        Some("")
    );
    // The chooser lists the first model's questions; a click opens the cell.
    let first: web_sys::HtmlElement = host
        .query_selector(".chooser-matches button")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        first.text_content().unwrap(),
        format!("How many open cases {HOSTILE}?")
    );
    // Each question with the model's outcome on it.
    assert_eq!(
        attr(&host, ".chooser-matches li", "data-outcome").as_deref(),
        Some("fail")
    );
    assert_eq!(
        texts(&host, ".chooser-matches li .chooser-outcome")[0],
        "fail"
    );
    // A search nothing matches says so; cleared, the questions come back.
    let search: web_sys::HtmlInputElement = host
        .query_selector(".trajectory-chooser input[type=search]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let search_for = |text: &str| {
        search.set_value(text);
        search
            .dispatch_event(&web_sys::Event::new("input").unwrap())
            .unwrap();
    };
    search_for("no such words");
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='chooser-none']"),
        ["No question of m1 matches “no such words”."]
    );
    assert!(
        host.query_selector(".chooser-matches button")
            .unwrap()
            .is_none()
    );
    search_for("");
    settle().await;
    assert!(texts(&host, "[data-testid='chooser-none']").is_empty());
    let first: web_sys::HtmlElement = host
        .query_selector(".chooser-matches button")
        .unwrap()
        .unwrap()
        .unchecked_into();
    first.click();
    settle().await;
    assert_eq!(
        url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone())),
        (Some("m1".into()), Some("q1".into()))
    );
    assert!(host.query_selector("img").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn audit_and_gate_lists() {
    // Every label has correct_despite_fail 0.1: at ct = 0.05 all three are in the audit
    // queue, ties ordered by model then trace: m1/q1, m1/q2, m2/q2.
    let (host, url) = mount(ViewState {
        failures: FailuresParams {
            cdf_threshold: 0.05,
            ..FailuresParams::default()
        },
        ..open("m1", "q1", Some("audit"))
    });
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 3"]
    );
    let next: web_sys::HtmlElement = host
        .query_selector("[data-testid='trajectory-next']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    next.click();
    settle().await;
    assert_eq!(
        url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone())),
        (Some("m1".into()), Some("q2".into()))
    );
    // At the default ct = 0.65 the queue is empty: the cell is not in it.
    let (host, _) = mount(open("m1", "q1", Some("audit")));
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["– / 0"]
    );
    // Only m1/q1 fired the gate.
    let (host, _) = mount(open("m1", "q1", Some("gate")));
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='trajectory-position']"),
        ["1 / 1"]
    );
    assert_eq!(texts(&host, "[data-arm='gated'] td")[1], "pass");
}

#[wasm_bindgen_test]
async fn the_ranking_question_panel_opens_each_models_trajectory() {
    let doc = document();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let url = UrlState::detached(ViewState {
        tab: Tab::Ranking,
        ranking: RankingParams {
            question: Some("q1".into()),
            ..RankingParams::default()
        },
        ..ViewState::default()
    });
    let b = Arc::new(bundle());
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(url);
        view! { <RankingView bundle=b.clone() /> }
    }));
    settle().await;
    assert_eq!(
        texts(&host, "[data-testid='question-cells'] button"),
        ["m1: fail", "m2: pass"]
    );
    let second: web_sys::HtmlElement = host
        .query_selector("[data-testid='question-cells'] button[data-model='m2']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    second.click();
    settle().await;
    assert_eq!(
        url.with_untracked(|s| (
            s.tab,
            s.corpus.clone(),
            s.trajectory.model.clone(),
            s.trajectory.trace.clone(),
            s.trajectory.from.clone()
        )),
        (
            Tab::Trajectory,
            Some("dev".into()),
            Some("m2".into()),
            Some("q1".into()),
            Some("question".into())
        )
    );
}

#[wasm_bindgen_test]
fn a_rules_config_is_compiled_once_while_it_stays_the_same() {
    use runlens_core::rules::RulesConfig;
    use runlens_web::derived::compiled_rules::compiled_rules;
    let yaml = "semantic_rules: {}\ndecidable_rules:\n  no_star:\n    description: no star\n    kind: forbidden_when\n    forbidden_regex: 'select\\s+\\*'\n";
    let a = RulesConfig::from_yaml_str(yaml, "rules.yaml").unwrap();
    let first = compiled_rules(&a);
    let again = compiled_rules(&a.clone());
    assert!(std::rc::Rc::ptr_eq(&first, &again));
    // The compiled rules check as the config says: `SELECT *` violates no_star.
    let checks = first
        .as_ref()
        .as_ref()
        .unwrap()
        .checks(&["SELECT * FROM crm.a".to_string()]);
    assert_eq!(checks.decidable["no_star"].as_str(), "violation");
    // Another config is compiled anew.
    let b = RulesConfig::from_yaml_str("semantic_rules: {}\ndecidable_rules: {}\n", "rules.yaml")
        .unwrap();
    assert!(!std::rc::Rc::ptr_eq(&first, &compiled_rules(&b)));
}

/// #17: the audit verdict keys work from the trajectory view when the failure is in the
/// audit queue: `a` records "grader wrong" in the audit view's store and moves on.
#[wasm_bindgen_test]
async fn audit_keys_record_a_verdict_from_the_trajectory_view() {
    use runlens_core::audit::{AuditLog, Verdict};
    use runlens_web::pages::audit::store;
    let b = bundle();
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage
        .remove_item(&store::storage_key(&b.content_hash))
        .unwrap();
    // Every label has correct_despite_fail 0.1: in the queue at ct = 0.05, not at 0.65.
    let (host, _) = mount(open("m1", "q1", Some("failures")));
    settle().await;
    assert!(
        host.query_selector("[data-testid='trajectory-audit']")
            .unwrap()
            .is_none()
    );
    let (host, url) = mount(ViewState {
        failures: FailuresParams {
            cdf_threshold: 0.05,
            ..FailuresParams::default()
        },
        ..open("m1", "q1", Some("audit"))
    });
    settle().await;
    let line = host
        .query_selector("[data-testid='trajectory-audit']")
        .unwrap()
        .unwrap();
    assert!(line.text_content().unwrap().contains("not decided yet"));
    let before = url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone()));
    press(&document().into(), "a");
    settle().await;
    let log = AuditLog::from_json(
        &storage
            .get_item(&store::storage_key(&b.content_hash))
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log.get("m1/q1").unwrap().verdict, Verdict::GraderWrong);
    // On to the next cell of the audit queue.
    assert_ne!(
        url.with_untracked(|s| (s.trajectory.model.clone(), s.trajectory.trace.clone())),
        before
    );
}
