//! Small statistics: means, sample standard deviation, quantiles and the normal tail.
//!
//! Conventions are named in each function, because the harness uses three different
//! percentile rules (numpy's linear interpolation, the retrieval report's index rule and
//! a nearest-rank rule). Empty inputs give `None`, never a panic or a NaN.

use std::f64::consts::PI;

/// Arithmetic mean `Σx / n`; `None` for an empty slice.
///
/// Example: `mean(&[1.0, 0.5, 0.0]) == Some(0.5)`.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().fold(0.0, |acc, x| acc + x) / values.len() as f64)
}

/// Sample standard deviation with `ddof = 1`: `sqrt(Σ(x − mean)² / (n − 1))`.
///
/// `None` when `n < 2` (numpy would return NaN). Example: `[0, 1]` → `sqrt(0.5)`.
pub fn sample_std(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean(values)?;
    let ss = values.iter().fold(0.0, |acc, x| acc + (x - m) * (x - m));
    Some((ss / (values.len() - 1) as f64).sqrt())
}

/// Standard error of the mean as the harness computes it (08_results_stats):
/// `sample_std(ddof = 1) / sqrt(n)`. `None` when `n < 2`.
pub fn standard_error(values: &[f64]) -> Option<f64> {
    Some(sample_std(values)? / (values.len() as f64).sqrt())
}

/// numpy's default quantile (`method="linear"`): with the values sorted ascending, position
/// `h = q·(n − 1)`, result `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.
///
/// `q` is clamped to `[0, 1]`; NaN values must not be passed (they sort last). `None` for
/// an empty slice. Example: `quantile_linear(&[1, 2, 3, 4], 0.5) == 2.5`.
pub fn quantile_linear(values: &[f64], q: f64) -> Option<f64> {
    let n = values.len();
    if n == 0 {
        return None;
    }
    let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
    let lo = h.floor() as usize;
    // Linear-time selection instead of a full sort: x[lo] is the lo-th smallest and x[lo+1]
    // the smallest of the values above it.
    let mut work = values.to_vec();
    let (_, &mut x_lo, above) = work.select_nth_unstable_by(lo, f64::total_cmp);
    let x_hi = above.iter().copied().min_by(f64::total_cmp).unwrap_or(x_lo);
    Some(x_lo + (h - lo as f64) * (x_hi - x_lo))
}

/// The statistical median (numpy `median`): the middle value, or the mean of the two middle
/// values when `n` is even. Example: `[3, 1, 2, 10]` → `2.5`.
pub fn median(values: &[f64]) -> Option<f64> {
    quantile_linear(values, 0.5)
}

/// The retrieval report's "median" (harness-formats §5.5): the **upper median**
/// `sorted[n / 2]` (integer division). Example: `[1, 2, 3, 4]` → `3`.
pub fn upper_median(values: &[f64]) -> Option<f64> {
    let sorted = sorted_copy(values);
    sorted.get(sorted.len() / 2).copied()
}

/// The retrieval report's p90 (harness-formats §5.5): `sorted[min(n − 1, ⌊0.9·n⌋)]`.
/// Example: for 10 values `1..=10` the index is `min(9, 9)`, giving `10`.
pub fn report_p90(values: &[f64]) -> Option<f64> {
    let sorted = sorted_copy(values);
    let n = sorted.len();
    (n > 0).then(|| sorted[(n - 1).min((0.9 * n as f64) as usize)])
}

/// Nearest-rank percentile with rounding (the ceiling summary's latency p90, §11.3):
/// `sorted[round(q·(n − 1))]`, rounding half away from zero.
/// Example: `q = 0.9` over `1..=10` → index `round(8.1) = 8` → `9`.
pub fn nearest_rank_rounded(values: &[f64], q: f64) -> Option<f64> {
    let sorted = sorted_copy(values);
    let n = sorted.len();
    (n > 0).then(|| sorted[((q.clamp(0.0, 1.0) * (n - 1) as f64).round() as usize).min(n - 1)])
}

