//! The background-compute primitive (`derived::newest_answer::NewestAnswer`): a question is
//! asked whenever its inputs change, the last answer stays shown while the next is computed,
//! and `pending` says so; a question that asks nothing keeps the answer shown.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, RankingRow};
use runlens_core::metrics::gate_view::GateQuery;
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::ranking_metrics::RECALL;
use runlens_core::metrics::ranking_view::{RankingAnswer, RankingQuery};
use runlens_web::derived::answers::ViewQuery;
use runlens_web::derived::newest_answer::NewestAnswer;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

/// One question ranking `a, b, c` whose one gold table is `b`: recall@1 = 0, recall@2 = 1.
fn one_question() -> Arc<Bundle> {
    let ranked: Vec<runlens_core::bundle::Name> = ["a", "b", "c"].map(Into::into).to_vec();
    let body = BundleBody {
        synthetic: true,
        universe: vec!["a".into(), "b".into(), "c".into()],
        corpora: vec![Corpus {
            name: "one".into(),
            rankings: vec![RankingRow {
                trace_id: "q1".into(),
                gold: vec!["b".into()],
                ranked,
                ..RankingRow::default()
            }],
            ..Corpus::default()
        }],
        ..BundleBody::default()
    };
    Arc::new(Bundle::new(Provenance::default(), body))
}

fn at_k(k: usize) -> RankingQuery {
    RankingQuery {
        corpus: None,
        gold: GoldRule::Harness,
        k,
        threshold: 0.5,
    }
}

type Handle = (
    RwSignal<Option<RankingQuery>>,
    NewestAnswer<Option<RankingQuery>, RankingAnswer>,
);

fn mount(asked: Option<RankingQuery>) -> Handle {
    let doc = document();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let slot: Rc<RefCell<Option<Handle>>> = Rc::default();
    let out = slot.clone();
    let b = one_question();
    std::mem::forget(leptos::mount::mount_to(host, move || {
        let input = RwSignal::new(asked.clone());
        let query = Memo::new(move |_| input.get());
        // k = 99 asks a question whose answer is not a ranking answer: an error to show.
        let answer = NewestAnswer::ask_when(b.clone(), query, |q| {
            q.map(|q| match q.k {
                99 => ViewQuery::Gate(GateQuery {
                    corpus: None,
                    intervals: false,
                }),
                _ => ViewQuery::Ranking(q),
            })
        });
        out.replace(Some((input, answer)));
    }));
    slot.take().unwrap()
}

/// recall@k of the answer shown, and the k it was asked for.
fn shown(
    answer: NewestAnswer<Option<RankingQuery>, RankingAnswer>,
) -> Option<(usize, Option<f64>)> {
    let (q, a) = answer.answer_with_query()?;
    let curves = &a.section.as_ref()?.curves;
    Some((q?.k, curves.at(&RECALL, *curves.k.last()?)))
}

async fn settle(answer: NewestAnswer<Option<RankingQuery>, RankingAnswer>) {
    for _ in 0..200 {
        leptos::task::tick().await;
        if !answer.pending() {
            return;
        }
    }
}

#[wasm_bindgen_test]
async fn the_newest_question_is_answered_and_the_last_answer_stays_meanwhile() {
    let (input, answer) = mount(Some(at_k(1)));
    assert!(answer.pending());
    assert!(!answer.answered());
    settle(answer).await;
    assert!(!answer.pending());
    assert_eq!(shown(answer), Some((1, Some(0.0))));
    // New inputs: pending at once, the k = 1 answer shown until the k = 2 one comes.
    input.set(Some(at_k(2)));
    assert!(answer.pending());
    assert_eq!(shown(answer), Some((1, Some(0.0))));
    settle(answer).await;
    assert_eq!(shown(answer), Some((2, Some(1.0))));
    assert_eq!(answer.error(), None);
    // Two changes in one turn: one question, the newest.
    input.set(Some(at_k(1)));
    input.set(Some(at_k(3)));
    settle(answer).await;
    assert_eq!(shown(answer), Some((3, Some(1.0))));
    // A question that fails: its error, no current answer, the last one kept for a view that
    // shows it beside the error, and nothing pending.
    input.set(Some(at_k(99)));
    settle(answer).await;
    assert!(!answer.pending());
    assert!(answer.answer().is_none());
    let error = answer.error().unwrap();
    assert!(error.contains("malformed answer"), "{error}");
    let kept = answer.last_answer().unwrap();
    let curves = &kept.section.as_ref().unwrap().curves;
    assert_eq!(curves.k.last(), Some(&3));
    // Answered again: the error is gone.
    input.set(Some(at_k(3)));
    settle(answer).await;
    assert_eq!(answer.error(), None);
    assert_eq!(shown(answer), Some((3, Some(1.0))));
    // A question that asks nothing keeps the answer shown (and is pending: nothing answers it).
    input.set(None);
    for _ in 0..5 {
        leptos::task::tick().await;
    }
    assert_eq!(shown(answer), Some((3, Some(1.0))));
    assert!(answer.pending());
}
