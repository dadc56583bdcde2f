//! The reference `confidence` of a choice or score answer, from its probabilities
//! (docs.typesafe.ai/confidence as jevcompat 0.1.1 reads it; jev-api.md §5).
//!
//! - choice, `n` options: `(p_max − 1/n) / (1 − 1/n)`: 0 for a uniform answer, 1 for a certain
//!   one.
//! - score, `n` levels, mode `m` (the first most probable level):
//!   `max(0, 1 − Σ pᵢ·|i − m| / U(n))` with `U(n)` = mean over `i` of `|i − (n−1)/2|`, the
//!   spread of a uniform answer around its centre.
//!
//! One option or level is certain: confidence 1.

/// Choice confidence from the probabilities of the `n` options.
///
/// ```
/// use runlens_core::jev::confidence::choice_confidence;
/// // The live sample in jev-api.md §5: (0.33 − 1/4) / (1 − 1/4) = 0.08 / 0.75.
/// assert!((choice_confidence(&[0.16, 0.28, 0.33, 0.23]) - 0.08 / 0.75).abs() < 1e-12);
/// assert_eq!(choice_confidence(&[0.5, 0.5]), 0.0);
/// assert_eq!(choice_confidence(&[1.0]), 1.0);
/// ```
pub fn choice_confidence(probabilities: &[f64]) -> f64 {
    let n = probabilities.len();
    if n <= 1 {
        return 1.0;
    }
    let p_max = probabilities.iter().copied().fold(f64::MIN, f64::max);
    let uniform = 1.0 / n as f64;
    (p_max - uniform) / (1.0 - uniform)
}

/// Score confidence from the probabilities of levels `0..n`, in level order.
///
/// ```
/// use runlens_core::jev::confidence::score_confidence;
/// // Two levels, p = (0.1505, 0.8495): mode 1, spread 0.1505, U(2) = (0.5 + 0.5) / 2 = 0.5,
/// // so 1 − 0.1505 / 0.5 = 0.699.
/// assert!((score_confidence(&[0.1505, 0.8495]) - (1.0 - 0.1505 / 0.5)).abs() < 1e-12);
/// // Three levels, p = (0.2, 0.5, 0.3): mode 1, spread 0.2 + 0.3 = 0.5,
/// // U(3) = (1 + 0 + 1) / 3, so 1 − 0.5 · 3/2 = 0.25.
/// assert!((score_confidence(&[0.2, 0.5, 0.3]) - 0.25).abs() < 1e-12);
/// // Uniform over five levels: U(5) = 6/5, spread from mode 0 = 2, clamped to 0.
/// assert_eq!(score_confidence(&[0.2; 5]), 0.0);
/// ```
pub fn score_confidence(probabilities: &[f64]) -> f64 {
    let n = probabilities.len();
    if n <= 1 {
        return 1.0;
    }
    let mode = first_max(probabilities);
    let spread: f64 = probabilities
        .iter()
        .enumerate()
        .map(|(i, p)| p * i.abs_diff(mode) as f64)
        .sum();
    let centre = (n as f64 - 1.0) / 2.0;
    let uniform_spread = (0..n).map(|i| (i as f64 - centre).abs()).sum::<f64>() / n as f64;
    (1.0 - spread / uniform_spread).max(0.0)
}

/// Index of the first largest value (0 for an empty slice).
fn first_max(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = i;
        }
    }
    best
}
