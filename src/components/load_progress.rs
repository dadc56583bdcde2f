//! The progress of a load: phase, bytes (or rows) and percent, and a Cancel button.

use leptos::prelude::*;

use crate::data::Progress;

/// `12.3 MB` style sizes (decimal units, one decimal above a kilobyte).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if n < 1000 {
        return format!("{n} bytes");
    }
    let mut value = n as f64 / 1000.0;
    let mut unit = UNITS[0];
    for next in &UNITS[1..] {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = next;
    }
    format!("{value:.1} {unit}")
}

/// The amount line: `3.4 MB of 34.1 MB (10%)`, `3.4 MB`.
pub fn amount_text(p: &Progress) -> String {
    let fmt = human_bytes;
    match (p.total, p.fraction()) {
        (Some(total), Some(f)) => format!("{} of {} ({:.0}%)", fmt(p.done), fmt(total), 100.0 * f),
        _ if p.done > 0 => fmt(p.done),
        _ => String::new(),
    }
}

/// A progress bar for `progress` with a Cancel button calling `on_cancel`.
#[component]
pub fn LoadProgress(
    /// The current phase and amount.
    #[prop(into)]
    progress: Signal<Progress>,
    /// Called when the reader presses Cancel.
    on_cancel: Callback<()>,
) -> impl IntoView {
    let percent = move || progress.get().fraction().map(|f| (100.0 * f).round());
    view! {
        <section class="load-progress" data-testid="load-progress" aria-live="polite">
            <p class="load-phase" data-phase=move || format!("{:?}", progress.get().phase).to_lowercase()>
                {move || progress.get().phase.label()} "…"
            </p>
            <progress
                max="100"
                value=move || percent().map(|p| p.to_string())
                aria-label="loading progress"
            ></progress>
            <p class="load-amount" data-testid="load-amount">{move || amount_text(&progress.get())}</p>
            <button type="button" class="load-cancel" on:click=move |_| on_cancel.run(())>
                "Cancel"
            </button>
        </section>
    }
}
