//! The hand-made failure, the expected request, a fake Jev and DOM helpers for
//! tests/app/relabel.rs.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use indexmap::IndexMap;
use leptos::prelude::*;
use runlens_core::bundle::{
    Bundle, BundleBody, Cell, Corpus, FailureLabel, Outcome, Provenance, Question, ResultRow,
    ResultScore,
};
use runlens_core::jev::{Answer, SystemOneRequest, SystemOneResponse};
use runlens_core::metrics::failures::count_failures;
use runlens_core::metrics::failures_view::Labelled;
use runlens_core::overrides::{LabelOverride, OverridesFile, relabelled};
use runlens_core::rules::{DecidableRule, RuleKind, RulesConfig};
use runlens_core::trajectory::OpenedCell;
use runlens_web::api::{ApiError, SystemOneReply};
use runlens_web::pages::relabel::transport::LocalFuture;
use runlens_web::pages::relabel::{Jev, JevTransport, OverridesBar};
use runlens_web::state::{OverridesState, UrlState, ViewState, storage_key};
use serde_json::{Value, json};
use wasm_bindgen::JsCast;

thread_local! {
    /// The overrides state of the last mount.
    pub static STATE: RefCell<Option<OverridesState>> = const { RefCell::new(None) };
}

const CRM_JOIN: &str =
    "join the CRM dimension to the usage mart on tenant_id, rather than reading the mart alone";

pub fn label(trace: &str, sub_mode: &str, family: &str) -> FailureLabel {
    FailureLabel {
        trace_id: trace.into(),
        model: "gpt-4.1".into(),
        outcome: Some(Outcome::Fail),
        sub_mode: Some(sub_mode.into()),
        family: Some(family.into()),
        ..FailureLabel::default()
    }
}

/// ex-007's recorded label: wrong_table, correct_despite_fail 0.8 (in the audit queue at the
/// default threshold 0.65).
pub fn ex007_label() -> FailureLabel {
    FailureLabel {
        correct_despite_fail: Some(0.8),
        ..label("ex-007", "wrong_table", "schema_choice")
    }
}

/// One corpus `name`: ex-007 (wrong_table, the cell re-labelled) and ex-008 (wrong_join, no
/// correct_despite_fail).
pub fn bundle(name: &str) -> Bundle {
    let failed = |sqls: Vec<String>, results: Vec<String>| Cell {
        sqls,
        sql_results: results,
        final_answer: Some("41 seats".into()),
        turns: Some(3),
        result_score: Some(ResultScore {
            outcome: Some(Outcome::Fail),
            ..ResultScore::default()
        }),
        ..Cell::default()
    };
    let row = |trace: &str, cell: Cell| ResultRow {
        trace_id: trace.into(),
        nl_question: None,
        candidates: IndexMap::from([("gpt-4.1".into(), Some(cell))]),
        ..ResultRow::default()
    };
    let results = vec![
        "a".repeat(2005),
        r#"[{"n": 1}]"#.to_owned(),
        "b".repeat(2000),
    ];
    let corpus = Corpus {
        name: name.into(),
        questions: vec![Question {
            trace_id: "ex-007".into(),
            nl_question: "How many seats does Acme have?".into(),
            gt_sql: vec!["SELECT seats FROM crm.dim_account WHERE name = 'Acme'".into()],
            gt_answer: "42".into(),
            ..Question::default()
        }],
        results: vec![
            row(
                "ex-007",
                failed(vec!["SELECT now()".into(), "select  NOW()".into()], results),
            ),
            row("ex-008", failed(vec!["SELECT 2".into()], Vec::new())),
        ],
        models: vec!["gpt-4.1".into()],
        failure_labels: vec![
            ex007_label(),
            label("ex-008", "wrong_join", "query_construction"),
        ],
        ..Corpus::default()
    };
    let rules = RulesConfig {
        semantic_rules: IndexMap::from([("crm_join".to_owned(), CRM_JOIN.to_owned())]),
        decidable_rules: IndexMap::from([(
            "reference_date".to_owned(),
            DecidableRule {
                description: Some("use toDate('{snapshot_date}')".into()),
                kind: RuleKind::ForbiddenWhen {
                    forbidden_regex: r"\b(?:now|today|yesterday)\s*\(".into(),
                    ok_regex: Some(r"\btoDate(?:Time)?\s*\(".into()),
                },
            },
        )]),
    };
    let body = BundleBody {
        synthetic: true,
        rules: Some(rules),
        corpora: vec![corpus],
        ..BundleBody::default()
    };
    Bundle::new(Provenance::default(), body)
}

