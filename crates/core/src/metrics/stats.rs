//! Small statistics: means, sample standard deviation, quantiles and the normal tail.
//!
//! Conventions are named in each function, because the harness uses three different
//! percentile rules (numpy's linear interpolation, the retrieval report's index rule and
//! a nearest-rank rule). Empty inputs give `None`, never a panic or a NaN.

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

/// Complementary error function `erfc(x) = 1 − erf(x)`: `libm::erfc` (the pure-Rust port of
/// musl's, the same bits natively and on wasm32; within 1e-13 relative of CPython's C-libm
/// `math.erfc`, see the test). Example: `erfc(1.0) ≈ 0.157299207050285`.
pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
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
        assert!(erfc(f64::NAN).is_nan());
        close(erfc(30.0), 0.0, 0.0); // underflows, as math.erfc(30.0) == 0.0
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
