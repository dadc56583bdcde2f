//! Browser tests of the app's components (headless Chromium via wasm-bindgen-test-runner).

use std::sync::Arc;

use leptos::prelude::*;
use runlens_core::bundle::{Bundle, BundleBody, Corpus, Provenance, RankingRow, Warning};
use runlens_web::data::{LoadError, decode_bundle};
use runlens_web::pages::Overview;
use runlens_web::state::{Tab, UrlState, ViewState};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

fn row(trace_id: &str, ranked: &[&str], gold: &[&str]) -> RankingRow {
    RankingRow {
        trace_id: trace_id.into(),
        gold: gold.iter().map(|&s| s.into()).collect(),
        ranked: ranked.iter().map(|&s| s.into()).collect(),
        ..Default::default()
    }
}

/// Two questions over a 3-table universe (harness-formats.md §5.6 plus a perfect one).
fn bundle() -> Bundle {
    let universe = [
        "crm.dim_account",
        "crm.fct_support_case",
        "marts.usage_daily",
    ];
    let corpus = Corpus {
        name: "dev <b>set</b>".into(),
        rankings: vec![
            row(
                "q1",
                &[
                    "marts.usage_daily",
                    "crm.dim_account",
                    "crm.fct_support_case",
                ],
                &["crm.fct_support_case", "marts.usage_daily"],
            ),
            row(
                "q2",
                &[
                    "crm.dim_account",
                    "marts.usage_daily",
                    "crm.fct_support_case",
                ],
                &["crm.dim_account"],
            ),
        ],
        ..Default::default()
    };
    let body = BundleBody {
        synthetic: true,
        universe: universe.iter().map(|s| s.to_string()).collect(),
        corpora: vec![corpus],
        warnings: vec![Warning {
            file: "out/failure_labels.jsonl".into(),
            line: Some(7),
            kind: "label_for_unknown_cell".into(),
            message: "label for <img src=x onerror=alert(1)> which has no cell".into(),
        }],
        ..Default::default()
    };
    Bundle::new(Provenance::default(), body)
}

fn mount_with(bundle: Bundle, state: ViewState) -> web_sys::HtmlElement {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let host: web_sys::HtmlElement = host.unchecked_into();
    let b = Arc::new(bundle);
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        provide_context(UrlState::detached(state.clone()));
        view! { <Overview bundle=b.clone() source="test.json" /> }
    }));
    host
}

fn metric(host: &web_sys::HtmlElement, name: &str) -> f64 {
    let el = host
        .query_selector(&format!("[data-metric='{name}']"))
        .unwrap()
        .unwrap();
    el.get_attribute("data-value").unwrap().parse().unwrap()
}

