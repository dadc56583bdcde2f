//! Failure aggregates: counts sum to n, thresholds, histogram edges, blame ranking.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

#[test]
fn counts_roll_up_and_sum_to_n() {
    let c = count_failures([
        Some("wrong_join"),
        Some("tool_loop"),
        None,
        Some("brand_new"),
        Some("wrong_grain"),
    ]);
    assert_eq!(c.n, 5);
    assert_eq!(c.sub_mode["wrong_join"], 1);
    assert_eq!(c.sub_mode["brand_new"], 1);
    assert_eq!(c.sub_mode[MISSING], 1);
    assert_eq!(c.family["query_construction"], 2);
    assert_eq!(c.family[NO_FAMILY], 2);
    assert_eq!(c.fm_bucket["FM4 wrong impl"], 2);
    assert_eq!(c.fm_bucket["budget"], 1);
    assert_eq!(c.fm_bucket["not a model failure"], 2);
    for obj in [&c.sub_mode, &c.family, &c.fm_bucket] {
        assert_eq!(obj.values().sum::<usize>(), 5);
    }
    let keys: Vec<&String> = c.fm_bucket.keys().collect();
    assert_eq!(keys[0], "FM1 no attempt");
    assert_eq!(keys.len(), 7);
}

#[test]
fn per_model_counts_keep_first_seen_order() {
    let by = count_failures_by_model([
        ("b", Some("wrong_join")),
        ("a", None),
        ("b", Some("wrong_table")),
    ]);
    assert_eq!(by.keys().collect::<Vec<_>>(), vec!["b", "a"]);
    assert_eq!(by["b"].n, 2);
    assert_eq!(by["b"].fm_bucket["FM3 wrong data"], 1);
}

#[test]
fn thresholds_are_inclusive_and_skip_missing() {
    let v = [Some(0.5), Some(0.64), Some(0.65), None, Some(0.99)];
    assert_eq!(count_at_least(v, 0.5), 4);
    assert_eq!(count_at_least(v, 0.65), 2);
}

#[test]
fn histogram_follows_numpy_edges() {
    // 20 bins over [0, 1]: 0.0 → bin 0, 0.05 → bin 1, 1.0 → bin 19 (last bin closed).
    let h = histogram(
        [
            Some(0.0),
            Some(0.05),
            Some(1.0),
            Some(1.5),
            None,
            Some(f64::NAN),
        ],
        20,
        0.0,
        1.0,
    );
    assert_eq!((h[0], h[1], h[19], h.iter().sum::<usize>()), (1, 1, 1, 3));
    assert_eq!(histogram([Some(0.5)], 0, 0.0, 1.0), Vec::<usize>::new());
}

#[test]
fn blame_ranking_and_verdicts() {
    let b = rule_blame([
        Some("a"),
        Some("b"),
        Some("b"),
        Some("none"),
        None,
        Some("c"),
    ]);
    assert_eq!(
        b.ranked,
        vec![("b".into(), 2), ("a".into(), 1), ("c".into(), 1)]
    );
    assert_eq!((b.none, b.missing), (1, 1));
    let v = verdict_counts([("r", "ok"), ("r", "violation"), ("s", "n/a"), ("r", "ok")]);
    assert_eq!(v["r"]["ok"], 2);
    assert_eq!(v["s"]["n/a"], 1);
}

/// Bins of 20 over [0, 1] as numpy 2.4.6 gives them:
/// `np.histogram([v], bins=20, range=(0, 1))` for each v (computed 2026-12-05, `pip install
/// numpy`). Dividing by the width agrees everywhere but at 0.85, whose numpy edge
/// (`17 · 0.05` = 0.8500000000000001) lies above it.
#[test]
fn histogram_bins_are_numpys_on_and_near_the_edges() {
    let numpy = [
        (0.0, 0),
        (1e-300, 0),
        (0.05, 1),
        (0.07, 1),
        (0.1, 2),
        (0.14, 2),
        (0.15, 2),
        (0.2, 4),
        (0.21, 4),
        (0.25, 5),
        (0.28, 5),
        (0.3, 5),
        (0.30000000000000004, 6),
        (0.35, 6),
        (0.4, 8),
        (0.42, 8),
        (0.45, 9),
        (0.49, 9),
        (0.5, 10),
        (0.55, 11),
        (0.56, 11),
        (0.6, 11),
        (0.63, 12),
        (0.6499999999999999, 12),
        (0.65, 13),
        (0.7, 13),
        (0.7000000000000001, 14),
        (0.75, 15),
        (0.77, 15),
        (0.8, 16),
        (0.84, 16),
        (0.85, 16),
        (0.9, 18),
        (0.91, 18),
        (0.95, 18),
        (0.98, 19),
        (1.0, 19),
    ];
    for (v, bin) in numpy {
        assert_eq!(histogram_bin(v, 20, 0.0, 1.0), Some(bin), "{v}");
    }
    assert_eq!(histogram_bin(1.0000001, 20, 0.0, 1.0), None);
    assert_eq!(histogram_bin(-0.0000001, 20, 0.0, 1.0), None);
    assert_eq!(histogram_bin(f64::NAN, 20, 0.0, 1.0), None);
}
