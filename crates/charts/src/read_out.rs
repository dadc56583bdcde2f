//! Hover read-outs: the words for the mark under a pixel of a drawn chart (its label and
//! value, as the chart's data has them), from the chart and the layout its draw returned.

use crate::any::{AnyChart, AnyLayout};

/// `v` with the decimals its axis calls for: one on an axis wider than 10 (percent, points),
/// three on a narrower one (shares, probabilities).
fn num(v: f64, range: (f64, f64)) -> String {
    if (range.1 - range.0).abs() > 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// Values a trend's read-out lists for one run before "· N more".
const TREND_READ_OUT_MAX: usize = 6;

/// `" (95% CI lo–hi)"` for an interval, nothing without one.
fn interval(ci: Option<(f64, f64)>, range: (f64, f64)) -> String {
    ci.map_or_else(String::new, |(lo, hi)| {
        format!(" (95% CI {}–{})", num(lo, range), num(hi, range))
    })
}

impl AnyChart {
    /// What the mark under pixel `(x, y)` of the drawn chart shows, in words; `None` where
    /// no mark is. `layout` is what drawing this chart returned.
    ///
    /// Example: a bar chart's bar "GPT-4.1 (top)" at 61.5 with the interval 55.2–67.8 reads
    /// `"GPT-4.1 (top): 61.5 (95% CI 55.2–67.8)"`.
    pub fn read_out(&self, layout: &AnyLayout, x: i32, y: i32) -> Option<String> {
        match (self, layout) {
            (AnyChart::CiBars(c), AnyLayout::CiBars(l)) => {
                let b = c.bars.get(l.row_at(y)?)?;
                Some(format!(
                    "{}: {}{}",
                    b.label,
                    num(b.value, c.x_range),
                    interval(b.ci, c.x_range)
                ))
            }
            (AnyChart::Forest(c), AnyLayout::Forest(l)) => {
                let r = c.rows.get(l.row_at(y)?)?;
                Some(format!(
                    "{}: {}{}",
                    r.label,
                    num(r.estimate, c.x_range),
                    interval(r.ci, c.x_range)
                ))
            }
            (AnyChart::Probability(c), AnyLayout::Probability(l)) => {
                let b = c.bars.get(l.bar_at(y)?)?;
                let gold = if b.is_gold { " (gold)" } else { "" };
                Some(format!("{}{gold}: P(yes) = {:.3}", b.table, b.p))
            }
            (AnyChart::KStar(c), AnyLayout::KStar(l)) => {
                let i = l.column_at(x)?;
                let plural = |n: usize| if n == 1 { "question" } else { "questions" };
                match c.counts.get(i) {
                    Some(&n) => Some(format!("k* = {}: {n} {}", i + 1, plural(n))),
                    None if i == c.counts.len() => Some(format!(
                        "not found in the ranking: {} {}",
                        c.not_found,
                        plural(c.not_found)
                    )),
                    None => None,
                }
            }
            (AnyChart::TurnTokens(c), AnyLayout::TurnTokens(l)) => {
                let i = l.columns_px.iter().position(|&(a, b)| x >= a && x <= b)?;
                let t = c.turns.get(i)?;
                Some(format!(
                    "call {}: {} input, {} output tokens",
                    i + 1,
                    t.input,
                    t.output
                ))
            }
            (AnyChart::Curves(c), AnyLayout::Curves(l)) => {
                let k = l.k_at(x)?;
                let values: Vec<String> = c
                    .series
                    .iter()
                    .filter_map(|s| {
                        let (_, v) = s.points.iter().find(|(pk, _)| *pk == k)?;
                        Some(format!("{} {v:.4}", s.label))
                    })
                    .collect();
                (!values.is_empty()).then(|| format!("k = {k}: {}", values.join(" · ")))
            }
            (AnyChart::Trend(c), AnyLayout::Trend(l)) => {
                let range = c.y_range;
                if let Some((s, r)) = l.point_at(x, y) {
                    let series = c.series.get(s)?;
                    let v = (*series.points.get(r)?)?;
                    return Some(format!(
                        "{} in {}: {}{}",
                        series.label,
                        c.runs.get(r)?,
                        num(v.value, range),
                        interval(v.ci, range)
                    ));
                }
                let r = l.run_at(x)?;
                let mut values: Vec<(f64, &str)> = c
                    .series
                    .iter()
                    .filter_map(|s| Some(((*s.points.get(r)?)?.value, s.label.as_str())))
                    .collect();
                values.sort_by(|a, b| b.0.total_cmp(&a.0));
                let shown: Vec<String> = values
                    .iter()
                    .take(TREND_READ_OUT_MAX)
                    .map(|(v, label)| format!("{label} {}", num(*v, range)))
                    .collect();
                let more = values.len().saturating_sub(TREND_READ_OUT_MAX);
                let tail = if more > 0 {
                    format!(" · {more} more")
                } else {
                    String::new()
                };
                Some(format!("{}: {}{tail}", c.runs.get(r)?, shown.join(" · ")))
            }
            (chart, AnyLayout::Hits(h)) => {
                let hit = h.at(x, y)?;
                chart.hit_read_out(hit.row, hit.col)
            }
            _ => None,
        }
    }

    /// The words for element `(row, col)` of a chart whose layout is hit boxes.
    fn hit_read_out(&self, row: usize, col: usize) -> Option<String> {
        match self {
            AnyChart::HBars(c) => {
                let b = c.bars.get(row)?;
                Some(format!("{}: {}", b.label, b.value))
            }
            AnyChart::Stacked(c) => {
                let r = c.rows.get(row)?;
                let n = *r.counts.get(col)?;
                let (series, _) = c.series.get(col)?;
                let total: usize = r.counts.iter().sum();
                let share = if total == 0 {
                    0.0
                } else {
                    100.0 * n as f64 / total as f64
                };
                Some(format!(
                    "{} · {series}: {n} of {total} ({share:.1}%)",
                    r.label
                ))
            }
            AnyChart::Heatmap(c) => {
                let p = c.percent.get(row)?.get(col)?;
                Some(format!(
                    "{} · {}: {p:.1}%",
                    c.rows.get(row)?,
                    c.cols.get(col)?
                ))
            }
            AnyChart::Histogram(c) => {
                let n = *c.counts.get(col)?;
                let bins = c.counts.len() as f64;
                let (lo, hi) = (col as f64 / bins, (col + 1) as f64 / bins);
                Some(format!("{lo:.2}–{hi:.2}: {n}"))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
#[path = "read_out_tests.rs"]
mod tests;