#[wasm_bindgen_test]
async fn overview_shows_exact_recomputed_metrics() {
    let ranking = ViewState {
        tab: Tab::Ranking,
        ..ViewState::default()
    };
    let host = mount_with(bundle(), ranking);
    // The ranking view's numbers are answers that come after the mount's task.
    for _ in 0..500 {
        if host
            .query_selector("[data-metric='recall@3']")
            .unwrap()
            .is_some()
        {
            break;
        }
        let pause = js_sys::Promise::new(&mut |resolve, _| {
            let _ = web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(pause).await;
    }
    // Universe of 3 tables: k runs 1..3.
    // q1: recall@3 = 1, q2: recall@3 = 1 → mean 1.
    assert_eq!(metric(&host, "recall@3"), 1.0);
    // nDCG@3: q1 = (1 + 1/log2 4) / (1 + 1/log2 3) (§5.6), q2 = 1.
    let q1 = (1.0 + 1.0 / 4f64.log2()) / (1.0 + 1.0 / 3f64.log2());
    assert!((metric(&host, "ndcg@3") - (q1 + 1.0) / 2.0).abs() < 1e-12);
    // all_required@3: both questions complete.
    assert_eq!(metric(&host, "all_required@3"), 1.0);
    let text = host.text_content().unwrap();
    assert!(text.contains("synthetic sample"), "{text}");
    // Corpus names are text, never HTML.
    assert!(text.contains("dev <b>set</b>"));
    assert!(host.query_selector("b").unwrap().is_none());
    let hash = host
        .query_selector("[data-testid='bundle-hash']")
        .unwrap()
        .unwrap();
    assert_eq!(hash.text_content().unwrap().len(), 12);
}

#[wasm_bindgen_test]
fn gzip_and_plain_bundles_decode_identically() {
    let b = bundle();
    let plain = decode_bundle("a.json", &b.to_json_vec()).unwrap();
    let gz = decode_bundle("a.json.gz", &b.to_json_gz_vec()).unwrap();
    assert_eq!(*plain, b);
    assert_eq!(*gz, b);
}

#[wasm_bindgen_test]
fn a_broken_bundle_is_an_error_naming_the_source() {
    let err = decode_bundle("broken.json", b"{\"format\": \"runlens.bundle/1\", ").unwrap_err();
    match &err {
        LoadError::Invalid {
            source_name,
            message,
        } => {
            assert_eq!(source_name, "broken.json");
            assert!(message.contains("line 1"), "{message}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

/// The canvas accepts every chart font's string as the warm-up writes it (a malformed
/// string would be ignored, and the font never readied).
#[wasm_bindgen_test]
async fn every_chart_font_is_warmed() {
    let accepted = runlens_web::warm_fonts::warm_fonts().await;
    // The page sampler is laid out and removed at once.
    let document = web_sys::window().unwrap().document().unwrap();
    assert!(document.query_selector(".font-warm").unwrap().is_none());
    assert_eq!(accepted, runlens_charts::FONTS.len());
    assert_eq!(accepted, 7);
}

/// A per-bundle value is kept while the owner stays and starts over for another one.
#[wasm_bindgen_test]
fn per_bundle_values_follow_their_owner() {
    use runlens_web::per_bundle::PerBundle;
    let mut kept: PerBundle<String, Vec<u32>> = PerBundle::default();
    kept.of("a".into()).push(1);
    kept.of("a".into()).push(2);
    assert_eq!(kept.of("a".into()), &vec![1, 2]);
    assert!(kept.of("b".into()).is_empty());
    assert!(kept.of("a".into()).is_empty());
}

/// The view registry drives the tab strip: every `Tab` has exactly one line, in the view
/// list's order (the strip's), with its label, its key (its place: `1`–`7`) and (for the
/// views not in the first download) its chunk, which the split build's test reads from
/// `data-chunk`.
#[wasm_bindgen_test]
async fn the_registry_lists_every_tab_once_and_drives_the_tab_strip() {
    use runlens_web::pages::registry::{VIEWS, view_def};
    assert_eq!(VIEWS.len(), Tab::ALL.len());
    let order: Vec<Tab> = VIEWS.iter().map(|v| v.tab).collect();
    assert_eq!(order, Tab::ALL);
    assert_eq!(Tab::default(), Tab::Leaderboard);
    for tab in Tab::ALL {
        assert_eq!(VIEWS.iter().filter(|v| v.tab == *tab).count(), 1, "{tab:?}");
        assert_eq!(view_def(*tab).tab, *tab);
        assert_eq!(Tab::from_key(tab.key()), Some(*tab));
    }
    let host = mount_with(bundle(), ViewState::default());
    leptos::task::tick().await;
    let buttons = host.query_selector_all("[role='tablist'] button").unwrap();
    let strip: Vec<(String, String, Option<String>)> = (0..buttons.length())
        .map(|i| {
            let b: web_sys::Element = buttons.item(i).unwrap().dyn_into().unwrap();
            (
                b.get_attribute("data-tab").unwrap(),
                b.text_content().unwrap(),
                b.get_attribute("data-chunk"),
            )
        })
        .collect();
    let expected = [
        ("leaderboard", "Leaderboard", None),
        ("matrix", "Matrix", Some("split_matrix")),
        ("ranking", "Table ranking", Some("split_ranking")),
        ("failures", "Failures", Some("split_failures")),
        ("audit", "Audit queue", Some("split_audit")),
        ("gate", "Gate", Some("split_gate")),
        ("trajectory", "Trajectory", Some("split_trajectory")),
        ("compare", "Compare", Some("split_compare")),
    ];
    let expected: Vec<(String, String, Option<String>)> = expected
        .iter()
        .map(|(k, l, c)| (k.to_string(), l.to_string(), c.map(str::to_owned)))
        .collect();
    assert_eq!(strip, expected);
    let keys: Vec<Option<String>> = (0..buttons.length())
        .map(|i| {
            let b: web_sys::Element = buttons.item(i).unwrap().dyn_into().unwrap();
            b.get_attribute("aria-keyshortcuts")
        })
        .collect();
    let expected_keys: Vec<Option<String>> = (1..=8).map(|n| Some(n.to_string())).collect();
    assert_eq!(keys, expected_keys);
    let options = host
        .query_selector_all("[data-testid='tabs-menu'] option")
        .unwrap();
    let menu: Vec<String> = (0..options.length())
        .map(|i| options.item(i).unwrap().text_content().unwrap())
        .collect();
    let labels: Vec<String> = expected.iter().map(|e| e.1.clone()).collect();
    assert_eq!(menu, labels);
}

/// A view's key (the registry's `1`–`7`) opens it from anywhere on the page, but not while
/// typing in a field or with a modifier held (the browser's own shortcuts).
#[wasm_bindgen_test]
async fn a_views_key_opens_it_unless_typing_or_modified() {
    // The tab strips earlier tests left mounted leave the document, so the keys below switch
    // this one only (a strip out of the document takes no keys).
    let body = document().body().unwrap();
    let strips = document().query_selector_all("[role='tablist']").unwrap();
    for i in 0..strips.length() {
        let strip: web_sys::Element = strips.item(i).unwrap().dyn_into().unwrap();
        strip.remove();
    }
    assert!(body.query_selector("[role='tablist']").unwrap().is_none());
    let host = mount_with(bundle(), ViewState::default());
    leptos::task::tick().await;
    let selected = || {
        host.query_selector("[role='tablist'] button[aria-selected='true']")
            .unwrap()
            .and_then(|b| b.get_attribute("data-tab"))
    };
    let press = |target: &web_sys::Element, key: &str, ctrl: bool| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_ctrl_key(ctrl);
        init.set_bubbles(true);
        let ev =
            web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
        target.dispatch_event(&ev).unwrap();
    };
    let heading = host.query_selector("header").unwrap().unwrap();
    assert_eq!(selected().as_deref(), Some("leaderboard"));
    press(&heading, "3", false);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("ranking"));
    let button = host
        .query_selector("button[data-tab='failures']")
        .unwrap()
        .unwrap();
    assert_eq!(
        button.get_attribute("aria-keyshortcuts").as_deref(),
        Some("4")
    );
    assert_eq!(
        button.get_attribute("title").as_deref(),
        Some("Failures (key 4)")
    );
    // Typed into a field: a digit, not a view.
    let field = document().create_element("input").unwrap();
    host.append_child(&field).unwrap();
    press(&field, "5", false);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("ranking"));
    // Ctrl+2 is the browser's.
    press(&heading, "2", true);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("ranking"));
    press(&heading, "7", false);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("trajectory"));
    press(&heading, "8", false);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("compare"));
    // No ninth view: the key does nothing.
    press(&heading, "9", false);
    leptos::task::tick().await;
    assert_eq!(selected().as_deref(), Some("compare"));
}

