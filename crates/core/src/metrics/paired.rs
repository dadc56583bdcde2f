//! The paired z-test of 08_results_stats (harness-formats §11.2).

use serde::{Deserialize, Serialize};

use super::stats::{mean, normal_two_sided_p, sample_std};

/// Result of a paired comparison against the top model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedTest {
    /// Number of questions where both cells are scored.
    pub n: usize,
    /// `mean(d)` with `d = s_top − s_model`; `None` when `n = 0`.
    pub mean_diff: Option<f64>,
    /// `z = mean(d) / SE_d`; `None` when `n < 2` or `SE_d = 0`.
    pub z: Option<f64>,
    /// Two-sided normal p-value; `None` when `n < 2`; when `SE_d = 0`: 1 if `mean(d) = 0`,
    /// else 0.
    pub p: Option<f64>,
}

/// Paired z-test over aligned per-question scores (`None` = not scored).
///
/// ## Definition
/// Over questions where both are scored: `d = top − other`, `SE_d = std(d, ddof 1) / √n`,
/// `z = mean(d) / SE_d`, `p = 2·(1 − Φ(|z|))`. Edge cases as the harness: `n < 2` → z and p
/// undefined; `SE_d = 0` → z undefined, p = 1 if `mean(d) = 0` else 0.
/// ## Example
/// README vector: top `{1×8}`, glm `{1×6, 0.5, 0}` → `z ≈ 1.43`, `p ≈ 0.154`.
/// ```
/// use runlens_core::metrics::paired::paired_z_test;
/// let top = [Some(1.0); 8];
/// let glm = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0].map(Some);
/// let t = paired_z_test(&top, &glm);
/// assert!((t.z.unwrap() - 1.43).abs() < 0.005 && (t.p.unwrap() - 0.154).abs() < 0.0005);
/// ```
pub fn paired_z_test(top: &[Option<f64>], other: &[Option<f64>]) -> PairedTest {
    let d: Vec<f64> = top
        .iter()
        .zip(other)
        .filter_map(|(a, b)| Some((*a)? - (*b)?))
        .collect();
    let n = d.len();
    let mean_diff = mean(&d);
    let mut out = PairedTest {
        n,
        mean_diff,
        z: None,
        p: None,
    };
    let (Some(m), Some(sd)) = (mean_diff, sample_std(&d)) else {
        return out;
    };
    let se = sd / (n as f64).sqrt();
    if se == 0.0 {
        out.p = Some(if m == 0.0 { 1.0 } else { 0.0 });
    } else {
        let z = m / se;
        out.z = Some(z);
        out.p = Some(normal_two_sided_p(z));
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn edge_cases_follow_the_harness() {
        let t = paired_z_test(&[Some(1.0)], &[Some(0.0)]);
        assert_eq!((t.n, t.z, t.p), (1, None, None));
        let t = paired_z_test(&[Some(1.0), Some(1.0)], &[Some(1.0), Some(1.0)]);
        assert_eq!((t.z, t.p), (None, Some(1.0)));
        let t = paired_z_test(&[Some(1.0), Some(1.0)], &[Some(0.0), Some(0.0)]);
        assert_eq!((t.z, t.p), (None, Some(0.0)));
        let t = paired_z_test(&[Some(1.0), None, Some(1.0)], &[Some(0.0), Some(1.0), None]);
        assert_eq!(t.n, 1);
    }
}
