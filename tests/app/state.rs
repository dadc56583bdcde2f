//! The URL state: query encoding round trips, defaults stay out of links, hand-edited links
//! never break the page, and the tab bar / sort headers / sliders change the state.

use leptos::prelude::*;
use runlens_core::bundle::LossRule;
use runlens_core::metrics::gold_tables::GoldRule;
use runlens_core::metrics::matrix_view::MatrixSort;
use runlens_web::components::{TabBar, hash_disagrees};
use runlens_web::state::{
    BoardParams, CompareParams, FailuresParams, GateParams, MatrixParams, RankingParams,
    TrajectoryParams,
};
use runlens_web::state::{Sort, Tab, UrlState, ViewState, decode_query, encode_query};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

fn full_state() -> ViewState {
    ViewState {
        bundle: Some("https://example.org/runs/a b.json.gz".into()),
        hash: Some("0123456789ab".into()),
        tab: Tab::Ranking,
        corpus: Some("dev & test".into()),
        models: vec!["gpt-4.1".into(), "qwen3-coder-30b".into()],
        ranking: RankingParams {
            k: 7,
            threshold: 0.35,
            gold: GoldRule::Parser,
            curves: vec!["ndcg".into(), "mrr".into()],
            search: "MRR by month, EMEA=North?".into(),
            n_gold: Some(2),
            below5: true,
            sort: Some(Sort {
                column: "k_star".into(),
                descending: true,
            }),
            question: Some("ex-007".into()),
        },
        leaderboard: BoardParams {
            sort: Some(Sort {
                column: "turns".into(),
                descending: false,
            }),
            loss: LossRule::AsFail,
            pooled: true,
        },
        failures: FailuresParams {
            filter: Some("sub_mode:wrong join".into()),
            conf_min: 0.25,
            conf_max: 0.9,
            cdf_threshold: 0.7,
        },
        matrix: MatrixParams {
            failures_only: true,
            sub_mode: Some("wrong_join".into()),
            search: "orders & co".into(),
            sort: MatrixSort::Hardest,
        },
        gate: GateParams {
            model: Some("gpt-4.1".into()),
        },
        trajectory: TrajectoryParams {
            model: Some("openai/gpt-4.1".into()),
            trace: Some("ex-007".into()),
            from: Some("failures".into()),
            diff: true,
        },
        compare: CompareParams {
            url: Some("runs/night 2.zip".into()),
            hash: Some("fedcba987654".into()),
            model: Some("gpt-4.1".into()),
            trace: Some("ex-009".into()),
            corpus: Some("dev".into()),
        },
        jev: Some("http://127.0.0.1:8080".into()),
        overrides: None,
    }
}

#[wasm_bindgen_test]
fn every_field_round_trips_through_the_query() {
    let s = full_state();
    let q = encode_query(&s);
    assert_eq!(
        q,
        "?bundle=https://example.org/runs/a%20b.json.gz&h=0123456789ab&tab=ranking\
         &corpus=dev%20%26%20test&models=gpt-4.1,qwen3-coder-30b\
         &lbsort=turns&loss=fail&pool=1&mxfail=1&mxsub=wrong_join&mxq=orders%20%26%20co&mxsort=hardest\
         &k=7&t=0.35&gold=parser\
         &curves=ndcg,mrr&q=MRR%20by%20month,%20EMEA%3DNorth%3F&ngold=2&below5=1&sort=-k_star&question=ex-007\
         &f=sub_mode:wrong%20join&cmin=0.25&cmax=0.9&ct=0.7&gmodel=gpt-4.1\
         &tmodel=openai/gpt-4.1&trace=ex-007&from=failures&diff=1\
         &compare=runs/night%202.zip&ch=fedcba987654&cm=gpt-4.1&cq=ex-009&cc=dev&jev=http://127.0.0.1:8080"
    );
    assert_eq!(decode_query(&q), s);
}