/// The request of harness-formats.md §7.4–7.5 for ex-007 (wording copied from there).
pub fn expected_request() -> Value {
    json!({
        "state": {
            "question": "How many seats does Acme have?",
            "reference_sql": ["SELECT seats FROM crm.dim_account WHERE name = 'Acme'"],
            "reference_answer": "42",
            "candidate_sqls": ["SELECT now()", "select  NOW()"],
            // 2,005 chars → the first 2,000 plus the mark; exactly 2,000 stays whole.
            "candidate_results": [format!("{} ...(truncated)", "a".repeat(2000)), "[{\"n\": 1}]", "b".repeat(2000)],
            "candidate_final_answer": "41 seats",
            "candidate_turns": 3,
            "candidate_error": null,
            // now( → violation; the two statements are equal after lower-casing and
            // collapsing whitespace.
            "mechanical_checks": {"decidable": {"reference_date": "violation"}, "n_queries": 2, "has_repeated_query": true}
        },
        "questions": {
            "sub_mode": {"type": "choice", "instructions": "Given the question, the reference SQL and answer, and the candidate's SQL, results, and final answer, pick the single most specific sub-mode for why the candidate failed. Its family is derived from your choice, so pick the sub-mode that fits best.", "criteria": {
                "misread_question": "pursued a different question than the one asked, for example the wrong metric or the wrong subject; not a SQL mistake made while pursuing the right question",
                "ambiguous_question": "the question itself is underspecified or has no single correct answer; the candidate is not at fault",
                "wrong_identifier": "used the wrong id, key, or literal to identify the entity, for example an internal account id where an organization id is needed, so the filter matched nothing or the wrong row",
                "unresolved_lookup": "did not resolve a named entity to its row before querying facts, for example never looking the name up or skipping the dimension join",
                "wrong_table": "read a table that does not hold the asked-for concept when another table does; not a wrong predicate on the right table",
                "wrong_column": "used a real column but misread what it measures, picking the wrong field for the metric",
                "wrong_join": "joined on the wrong key, or missed a join the answer requires",
                "wrong_grain": "counted or summed at the wrong grain (per row vs per entity vs per day), inflating or collapsing the result",
                "wrong_aggregation": "wrong aggregate or grouping (for example avg vs sum, or a missing GROUP BY) while the entities and filters are right",
                "wrong_filter": "the right tables, columns, and entities are used, but a predicate is wrong or missing (wrong category or comparison, or an absent qualifier); not a wrong identifier and not a time-window mistake",
                "wrong_time_window": "wrong reference date or time range (point-in-time vs range, or wrong window bounds)",
                "clickhouse_error": "the SQL failed to run and returned a ClickHouse error (syntax, unknown identifier, or an unsupported feature)",
                "stopped_early": "returned a final answer before resolving the question, often after empty results, when more turns were available",
                "ran_out_of_budget": "hit the turn limit without a usable answer",
                "tool_loop": "repeated near-identical queries without making progress",
                "correct_but_judged_fail": "the final answer looks correct for the question despite the fail verdict"
            }},
            "prevented_by_rule": {"type": "choice", "instructions": "Which of these judgment-call schema-prompt rules best explains why the candidate failed? The mechanically checkable rules are scored separately in code, so they are not listed here; the state field `mechanical_checks` shows what the SQL did. Choose 'none' if no listed rule explains the failure.", "criteria": {
                "crm_join": CRM_JOIN,
                "none": "no semantic rule explains this failure"
            }},
            "schema_hint_would_help": {"type": "noul", "instructions": "Would giving the candidate a correct schema-use hint (the right table, column, join, or grain) before it queried most likely have prevented this failure?"},
            "correct_despite_fail": {"type": "noul", "instructions": "Does the candidate's final answer actually look correct for the question, despite being scored a failure?"}
        }
    })
}

