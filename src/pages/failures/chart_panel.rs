//! One clickable chart: the canvas (a click on a bar or cell sets `f`), export buttons,
//! and beneath it the same elements as buttons with their numbers (keyboard equivalent).
//! Each button carries `data-rect="left,top,right,bottom"`: where its element was drawn, in
//! canvas pixels.

use leptos::prelude::*;
use runlens_charts::{AnyChart, AnyLayout, HitLayout};
use runlens_core::csv::{number_cell, to_csv};
use wasm_bindgen::JsCast;

use super::charts::ChartItem;
use crate::components::{ChartCanvas, ExportButtons, MetricValue, layout_point};
use crate::state::UrlState;

/// A chart whose elements filter the failure list.
#[component]
pub fn FilterChart(
    /// Canvas id (also the export file name and the items' `data-testid` prefix).
    id: &'static str,
    /// Heading above the chart.
    heading: &'static str,
    /// The chart and its items.
    #[prop(into)]
    data: Signal<(AnyChart, Vec<ChartItem>)>,
    /// Canvas height.
    #[prop(into)]
    height: Signal<u32>,
    /// Caption (bundle and settings).
    #[prop(into)]
    caption: Signal<String>,
) -> impl IntoView {
    let state = UrlState::use_context();
    let (layout, set_layout) = signal(HitLayout::default());
    let on_layout = Callback::new(move |l: AnyLayout| {
        if let AnyLayout::Hits(h) = l {
            set_layout.set(h);
        }
    });
    let chart = Signal::derive(move || data.with(|d| d.0.clone()));
    let items = Signal::derive(move || data.with(|d| d.1.clone()));
    // A click filters the list and brings it into view (#17, drill-down in context), once
    // the filtered list is drawn.
    let set_filter = move |f: String| {
        state.push(move |s| s.failures.filter = Some(f));
        leptos::task::spawn_local(async {
            crate::yield_now::yield_now().await;
            let list = web_sys::window().and_then(|w| w.document()).and_then(|d| {
                d.query_selector("[data-testid='failure-list']")
                    .ok()
                    .flatten()
            });
            if let Some(list) = list {
                list.scroll_into_view_with_bool(true);
            }
        });
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(canvas) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        let (x, y) = layout_point(&canvas, ev.offset_x(), ev.offset_y());
        let Some(hit) = layout.with_untracked(|l| l.at(x, y)) else {
            return;
        };
        let f = items.with_untracked(|v| {
            v.iter()
                .find(|i| i.hit == Some((hit.row, hit.col)))
                .map(|i| i.filter.clone())
        });
        if let Some(f) = f {
            set_filter(f);
        }
    };
    let csv = Callback::new(move |()| {
        let rows: Vec<Vec<String>> = items.with_untracked(|v| {
            v.iter()
                .map(|i| {
                    vec![
                        i.label.clone(),
                        i.filter.clone(),
                        number_cell(Some(i.value)),
                    ]
                })
                .collect()
        });
        to_csv(&["element", "filter", "value"], &rows)
    });
    let active = move || state.with(|s| s.failures.filter.clone());
    view! {
        <figure class="failure-chart" data-chart=id id=format!("{id}-section")>
            <h4>{heading}</h4>
            <div class="chart-wrap" on:click=on_click>
                <ChartCanvas id=id chart=chart height=height caption=caption on_layout=on_layout />
            </div>
            // Re-created when the height changes, so the SVG export has the canvas's size.
            {move || {
                let h = height.get();
                view! { <ExportButtons base_name=id.to_owned() canvas_id=id chart=chart caption=caption csv=csv svg_size=(720, h) /> }
            }}
            <ul class="chart-items" data-testid=format!("{id}-items")>
                <For each=move || items.get() key=|i| (i.filter.clone(), i.label.clone(), i.value.to_bits())
                    let:item>
                    {
                        let f = item.filter.clone();
                        let f2 = f.clone();
                        let hit = item.hit;
                        let rect = move || {
                            hit.and_then(|(r, c)| layout.with(|l| l.find(r, c))).map(|b| {
                                let (l, t, r, bt) = b.rect;
                                format!("{l},{t},{r},{bt}")
                            })
                        };
                        let pressed = {
                            let f = f.clone();
                            move || (active().as_deref() == Some(f.as_str())).to_string()
                        };
                        let value = match item.metric.clone() {
                            Some(name) => view! { <MetricValue name=name value=item.value digits=0 /> }.into_any(),
                            None => view! { <span>{number_text(item.value)}</span> }.into_any(),
                        };
                        view! {
                            <li>
                                <button type="button" data-filter=f data-rect=rect aria-pressed=pressed
                                    on:click=move |_| set_filter(f2.clone())>{item.label.clone()}</button>
                                " " {value}
                            </li>
                        }
                    }
                </For>
            </ul>
        </figure>
    }
}

/// A count as an integer, a share with one decimal.
fn number_text(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}
