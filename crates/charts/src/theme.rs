//! Colours: the harness's own plot colours and the Okabe-Ito palette, in light and dark themes.

use plotters::style::RGBColor;

/// Named colours used across charts. Values are the harness's (harness-formats.md §7.1, §9).
pub struct Palette;

impl Palette {
    /// recall@k line in the harness's retrieval-curve plot (`#1f77b4`).
    pub const RECALL: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
    /// all-required@k line in the harness's retrieval-curve plot (`#d62728`).
    pub const ALL_REQUIRED: RGBColor = RGBColor(0xd6, 0x27, 0x28);
    /// nDCG@k (not plotted by the harness): Okabe-Ito bluish green (`#009E73`).
    pub const NDCG: RGBColor = RGBColor(0x00, 0x9e, 0x73);
    /// Further metric curves (precision@k, success@k, MRR@k, …), in order: Okabe-Ito orange
    /// (`#E69F00`), reddish purple (`#CC79A7`) and sky blue (`#56B4E9`).
    pub const MORE_CURVES: [RGBColor; 3] = [
        RGBColor(0xe6, 0x9f, 0x00),
        RGBColor(0xcc, 0x79, 0xa7),
        RGBColor(0x56, 0xb4, 0xe9),
    ];
    /// Gold tables in the per-question chart: Okabe-Ito vermillion (`#D55E00`).
    pub const GOLD: RGBColor = RGBColor(0xd5, 0x5e, 0x00);
    /// Non-gold tables and the "not found" k* bar: Okabe-Ito grey (`#999999`).
    pub const OTHER: RGBColor = RGBColor(0x99, 0x99, 0x99);
    /// k* histogram bars: Okabe-Ito blue (`#0072B2`).
    pub const K_STAR: RGBColor = RGBColor(0x00, 0x72, 0xb2);
    /// One colour per line when lines stand for models (a site's trend), cycled with the
    /// markers past eight: Okabe-Ito blue, orange, bluish green, reddish purple, vermillion
    /// and sky blue, then Tol's olive (`#999933`) and wine (`#882255`) for the yellow and
    /// black that vanish on a light or dark background. No grey: grey lines are context.
    pub const SERIES: [RGBColor; 8] = [
        RGBColor(0x00, 0x72, 0xb2),
        RGBColor(0xe6, 0x9f, 0x00),
        RGBColor(0x00, 0x9e, 0x73),
        RGBColor(0xcc, 0x79, 0xa7),
        RGBColor(0xd5, 0x5e, 0x00),
        RGBColor(0x56, 0xb4, 0xe9),
        RGBColor(0x99, 0x99, 0x33),
        RGBColor(0x88, 0x22, 0x55),
    ];
    /// Context lines behind the coloured ones (a trend's models past the eighth): a grey
    /// that recedes into the background, light on white, dark on the dark theme.
    pub const CONTEXT_LIGHT: RGBColor = RGBColor(0xc4, 0xc4, 0xc4);
    /// [`Palette::CONTEXT_LIGHT`] on the dark theme.
    pub const CONTEXT_DARK: RGBColor = RGBColor(0x55, 0x59, 0x61);
}

/// Background, text and grid colours of one theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    /// Chart background.
    pub background: RGBColor,
    /// Titles, labels and axis lines.
    pub text: RGBColor,
    /// Light grid lines.
    pub grid: RGBColor,
}

impl Theme {
    /// Dark text on white.
    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xff, 0xff, 0xff),
        text: RGBColor(0x22, 0x22, 0x22),
        grid: RGBColor(0xe4, 0xe4, 0xe4),
    };
    /// Light text on a near-black background.
    pub const DARK: Theme = Theme {
        background: RGBColor(0x16, 0x18, 0x1c),
        text: RGBColor(0xe8, 0xe8, 0xe8),
        grid: RGBColor(0x3a, 0x3d, 0x44),
    };
}
