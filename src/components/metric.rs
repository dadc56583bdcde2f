//! A headline number: shown rounded, carrying the exact value for tests and scrapers.

use leptos::prelude::*;

/// Renders `value` (or `100 × value` with `percent`) with `digits` decimals inside an element carrying
/// `data-metric="<name>"` and `data-value="<unrounded value>"`.
#[component]
pub fn MetricValue(
    /// Metric name, e.g. `recall@5`, `ndcg@10`, `pass:<model key>`.
    #[prop(into)]
    name: String,
    /// The unrounded value.
    #[prop(into)]
    value: Signal<f64>,
    /// Decimals shown (default 3).
    #[prop(default = 3)]
    digits: usize,
    /// Show a fraction as a percentage (`data-value` stays the fraction).
    #[prop(optional)]
    percent: bool,
) -> impl IntoView {
    let scale = if percent { 100.0 } else { 1.0 };
    view! {
        <span class="metric" data-metric=name data-value=move || value.get().to_string()>
            {move || format!("{:.*}", digits, scale * value.get())}
        </span>
    }
}
