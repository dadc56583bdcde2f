//! How a mark looks: its symbol (so the matrix reads without colour too) and the legend with
//! the count of each mark among the listed rows.

use leptos::prelude::*;
use runlens_core::metrics::matrix_view::Mark;

/// The symbol drawn in a cell of `mark`.
pub fn symbol(mark: Mark) -> &'static str {
    match mark {
        Mark::Pass => "✓",
        Mark::Tie => "=",
        Mark::Fail => "✗",
        Mark::Loss => "✗",
        Mark::TurnLimited => "T",
        Mark::Error => "!",
        Mark::Unknown => "?",
        Mark::Missing => "",
    }
}

/// The legend: each mark present, its symbol, its words and its count
/// (`data-metric="matrix:cells:<mark>"`).
#[component]
pub fn Legend(counts: Vec<(Mark, usize)>) -> impl IntoView {
    view! {
        <ul class="matrix-legend" aria-label="Cells by outcome">
            {counts.into_iter().map(|(mark, n)| view! {
                <li>
                    <span class="mx-swatch" data-outcome=mark.key() aria-hidden="true">{symbol(mark)}</span>
                    {format!(" {} ", mark.label())}
                    <span data-metric=format!("matrix:cells:{}", mark.key()) data-value=n.to_string()>{n.to_string()}</span>
                </li>
            }).collect_view()}
        </ul>
    }
}