/// #17, accessibility: the arrow keys move between the tabs and open them (the strip is one
/// Tab stop), Home / End go to the ends; a skip link leads past the header to the view.
#[wasm_bindgen_test]
async fn arrow_keys_walk_the_tabs_and_the_skip_link_focuses_the_view() {
    use runlens_web::pages::registry::tab_after_key;
    assert_eq!(
        tab_after_key(Tab::Leaderboard, "ArrowRight"),
        Some(Tab::Matrix)
    );
    assert_eq!(tab_after_key(Tab::Matrix, "ArrowRight"), Some(Tab::Ranking));
    assert_eq!(
        tab_after_key(Tab::Leaderboard, "ArrowLeft"),
        Some(Tab::Compare)
    );
    assert_eq!(tab_after_key(Tab::Gate, "Home"), Some(Tab::Leaderboard));
    assert_eq!(tab_after_key(Tab::Ranking, "End"), Some(Tab::Compare));
    assert_eq!(tab_after_key(Tab::Ranking, "a"), None);
    let host = mount_with(bundle(), ViewState::default());
    leptos::task::tick().await;
    let tabindex = |tab: &str| {
        host.query_selector(&format!("button[data-tab='{tab}']"))
            .unwrap()
            .unwrap()
            .get_attribute("tabindex")
    };
    assert_eq!(tabindex("leaderboard").as_deref(), Some("0"));
    assert_eq!(tabindex("matrix").as_deref(), Some("-1"));
    let strip = host.query_selector("[role='tablist']").unwrap().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowRight");
    init.set_bubbles(true);
    let ev = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    strip
        .query_selector("button[data-tab='leaderboard']")
        .unwrap()
        .unwrap()
        .dispatch_event(&ev)
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(tabindex("matrix").as_deref(), Some("0"));
    let doc = web_sys::window().unwrap().document().unwrap();
    assert_eq!(
        doc.active_element()
            .and_then(|e| e.get_attribute("data-tab"))
            .as_deref(),
        Some("matrix")
    );
    host.query_selector("[data-testid='skip-link']")
        .unwrap()
        .unwrap()
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    assert_eq!(
        doc.active_element().map(|e| e.id()).as_deref(),
        Some("view")
    );
}