/// The offline model's answer: wrong_join (family query_construction, 0.5 + 0.2).
pub fn label_response() -> SystemOneResponse {
    let probs = |items: &[(&str, f64)]| items.iter().map(|(k, p)| (k.to_string(), *p)).collect();
    SystemOneResponse {
        model: "sparrow-nano-general-v1.1".into(),
        answers: IndexMap::from([
            (
                "sub_mode".to_owned(),
                Answer::Choice {
                    choice: "wrong_join".into(),
                    confidence: 0.8,
                    probabilities: probs(&[
                        ("wrong_join", 0.5),
                        ("wrong_grain", 0.2),
                        ("wrong_table", 0.3),
                    ]),
                },
            ),
            (
                "prevented_by_rule".to_owned(),
                Answer::Choice {
                    choice: "crm_join".into(),
                    confidence: 0.7,
                    probabilities: probs(&[("crm_join", 0.85), ("none", 0.15)]),
                },
            ),
            (
                "schema_hint_would_help".to_owned(),
                Answer::Noul { noul: 0.9 },
            ),
            (
                "correct_despite_fail".to_owned(),
                Answer::Noul { noul: 0.1 },
            ),
        ]),
        usage: None,
    }
}

/// An override of ex-007 (wrong_table → wrong_join) for `bundle(corpus)`.
pub fn one_override(corpus: &str) -> OverridesFile {
    let mut file = OverridesFile::new(bundle(corpus).content_hash);
    let original = ex007_label();
    file.overrides.push(LabelOverride {
        key: "gpt-4.1/ex-007".into(),
        corpus: corpus.into(),
        original: Some(original),
        new: label("ex-007", "wrong_join", "query_construction"),
        model_id: "jev-1.13.0".into(),
        request_hash: "ab".repeat(32),
        applied_at: "2026-12-03T07:00:00.000Z".into(),
        answers: Some(label_response().answers),
    });
    file
}

/// A Jev that answers every request with one reply and records what it was sent.
#[derive(Clone)]
pub struct FakeJev {
    reply: Result<SystemOneResponse, ApiError>,
    sent: Arc<Mutex<Vec<SystemOneRequest>>>,
    /// When set, answers 401 unless the page's proxy token is this one (as `runlens serve
    /// --tokens-file` does).
    token: Option<String>,
}

impl FakeJev {
    pub fn new(reply: Result<SystemOneResponse, ApiError>) -> FakeJev {
        FakeJev {
            reply,
            sent: Arc::default(),
            token: None,
        }
    }

    /// This fake, answering only requests carrying `token`.
    pub fn requiring(self, token: &str) -> FakeJev {
        FakeJev {
            token: Some(token.to_owned()),
            ..self
        }
    }

