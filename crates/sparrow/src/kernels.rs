//! The numeric kernels of the model, in `f32` like the NumPy original.
//!
//! * [`gelu`] uses the package's own `erf`: Abramowitz & Stegun formula 7.1.26 (absolute error
//!   below 1.5e-7), not a library `erf`, so the port reproduces the package and not the ideal.
//! * [`softmax_in_place`] subtracts the maximum first (no overflow for large logits).
//! * [`dot`] keeps 8 partial sums so the compiler can vectorise it; the result differs from a
//!   left-to-right sum only by rounding (a few ulps).

/// `erf(x)` by Abramowitz & Stegun 7.1.26, as in `sparrow_decider.engine._erf`.
///
/// ```
/// use runlens_sparrow::kernels::erf_as;
/// assert_eq!(erf_as(0.0), 0.0);
/// assert!((erf_as(1.0) - 0.842_700_8).abs() < 2e-7);
/// assert_eq!(erf_as(-1.0), -erf_as(1.0));
/// ```
pub fn erf_as(x: f32) -> f32 {
    let sign = if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    };
    // The package writes these as Python floats; NumPy rounds them to f32 next to f32 data.
    const P: f32 = 0.3275911_f64 as f32;
    const A1: f32 = 1.061405429_f64 as f32;
    const A2: f32 = 1.453152027_f64 as f32;
    const A3: f32 = 1.421413741_f64 as f32;
    const A4: f32 = 0.284496736_f64 as f32;
    const A5: f32 = 0.254829592_f64 as f32;
    let a = x.abs();
    let t = 1.0 / (1.0 + P * a);
    let poly = ((((A1 * t - A2) * t) + A3) * t - A4) * t + A5;
    let y = 1.0 - poly * t * (-a * a).exp();
    sign * y
}

/// GELU with the A&S `erf`: `0.5·x·(1 + erf(x/√2))`.
///
/// ```
/// use runlens_sparrow::kernels::gelu;
/// assert_eq!(gelu(0.0), 0.0);
/// // 0.5·1·(1 + erf(1/√2)) = 0.5·(1 + 0.682689492) = 0.841344746
/// assert!((gelu(1.0) - 0.841_344_7).abs() < 1e-6);
/// ```
pub fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + erf_as(x / std::f32::consts::SQRT_2))
}

/// Replaces `xs` by `softmax(xs)`: `exp(x − max) / Σ exp(x − max)`. An empty slice stays empty.
///
/// ```
/// use runlens_sparrow::kernels::softmax_in_place;
/// let mut v = [0.0f32, (3.0f32).ln()];
/// softmax_in_place(&mut v);
/// assert!((v[0] - 0.25).abs() < 1e-7 && (v[1] - 0.75).abs() < 1e-7);
/// ```
pub fn softmax_in_place(xs: &mut [f32]) {
    let max = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for x in xs.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in xs.iter_mut() {
        *x /= sum;
    }
}

/// Dot product of two equal-length slices (the shorter length wins if they differ).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// `out[i] = dot(rows[i], x) + bias[i]` for a row-major matrix of `out.len()` rows of `x.len()`.
pub fn mat_vec(rows: &[f32], bias: &[f32], x: &[f32], out: &mut [f32]) {
    for ((o, row), b) in out.iter_mut().zip(rows.chunks_exact(x.len())).zip(bias) {
        *o = dot(row, x) + b;
    }
}

/// Divides `v` by its Euclidean norm, or by 1e-12 if the norm is smaller (as the package does).
pub fn l2_normalize(v: &mut [f32]) {
    let norm = dot(v, v).sqrt().max(1e-12);
    for x in v.iter_mut() {
        *x /= norm;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values_within_the_formula_error() {
        // erf(0.5) = 0.520499877813, erf(2) = 0.995322265019 (A&S table 7.1).
        assert!((erf_as(0.5) - 0.520_499_9).abs() < 3e-7);
        assert!((erf_as(2.0) - 0.995_322_3).abs() < 3e-7);
        assert!((erf_as(-2.0) + 0.995_322_3).abs() < 3e-7);
    }

    #[test]
    fn gelu_negative_tail_goes_to_zero() {
        // gelu(-3) = -3·0.5·(1 − erf(3/√2)) = -3·0.5·0.002699796 = -0.004049694
        assert!((gelu(-3.0) + 0.004_049_694).abs() < 1e-6);
        assert!(gelu(-20.0).abs() < 1e-30);
    }

    #[test]
    fn softmax_survives_large_logits_and_sums_to_one() {
        let mut v = [1000.0f32, 1000.0, 999.0];
        softmax_in_place(&mut v);
        // e^0, e^0, e^-1 over 2 + e^-1 = 2.367879441
        assert!((v[0] - 1.0 / 2.367_879_4).abs() < 1e-6);
        assert!((v[2] - 0.367_879_44 / 2.367_879_4).abs() < 1e-6);
        assert!((v.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn dot_and_mat_vec() {
        let a: Vec<f32> = (1..=11).map(|i| i as f32).collect();
        // Σ i² for i = 1..11 = 11·12·23/6 = 506
        assert_eq!(dot(&a, &a), 506.0);
        let rows = [1.0, 2.0, 3.0, 4.0];
        let mut out = [0.0; 2];
        mat_vec(&rows, &[0.5, -0.5], &[10.0, 1.0], &mut out);
        assert_eq!(out, [12.5, 33.5]);
    }

    #[test]
    fn l2_normalize_unit_and_zero() {
        let mut v = [3.0f32, 4.0];
        l2_normalize(&mut v);
        assert_eq!(v, [0.6, 0.8]);
        let mut z = [0.0f32; 3];
        l2_normalize(&mut z);
        assert_eq!(z, [0.0; 3]);
    }
}