/// A light sub-mode bar chart titled `title` with one bar of `value` failed cells per
/// `(label, value)`, as the chart tests draw it.
fn sub_mode_bars(title: &str, bars: &[(&str, usize)]) -> runlens_web::components::AnyChart {
    use runlens_charts::{HBar, HBarChart, Palette, Theme};
    runlens_web::components::AnyChart::HBars(HBarChart {
        title: title.into(),
        x_desc: "failed cells".into(),
        bars: bars
            .iter()
            .map(|&(label, value)| HBar {
                label: label.into(),
                value,
                color: Palette::OTHER,
            })
            .collect(),
        legend: (String::new(), Vec::new()),
        label_width: 120,
        theme: Theme::LIGHT,
    })
}

/// #17, layout: a chart is drawn for its container's width (at most its own width): in a
/// 400 px box the canvas is 398 px wide (less its borders), in a wide one at most 1,600.
#[wasm_bindgen_test]
async fn a_chart_is_drawn_for_the_width_of_its_container() {
    use runlens_web::components::ChartCanvas;
    let chart = sub_mode_bars(
        "Sub-modes of a long corpus name that wraps on a narrow chart",
        &[("wrong_join", 3)],
    );
    let width_in = |px: u32| {
        let chart = chart.clone();
        async move {
            let host: web_sys::HtmlElement =
                document().create_element("div").unwrap().unchecked_into();
            host.set_attribute("style", &format!("width:{px}px"))
                .unwrap();
            document().body().unwrap().append_child(&host).unwrap();
            std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
                view! { <ChartCanvas id=format!("fit-{px}") chart=chart.clone() /> }
            }));
            leptos::task::tick().await;
            // Charts draw in a task of their own.
            runlens_web::yield_now::yield_now().await;
            host.query_selector("canvas")
                .unwrap()
                .unwrap()
                .unchecked_into::<web_sys::HtmlCanvasElement>()
                .width()
        }
    };
    // The container's width less the canvas's 1 px borders, at most 1,600 px, at least 240
    // (one canvas pixel per CSS pixel: the test browser's devicePixelRatio is 1).
    assert_eq!(width_in(400).await, 398);
    assert_eq!(width_in(1100).await, 1098);
    assert_eq!(width_in(2000).await, 1600);
    assert_eq!(width_in(100).await, 240);
}

/// #16, memory: a chart that leaves the page lets go of its pixels at once (a detached canvas
/// keeps its backing store until the browser collects it): drawn 398 × 420, then 0 × 0.
#[wasm_bindgen_test]
async fn a_chart_that_leaves_the_page_empties_its_canvas() {
    use runlens_web::components::ChartCanvas;
    let chart = sub_mode_bars("Sub-modes", &[("wrong_join", 3)]);
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.set_attribute("style", "width:400px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        view! { <ChartCanvas id="leaving" chart=chart.clone() /> }
    });
    leptos::task::tick().await;
    runlens_web::yield_now::yield_now().await;
    let canvas: web_sys::HtmlCanvasElement = host
        .query_selector("canvas")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!((canvas.width(), canvas.height()), (398, 420));
    drop(handle);
    leptos::task::tick().await;
    assert!(host.query_selector("canvas").unwrap().is_none());
    assert_eq!((canvas.width(), canvas.height()), (0, 0));
}