    pub fn sent(&self) -> Vec<SystemOneRequest> {
        self.sent.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl JevTransport for FakeJev {
    fn ask(
        &self,
        _: &str,
        request: &SystemOneRequest,
    ) -> LocalFuture<Result<SystemOneReply, ApiError>> {
        if let Ok(mut sent) = self.sent.lock() {
            sent.push(request.clone());
        }
        if self.token.is_some() && runlens_web::api::proxy_token() != self.token {
            let refused = ApiError::Jev {
                url: "./v1/systemone".into(),
                status: 401,
                message: "The access token is not valid.".into(),
            };
            return Box::pin(async move { Err(refused) });
        }
        let reply = self
            .reply
            .clone()
            .map(|r| (r, 12.5, Some("req-1".to_owned())));
        Box::pin(async move { reply })
    }

    fn info(&self, base: &str) -> LocalFuture<Result<(String, String), ApiError>> {
        let info = match &self.reply {
            Ok(r) => Ok(("local".to_owned(), r.model.clone())),
            Err(_) => Err(network_error_at(base)),
        };
        Box::pin(async move { info })
    }
}

fn network_error_at(base: &str) -> ApiError {
    ApiError::Network {
        url: format!("{base}v1/systemone"),
        message: "Failed to fetch".into(),
    }
}

pub fn network_error() -> ApiError {
    network_error_at("./")
}

/// Sub-mode counts of the labels in force, as the failures view shows them.
#[component]
fn Counts(corpus: String) -> impl IntoView {
    let state = OverridesState::use_context().unwrap();
    move || {
        let labels = labels_in_force(state, &corpus);
        let counts = count_failures(labels.iter().map(|l| l.sub_mode.as_deref()));
        counts
            .sub_mode
            .into_iter()
            .map(|(k, n)| view! { <span data-metric=format!("sub_mode:{k}") data-value=n.to_string()></span> })
            .collect_view()
    }
}

/// Mounts the overrides bar, the counts and `panel(bundle)` over `bundle(corpus)`; the panel
/// is rebuilt on every change of the overrides, as the trajectory view rebuilds it with the
/// new answer.
pub fn mount<V: IntoView + 'static>(
    state: ViewState,
    jev: FakeJev,
    corpus: &'static str,
    panel: impl Fn(Arc<Bundle>) -> V + Send + Sync + 'static,
) -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    let b = Arc::new(bundle(corpus));
    let panel = Arc::new(panel);
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(UrlState::detached(state.clone()));
        provide_context(Jev(Arc::new(jev.clone())));
        let overrides = OverridesState::provide(b.clone());
        STATE.with_borrow_mut(|s| *s = Some(overrides));
        let panel = panel.clone();
        view! {
            <OverridesBar />
            <Counts corpus=corpus.to_owned() />
            {let b = b.clone(); move || {
                overrides.file.track();
                panel(b.clone())
            }}
        }
    }));
    host
}

/// The cell `model` × `trace` of `corpus` in `b` as the trajectory view's answer has it.
pub fn cell_of(b: &Bundle, corpus: &str, model: &str, trace: &str) -> OpenedCell {
    OpenedCell::of(Labelled::of(&b.body), corpus, model, trace).expect("the cell")
}

/// [`cell_of`] `b` as the worker answers it: with the label in force under the mounted
/// overrides state's overrides (the bundle's own label stays the recorded one).
pub fn opened(b: &Bundle, corpus: &str, model: &str, trace: &str) -> OpenedCell {
    let mut o = cell_of(b, corpus, model, trace);
    if let Some(s) = STATE.with_borrow(|s| *s) {
        o.label = labels_in_force(s, corpus)
            .into_iter()
            .find(|l| l.model == model && l.trace_id == trace);
    }
    o
}

/// The failure labels of `corpus` in the mounted bundle with the overrides in force
/// (tracked: they follow the overrides), as the views' answers count them.
pub fn labels_in_force(state: OverridesState, corpus: &str) -> Vec<FailureLabel> {
    let news: Vec<FailureLabel> = state.file.with(|f| f.news_in(corpus).cloned().collect());
    state.base.with_value(|b| {
        let own = b.body.corpus(corpus).map_or(&[][..], |c| &c.failure_labels);
        relabelled(own, &news)
    })
}

/// Lets spawned tasks and effects run.
pub async fn settle() {
    for _ in 0..4 {
        leptos::task::tick().await;
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 5);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }
}

fn element(host: &web_sys::HtmlElement, selector: &str) -> web_sys::Element {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector} in {}", host.inner_html()))
}

pub fn text_of(host: &web_sys::HtmlElement, selector: &str) -> String {
    element(host, selector).text_content().unwrap_or_default()
}

pub fn attr(host: &web_sys::HtmlElement, selector: &str, name: &str) -> String {
    element(host, selector)
        .get_attribute(name)
        .unwrap_or_default()
}

pub fn value_of(host: &web_sys::HtmlElement, selector: &str) -> String {
    let el = element(host, selector);
    js_sys::Reflect::get(&el, &"value".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

pub fn click(host: &web_sys::HtmlElement, selector: &str) {
    element(host, selector)
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
}

/// The failures summary's count of `sub_mode`.
pub fn count(host: &web_sys::HtmlElement, sub_mode: &str) -> f64 {
    attr(
        host,
        &format!("[data-metric='sub_mode:{sub_mode}']"),
        "data-value",
    )
    .parse()
    .unwrap()
}

pub fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

pub fn clear_storage(corpus: &str) {
    let _ = storage().remove_item(&storage_key(&bundle(corpus).content_hash));
}
