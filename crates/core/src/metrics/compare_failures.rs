//! Two runs' failure histograms compared (#21, "Failures"): for each sub-mode (or FM
//! bucket, or family), its share of the run's labelled failures in A and in B and the shift
//! B − A. The two runs' failures are different sets of cells, so the intervals are those of
//! independent proportions (normal, unpooled): `share ± 1.96·√(p(1−p)/n)` for each run and
//! `shift ± 1.96·√(p_A(1−p_A)/n_A + p_B(1−p_B)/n_B)` for the shift.

use indexmap::IndexMap;

/// One histogram element in both runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareShift {
    /// Sub-mode, bucket or family, as the histogram names it.
    pub key: String,
    /// Its count in A.
    pub count_a: usize,
    /// Its count in B.
    pub count_b: usize,
    /// `count_a / n_a` (`None` when A has no failures).
    pub share_a: Option<f64>,
    /// `count_b / n_b`.
    pub share_b: Option<f64>,
    /// `share_b − share_a`.
    pub shift: Option<f64>,
    /// The shift's normal 95% interval.
    pub ci95: Option<(f64, f64)>,
}

/// The normal 95% interval of a share `p` of `n`.
pub fn share_interval(p: f64, n: usize) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let h = 1.96 * (p * (1.0 - p) / n as f64).sqrt();
    Some((p - h, p + h))
}

/// The elements of histograms `a` and `b` (A's order, then B's others) that either run
/// counts, with shares of each histogram's total.
///
/// Example: A {x: 1, y: 3}, B {x: 2, y: 2}: x 25 % → 50 %, shift +0.25, interval
/// ±1.96·√(0.1875/4 + 0.25/4).
pub fn share_shifts(a: &IndexMap<String, usize>, b: &IndexMap<String, usize>) -> Vec<ShareShift> {
    let (na, nb): (usize, usize) = (a.values().sum(), b.values().sum());
    let share = |c: usize, n: usize| (n > 0).then(|| c as f64 / n as f64);
    let mut keys: Vec<&String> = a.keys().collect();
    keys.extend(b.keys().filter(|k| !a.contains_key(*k)));
    keys.into_iter()
        .filter_map(|key| {
            let (ca, cb) = (
                a.get(key).copied().unwrap_or(0),
                b.get(key).copied().unwrap_or(0),
            );
            if ca == 0 && cb == 0 {
                return None;
            }
            let (sa, sb) = (share(ca, na), share(cb, nb));
            let (shift, ci95) = match (sa, sb) {
                (Some(pa), Some(pb)) => {
                    let d = pb - pa;
                    let se = (pa * (1.0 - pa) / na as f64 + pb * (1.0 - pb) / nb as f64).sqrt();
                    (Some(d), Some((d - 1.96 * se, d + 1.96 * se)))
                }
                _ => (None, None),
            };
            Some(ShareShift {
                key: key.clone(),
                count_a: ca,
                count_b: cb,
                share_a: sa,
                share_b: sb,
                shift,
                ci95,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(pairs: &[(&str, usize)]) -> IndexMap<String, usize> {
        pairs.iter().map(|(k, n)| ((*k).to_owned(), *n)).collect()
    }

    #[test]
    fn shares_of_each_runs_total_and_their_shift() {
        let a = hist(&[("x", 1), ("y", 3), ("zero", 0)]);
        let b = hist(&[("y", 2), ("x", 2), ("new", 4), ("zero", 0)]);
        let s = share_shifts(&a, &b);
        let keys: Vec<&str> = s.iter().map(|r| r.key.as_str()).collect();
        assert_eq!(keys, ["x", "y", "new"]);
        // A: 4 failures, B: 8. x: 1/4 → 2/8.
        assert_eq!(
            (s[0].share_a, s[0].share_b, s[0].shift),
            (Some(0.25), Some(0.25), Some(0.0))
        );
        // y: 3/4 → 2/8: shift −0.5, se √(0.1875/4 + 0.1875/8) = √0.0703125.
        assert_eq!(s[1].shift, Some(-0.5));
        let (lo, hi) = s[1].ci95.unwrap();
        let h = 1.96 * 0.0703125f64.sqrt();
        assert!((lo - (-0.5 - h)).abs() < 1e-15 && (hi - (-0.5 + h)).abs() < 1e-15);
        // new: 0/4 → 4/8.
        assert_eq!((s[2].count_a, s[2].count_b, s[2].shift), (0, 4, Some(0.5)));
        assert_eq!(share_interval(0.5, 4), Some((0.5 - 0.49, 0.5 + 0.49)));
        assert_eq!(share_interval(0.5, 0), None);
    }

    #[test]
    fn a_run_without_failures_has_no_shares() {
        let s = share_shifts(&hist(&[("x", 0)]), &hist(&[("x", 2)]));
        assert_eq!(s[0].share_a, None);
        assert_eq!(s[0].share_b, Some(1.0));
        assert_eq!((s[0].shift, s[0].ci95), (None, None));
    }
}