fn sorted_copy(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// Complementary error function `erfc(x) = 1 − erf(x)`, accurate to about 1e-15 relative.
///
/// Method: for `|x| < 3`, the everywhere-positive series (Abramowitz & Stegun 7.1.6)
/// `erf(x) = 2/√π · e^(−x²) · Σₙ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`; for `x ≥ 3`, the continued
/// fraction (A&S 7.1.14) `erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`
/// evaluated with the modified Lentz algorithm; `erfc(−x) = 2 − erfc(x)`.
/// Example: `erfc(1.0) ≈ 0.157299207050285`.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        1.0 - erf_series(x)
    } else {
        erfc_continued_fraction(x)
    }
}

fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    while term > sum * 1e-17 {
        n += 1.0;
        term *= 2.0 * x2 / (2.0 * n + 1.0);
        sum += term;
    }
    2.0 / PI.sqrt() * libm::exp(-x2) * sum
}

fn erfc_continued_fraction(x: f64) -> f64 {
    // f = x + a1/(x + a2/(x + ...)) with a_k = k/2; modified Lentz.
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..500 {
        let a = k as f64 / 2.0;
        d = x + a * d;
        d = if d.abs() < tiny { tiny } else { d };
        c = x + a / c;
        c = if c.abs() < tiny { tiny } else { c };
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    libm::exp(-x * x) / PI.sqrt() / f
}

/// Two-sided p-value of a standard normal statistic: `P(|Z| ≥ |z|) = erfc(|z| / √2)`.
///
/// This is scipy's `2 * norm.sf(abs(z))`. Example: `z = 1.0` → `0.3173105…`.
pub fn normal_two_sided_p(z: f64) -> f64 {
    erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// Harness 95% CLT interval (08_results_stats): `(mean − 1.96·se, mean + 1.96·se)`.
pub fn ci95(mean: f64, se: f64) -> (f64, f64) {
    (mean - 1.96 * se, mean + 1.96 * se)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn erfc_matches_python_math_erfc() {
        // Provenance: CPython 3.11.7 `math.erfc` (C libm) on this machine, 2026-12-02.
        let cases = [
            (1.0, 0.15729920705028513),
            (2.0, 0.004677734981047265),
            (0.1, 0.8875370839817152),
            (5.0, 1.5374597944280351e-12),
            (10.0, 2.088487583762545e-45),
        ];
        for (x, want) in cases {
            close(erfc(x) / want, 1.0, 1e-13);
        }
        close(erfc(-1.0), 2.0 - 0.15729920705028513, 1e-15);
        close(erfc(0.0), 1.0, 0.0);
        close(erfc(3.0), 2.209049699858544e-05, 1e-18); // math.erfc(3.0)
        close(erfc(2.999999), 2.2090633e-05, 1e-11);
    }

    #[test]
    fn two_sided_p_matches_scipy() {
        // scipy 2*norm.sf(z) == math.erfc(z/sqrt(2)): 1.43 → 0.152717019, 1.00 → 0.317310508.
        close(normal_two_sided_p(1.43), 0.15271701907347823, 1e-12);
        close(normal_two_sided_p(-1.0), 0.31731050786291415, 1e-12);
        close(normal_two_sided_p(1.43), 0.1527, 1e-4);
        close(normal_two_sided_p(1.0), 0.3173, 1e-4);
    }

    #[test]
    fn quantile_conventions_differ_as_documented() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(median(&v), Some(5.5)); // (5 + 6) / 2
        assert_eq!(upper_median(&v), Some(6.0)); // v[10 / 2]
        assert_eq!(report_p90(&v), Some(10.0)); // v[min(9, 9)]
        assert_eq!(nearest_rank_rounded(&v, 0.9), Some(9.0)); // v[round(8.1)]
        close(quantile_linear(&v, 0.9).unwrap(), 9.0 + 0.1 * 1.0, 1e-12); // h = 8.1
        assert_eq!(median(&[]), None);
        assert_eq!(report_p90(&[]), None);
        assert_eq!(upper_median(&[7.0]), Some(7.0));
    }

    #[test]
    fn std_and_se_follow_ddof_one() {
        assert_eq!(sample_std(&[1.0]), None);
        close(sample_std(&[0.0, 1.0]).unwrap(), 0.5f64.sqrt(), 1e-15);
        close(
            standard_error(&[0.0, 1.0]).unwrap(),
            0.5f64.sqrt() / 2f64.sqrt(),
            1e-15,
        );
        assert_eq!(mean(&[]), None);
    }
}