/// #17, hover read-outs: the pointer over a bar shows its label and value beside it; off the
/// bars and after leaving the chart, nothing.
#[wasm_bindgen_test]
async fn hovering_a_bar_reads_out_its_value() {
    use runlens_web::components::ChartCanvas;
    let chart = sub_mode_bars("Sub-modes", &[("wrong_join", 3), ("tool_loop", 7)]);
    let host: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.set_attribute("style", "width:722px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let layout = std::sync::Arc::new(std::sync::Mutex::new(None));
    let seen = layout.clone();
    let on_layout = Callback::new(move |l| *seen.lock().unwrap() = Some(l));
    std::mem::forget(leptos::mount::mount_to(host.clone(), move || {
        view! { <ChartCanvas id="hover-test" chart=chart.clone() on_layout=on_layout /> }
    }));
    leptos::task::tick().await;
    // Charts draw in a task of their own.
    runlens_web::yield_now::yield_now().await;
    let canvas: web_sys::HtmlElement = host
        .query_selector("canvas")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let drawn = layout.lock().unwrap().clone();
    let Some(runlens_charts::AnyLayout::Hits(hits)) = drawn else {
        panic!("the chart was not drawn");
    };
    let rect = canvas.get_bounding_client_rect();
    let move_to = |x: i32, y: i32| {
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x(rect.left() as i32 + x);
        init.set_client_y(rect.top() as i32 + y);
        let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("mousemove", &init).unwrap();
        canvas.dispatch_event(&ev).unwrap();
    };
    let tip = || {
        host.query_selector("[data-testid='chart-tip']")
            .unwrap()
            .and_then(|e| e.text_content())
    };
    // The canvas is drawn at its CSS size here (no stylesheet): pixels are CSS pixels.
    let (x, y) = hits.find(1, 0).unwrap().centre();
    move_to(x, y);
    leptos::task::tick().await;
    assert_eq!(tip().as_deref(), Some("tool_loop: 7"));
    move_to(2, 2);
    leptos::task::tick().await;
    assert_eq!(tip(), None);
    move_to(x, y);
    leptos::task::tick().await;
    let leave = web_sys::MouseEvent::new("mouseleave").unwrap();
    host.query_selector(".chart-box")
        .unwrap()
        .unwrap()
        .dispatch_event(&leave)
        .unwrap();
    leptos::task::tick().await;
    assert_eq!(tip(), None);
}

/// #17, PNG export at 2×: the chart is drawn again on a canvas twice the size shown, laid
/// out as shown (the same layout, in CSS pixels) and every mark at twice the pixels.
#[wasm_bindgen_test]
fn a_png_is_the_chart_drawn_at_twice_the_pixels() {
    use runlens_charts::{AnyLayout, Palette};
    use runlens_web::components::render_scaled;
    let chart = sub_mode_bars("Sub-modes", &[("wrong_join", 3)]);
    let caption = "runlens · bundle 0123456789ab · a caption long enough to wrap onto a second line at this width";
    let (one, at_one) = render_scaled(&chart, caption, (400, 300), 1).unwrap();
    let (two, at_two) = render_scaled(&chart, caption, (400, 300), 2).unwrap();
    assert_eq!((one.width(), one.height()), (400, 300));
    assert_eq!((two.width(), two.height()), (800, 600));
    // The same layout: the chart is laid out for the size shown.
    assert_eq!(at_one, at_two);
    let AnyLayout::Hits(hits) = at_two else {
        panic!("hit boxes")
    };
    let (x, y) = hits.find(0, 0).unwrap().centre();
    let pixel = |c: &web_sys::HtmlCanvasElement, x: i32, y: i32| {
        let ctx: web_sys::CanvasRenderingContext2d =
            c.get_context("2d").unwrap().unwrap().unchecked_into();
        let d = ctx
            .get_image_data(f64::from(x), f64::from(y), 1.0, 1.0)
            .unwrap()
            .data();
        (d[0], d[1], d[2])
    };
    let bar = (Palette::OTHER.0, Palette::OTHER.1, Palette::OTHER.2);
    assert_eq!(pixel(&one, x, y), bar);
    assert_eq!(pixel(&two, 2 * x, 2 * y), bar);
    assert_eq!(pixel(&two, 2 * x + 1, 2 * y + 1), bar);
}