#[wasm_bindgen_test]
fn defaults_stay_out_of_links() {
    assert_eq!(encode_query(&ViewState::default()), "");
    let s = ViewState {
        bundle: Some("bundles/article.json.gz".into()),
        ..ViewState::default()
    };
    assert_eq!(encode_query(&s), "?bundle=bundles/article.json.gz");
}

#[wasm_bindgen_test]
fn hand_edited_links_fall_back_to_defaults() {
    let s = decode_query(
        "?tab=nope&k=zero&t=1.5&gold=x&h=not-hex&ngold=-1&%E2%28=1&q=%ZZ+a&loss=maybe&pool=yes&mxsort=x&mxfail=yes",
    );
    let expected = ViewState {
        ranking: RankingParams {
            search: "%ZZ a".into(),
            ..RankingParams::default()
        },
        ..ViewState::default()
    };
    assert_eq!(s, expected);
    // Unknown curve keys are dropped, repeats kept once, the order is the registry's.
    assert_eq!(
        decode_query("curves=mrr,hit,ndcg,mrr").ranking.curves,
        ["ndcg", "mrr"]
    );
    assert!(decode_query("curves=hit").ranking.curves.is_empty());
    // k is clamped to at least 1; `+` is a space.
    assert_eq!(decode_query("k=0").ranking.k, 1);
    assert_eq!(decode_query("?q=a+b").ranking.search, "a b");
}

#[wasm_bindgen_test]
fn a_link_naming_a_run_to_compare_opens_the_compare_view() {
    let s = decode_query("?bundle=a.zip&compare=b.zip");
    assert_eq!(s.tab, Tab::Compare);
    assert_eq!(s.compare.url.as_deref(), Some("b.zip"));
    // The compare view is then the default: no `tab` in its link, and any other view's is kept.
    assert_eq!(encode_query(&s), "?bundle=a.zip&compare=b.zip");
    let board = ViewState {
        tab: Tab::Leaderboard,
        ..s.clone()
    };
    assert_eq!(
        encode_query(&board),
        "?bundle=a.zip&tab=leaderboard&compare=b.zip"
    );
    assert_eq!(decode_query(&encode_query(&board)), board);
    // Without `compare`, `tab=compare` is written out and the view asks for a run.
    let choose = decode_query("?bundle=a.zip&tab=compare");
    assert_eq!(
        (choose.tab, choose.compare.url.as_deref()),
        (Tab::Compare, None)
    );
    assert_eq!(encode_query(&choose), "?bundle=a.zip&tab=compare");
    // A malformed `ch` is dropped, as `h`.
    assert_eq!(decode_query("?compare=b.zip&ch=xyz").compare.hash, None);
}

#[wasm_bindgen_test]
fn hash_comparison_uses_the_links_prefix() {
    let full = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    assert!(!hash_disagrees("0123456789ab", full));
    assert!(!hash_disagrees("0123456789AB", full));
    assert!(hash_disagrees("0123456789ac", full));
    assert!(!hash_disagrees("", full));
    assert!(hash_disagrees(&format!("{full}00"), full));
}

#[wasm_bindgen_test]
async fn the_tab_bar_switches_tabs() {
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    let state = UrlState::detached(ViewState::default());
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(state);
        view! { <TabBar /> }
    }));
    leptos::task::tick().await;
    let selected = |tab: &str| {
        host.query_selector(&format!("[data-tab='{tab}']"))
            .unwrap()
            .unwrap()
            .get_attribute("aria-selected")
            .unwrap()
    };
    assert_eq!(selected("leaderboard"), "true");
    assert_eq!(selected("ranking"), "false");
    let ranking: web_sys::HtmlElement = host
        .query_selector("[data-tab='ranking']")
        .unwrap()
        .unwrap()
        .unchecked_into();
    ranking.click();
    leptos::task::tick().await;
    assert_eq!(state.with_untracked(|s| s.tab), Tab::Ranking);
    assert_eq!(selected("ranking"), "true");
    assert_eq!(selected("leaderboard"), "false");
}
