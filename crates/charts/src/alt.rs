//! The text alternative of a chart: its title and the numbers it draws, in words, for the
//! canvas's `aria-label` (a screen reader reads the chart; the picture alone says nothing).

use crate::AnyChart;

/// Items listed before "… and N more".
pub const MAX_ITEMS: usize = 40;

/// `v` with up to 3 decimals, trailing zeros dropped: `0.25` → `"0.25"`, `2.0` → `"2"`.
fn num(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_owned();
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

fn interval(ci: Option<(f64, f64)>) -> String {
    ci.map_or_else(String::new, |(lo, hi)| {
        format!(" [{}, {}]", num(lo), num(hi))
    })
}

/// "title: a; b; c" with at most [`MAX_ITEMS`] items.
fn listed(title: &str, items: Vec<String>) -> String {
    let n = items.len();
    let mut shown: Vec<String> = items.into_iter().take(MAX_ITEMS).collect();
    if n > MAX_ITEMS {
        shown.push(format!("… and {} more", n - MAX_ITEMS));
    }
    if shown.is_empty() {
        return format!("{title}: no data.");
    }
    format!("{title}: {}.", shown.join("; "))
}

impl AnyChart {
    /// The chart in words: its title, then each mark with its value (and interval), e.g.
    /// `Pass rate on dev: gpt-4.1 62.5 [58.1, 66.9]; o3 60.2 [55.7, 64.7].`
    pub fn text_alternative(&self) -> String {
        match self {
            AnyChart::Curves(c) => listed(
                &c.title,
                c.series
                    .iter()
                    .map(|s| {
                        let points: Vec<String> = s
                            .points
                            .iter()
                            .map(|(k, v)| format!("k {k}: {}", num(*v)))
                            .collect();
                        format!("{}, {}", s.label, points.join(", "))
                    })
                    .collect(),
            ),
            AnyChart::CiBars(c) => listed(
                &c.title,
                c.bars
                    .iter()
                    .map(|b| format!("{} {}{}", b.label, num(b.value), interval(b.ci)))
                    .collect(),
            ),
            AnyChart::Probability(c) => listed(
                &c.title,
                c.bars
                    .iter()
                    .map(|b| {
                        let gold = if b.is_gold { " (gold)" } else { "" };
                        format!("{}{gold} P = {}", b.table, num(b.p))
                    })
                    .collect(),
            ),
            AnyChart::KStar(c) => {
                let mut items: Vec<String> = c
                    .counts
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(i, n)| format!("k* = {}: {n}", i + 1))
                    .collect();
                if c.not_found > 0 {
                    items.push(format!("not found: {}", c.not_found));
                }
                listed(&c.title, items)
            }
            AnyChart::TurnTokens(c) => listed(
                &c.title,
                c.turns
                    .iter()
                    .enumerate()
                    .map(|(i, t)| format!("call {}: {} in, {} out", i + 1, t.input, t.output))
                    .collect(),
            ),
            AnyChart::Forest(c) => listed(
                &c.title,
                c.rows
                    .iter()
                    .map(|r| format!("{} {}{}", r.label, num(r.estimate), interval(r.ci)))
                    .collect(),
            ),
            AnyChart::HBars(c) => listed(
                &c.title,
                c.bars
                    .iter()
                    .map(|b| format!("{} {}", b.label, b.value))
                    .collect(),
            ),
            AnyChart::Stacked(c) => listed(
                &c.title,
                c.rows
                    .iter()
                    .map(|r| {
                        let parts: Vec<String> = c
                            .series
                            .iter()
                            .zip(&r.counts)
                            .filter(|(_, n)| **n > 0)
                            .map(|((name, _), n)| format!("{name} {n}"))
                            .collect();
                        format!("{}, {}", r.label, parts.join(", "))
                    })
                    .collect(),
            ),
            AnyChart::Heatmap(c) => listed(
                &c.title,
                c.rows
                    .iter()
                    .zip(&c.percent)
                    .map(|(row, values)| {
                        let parts: Vec<String> = c
                            .cols
                            .iter()
                            .zip(values)
                            .map(|(col, v)| format!("{col} {}%", num(*v)))
                            .collect();
                        format!("{row}, {}", parts.join(", "))
                    })
                    .collect(),
            ),
            AnyChart::Histogram(c) => {
                let w = 1.0 / c.counts.len().max(1) as f64;
                listed(
                    &c.title,
                    c.counts
                        .iter()
                        .enumerate()
                        .filter(|(_, n)| **n > 0)
                        .map(|(i, n)| {
                            format!("{}–{}: {n}", num(i as f64 * w), num((i + 1) as f64 * w))
                        })
                        .collect(),
                )
            }
            AnyChart::Trend(c) => listed(
                &c.title,
                // The coloured lines first (drawn last, over the grey ones).
                c.series
                    .iter()
                    .filter(|s| s.in_legend)
                    .chain(c.series.iter().filter(|s| !s.in_legend))
                    .filter_map(|s| {
                        let mut seen = s
                            .points
                            .iter()
                            .zip(&c.runs)
                            .filter_map(|(p, run)| p.map(|p| (p, run)));
                        let (first, run) = seen.next()?;
                        let count = 1 + seen.clone().count();
                        Some(match seen.next_back() {
                            None => format!("{} {} in {run}", s.label, num(first.value)),
                            Some((last, end)) => format!(
                                "{} from {} in {run} to {} in {end} ({count} runs)",
                                s.label,
                                num(first.value),
                                num(last.value)
                            ),
                        })
                    })
                    .collect(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_drop_trailing_zeros() {
        assert_eq!(num(0.25), "0.25");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(f64::NAN), "n/a");
        assert_eq!(num(100.0 * (2.0 / 3.0)), "66.667");
    }

    #[test]
    fn long_lists_are_cut_with_a_count() {
        let items: Vec<String> = (0..45).map(|i| i.to_string()).collect();
        let text = listed("t", items);
        assert!(text.ends_with("; 39; … and 5 more."), "{text}");
        assert_eq!(listed("t", Vec::new()), "t: no data.");
    }
}
