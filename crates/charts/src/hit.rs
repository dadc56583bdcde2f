//! Hit boxes: where the bars and cells of a chart landed, in pixels, so a click on the
//! canvas maps back to the element (and a test can click at a bar's centre).

use plotters::style::RGBColor;

/// One drawn element: its pixel rectangle and which row / column of the data it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitBox {
    /// Left, top, right, bottom pixel coordinates (inclusive).
    pub rect: (i32, i32, i32, i32),
    /// Data row (bar index, model index, …).
    pub row: usize,
    /// Data column (segment, FM code or bin index; 0 for plain bars).
    pub col: usize,
}

impl HitBox {
    /// The rectangle's centre.
    pub fn centre(&self) -> (i32, i32) {
        let (l, t, r, b) = self.rect;
        ((l + r) / 2, (t + b) / 2)
    }
}

/// The hit boxes of a drawn chart.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HitLayout {
    /// Every clickable element, in drawing order.
    pub boxes: Vec<HitBox>,
}

impl HitLayout {
    /// The element under pixel `(x, y)`, if any.
    pub fn at(&self, x: i32, y: i32) -> Option<HitBox> {
        self.boxes.iter().copied().find(|b| {
            let (l, t, r, bt) = b.rect;
            x >= l.min(r) && x <= l.max(r) && y >= t.min(bt) && y <= t.max(bt)
        })
    }

    /// The box showing `(row, col)`, if drawn.
    pub fn find(&self, row: usize, col: usize) -> Option<HitBox> {
        self.boxes
            .iter()
            .copied()
            .find(|b| b.row == row && b.col == col)
    }
}

/// `"#RRGGBB"` as a colour; `None` when malformed. Example: `"#009E73"` → `(0, 158, 115)`.
pub fn hex_color(hex: &str) -> Option<RGBColor> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let p = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some(RGBColor(p(0)?, p(2)?, p(4)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_hits() {
        assert_eq!(hex_color("#009E73"), Some(RGBColor(0, 158, 115)));
        assert_eq!(hex_color("009E73"), None);
        assert_eq!(hex_color("#00é"), None);
        let l = HitLayout {
            boxes: vec![HitBox {
                rect: (10, 20, 30, 40),
                row: 2,
                col: 1,
            }],
        };
        assert_eq!(l.at(10, 40).map(|b| b.row), Some(2));
        assert_eq!(l.at(31, 30), None);
        assert_eq!(l.find(2, 1).map(|b| b.centre()), Some((20, 30)));
    }
}
