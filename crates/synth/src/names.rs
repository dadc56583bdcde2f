//! Invented entity names, months and the deliberately hostile strings.
//!
//! Hostile strings go into free text only (questions, answers, judge and label reasons,
//! SQL comments, result values), never into trace ids, model keys or table names.

use rand::Rng;
use rand::seq::IndexedRandom;

const SURNAMES: [&str; 40] = [
    "White",
    "Leonard",
    "Kelly",
    "Hughes",
    "Hull",
    "Hart",
    "Moreno",
    "Novak",
    "Okafor",
    "Lindqvist",
    "Tanaka",
    "Ferreira",
    "Dubois",
    "Kowalski",
    "Haddad",
    "Schmidt",
    "Rossi",
    "Nguyen",
    "Patel",
    "Byrne",
    "Castillo",
    "Mensah",
    "Ivanova",
    "Larsen",
    "Brennan",
    "Acosta",
    "Yilmaz",
    "Fischer",
    "Quinn",
    "Abara",
    "Sato",
    "Olsen",
    "Varga",
    "Duarte",
    "Bauer",
    "Keane",
    "Marsh",
    "Ortiz",
    "Holt",
    "Price",
];
const SUFFIXES: [&str; 6] = ["Ltd", "Group", "Inc", "PLC", "Holdings", "LLC"];

/// Month labels for the twelve months before the snapshot (2026-06-30), newest last.
pub const MONTHS: [(&str, &str); 12] = [
    ("2025-07-01", "July 2025"),
    ("2025-08-01", "August 2025"),
    ("2025-09-01", "September 2025"),
    ("2025-10-01", "October 2025"),
    ("2025-11-01", "November 2025"),
    ("2025-12-01", "December 2025"),
    ("2026-01-01", "January 2026"),
    ("2026-02-01", "February 2026"),
    ("2026-03-01", "March 2026"),
    ("2026-04-01", "April 2026"),
    ("2026-05-01", "May 2026"),
    ("2026-06-01", "June 2026"),
];

/// The snapshot date that anchors every relative window.
pub const SNAPSHOT: &str = "2026-06-30";

/// A company-like name such as `Hughes Ltd`, `Hull-Hart` or `White, Leonard and Kelly`.
/// Names never contain quotes, so they are safe inside SQL string literals.
pub fn company<R: Rng>(rng: &mut R) -> String {
    let a = SURNAMES.choose(rng).copied().unwrap_or("Hart");
    let b = SURNAMES.choose(rng).copied().unwrap_or("Hull");
    let c = SURNAMES.choose(rng).copied().unwrap_or("Kelly");
    match rng.random_range(0..4) {
        0 => format!("{a} {}", SUFFIXES.choose(rng).copied().unwrap_or("Ltd")),
        1 => format!("{a}-{b}"),
        2 => format!("{a}, {b} and {c}"),
        _ => format!("{a} and {b}"),
    }
}

/// `<script>` payload (must render as text, never execute).
pub const SCRIPT: &str = "<script>alert(1)</script>";
/// `<img onerror>` payload.
pub const IMG: &str = "<img src=x onerror=alert(1)>";
/// Arabic text with a right-to-left override (U+202E) and its pop (U+202C).
pub const ARABIC_RLO: &str = "شركة النور للتقنية \u{202E}txt.exe\u{202C} ملاحظة";
/// Hebrew text with a right-to-left override.
pub const HEBREW_RLO: &str = "חברת אופק בע\"מ \u{202E}gpj.exe\u{202C} הערה";

/// A single line of roughly `len` characters with no line break.
pub fn long_line(len: usize) -> String {
    let unit = "very-long-line-without-breaks/";
    let mut s = String::with_capacity(len + unit.len());
    while s.len() < len {
        s.push_str(unit);
    }
    s
}

/// All hostile samples (used by tests to check they are present in the output).
pub fn hostile_samples() -> [&'static str; 4] {
    [SCRIPT, IMG, ARABIC_RLO, HEBREW_RLO]
}

/// Picks one hostile snippet for free text.
pub fn hostile<R: Rng>(rng: &mut R) -> String {
    match rng.random_range(0..5) {
        0 => SCRIPT.to_string(),
        1 => IMG.to_string(),
        2 => ARABIC_RLO.to_string(),
        3 => HEBREW_RLO.to_string(),
        _ => long_line(2400),
    }
}
