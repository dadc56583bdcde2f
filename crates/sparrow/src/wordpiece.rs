//! BERT-uncased WordPiece, exactly as `sparrow_decider.wordpiece.WordPiece` does it.
//!
//! 1. **Normalise**: drop U+0000, U+FFFD and every `C*` (control, format, surrogate, private,
//!    unassigned) character except tab/newline/return; map tab/newline/return and `Zs` spaces to
//!    a space; surround CJK ideographs with spaces; lower-case (full Unicode mapping); NFD; drop
//!    non-spacing marks (`Mn`), which strips accents.
//! 2. **Pre-tokenise**: split on Python-`isspace` characters; every punctuation character (ASCII
//!    symbol ranges or a `P*` category) is a word of its own.
//! 3. **WordPiece**: greedy longest match first, continuation pieces prefixed `##`; a word longer
//!    than 100 characters, or one that cannot be covered, becomes a single `[UNK]`.
//! 4. **No** `[CLS]`/`[SEP]` are added; ids stop at `max_len` (512), cut after the word that
//!    crosses it.
//!
//! The character tables are those of the `unicode-general-category` crate (Unicode 16) and the
//! Rust standard library; Python 3.11 uses Unicode 14, so only characters assigned after 14.0
//! can tokenize differently.
//!
//! ```
//! use runlens_sparrow::wordpiece::{normalize, pretokenize};
//! assert_eq!(normalize("Crème\tBRÛLÉE"), "creme brulee");
//! assert_eq!(pretokenize("a-b, c"), vec!["a", "-", "b", ",", "c"]);
//! ```

use crate::text::is_py_space;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use unicode_general_category::{GeneralCategory as Gc, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// Words longer than this many characters become `[UNK]` (the package's `max_chars`).
pub const MAX_CHARS_PER_WORD: usize = 100;

/// A WordPiece vocabulary and its `[UNK]` id.
#[derive(Debug, Clone)]
pub struct WordPiece {
    vocab: HashMap<String, u32, BuildHasherDefault<Fnv1a>>,
    unk_id: u32,
}

/// FNV-1a: a fast hash for the short keys of the vocabulary (no untrusted keys are stored,
/// so collision resistance is not needed).
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl WordPiece {
    /// Builds the tokenizer; `None` when the vocabulary has no `[UNK]` entry.
    pub fn new(vocab: HashMap<String, u32>) -> Option<WordPiece> {
        let unk_id = *vocab.get("[UNK]")?;
        let vocab = vocab.into_iter().collect();
        Some(WordPiece { vocab, unk_id })
    }

    /// Token ids of `text`, at most `max_len` of them.
    pub fn encode(&self, text: &str, max_len: usize) -> Vec<u32> {
        let normalized = normalize(text);
        let mut ids = Vec::new();
        let (mut piece, mut bounds) = (String::new(), Vec::new());
        for word in pretokenize(&normalized) {
            self.push_word(word, &mut piece, &mut bounds, &mut ids);
            if ids.len() >= max_len {
                break;
            }
        }
        ids.truncate(max_len);
        ids
    }

    /// Appends the WordPiece ids of one pre-token; `piece` and `bounds` are reusable scratch
    /// buffers (no allocation per word).
    fn push_word(
        &self,
        word: &str,
        piece: &mut String,
        bounds: &mut Vec<usize>,
        ids: &mut Vec<u32>,
    ) {
        // Byte offsets of every char boundary, so sub-words are cut on characters.
        bounds.clear();
        bounds.extend(word.char_indices().map(|(i, _)| i));
        bounds.push(word.len());
        let n_chars = bounds.len() - 1;
        if n_chars > MAX_CHARS_PER_WORD {
            ids.push(self.unk_id);
            return;
        }
        let before = ids.len();
        let mut start = 0;
        while start < n_chars {
            let mut found = None;
            let mut end = n_chars;
            while start < end {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[bounds[start]..bounds[end]]);
                if let Some(&id) = self.vocab.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => ids.push(id),
                None => {
                    ids.truncate(before);
                    ids.push(self.unk_id);
                    return;
                }
            }
            start = end;
        }
    }
}

/// Step 1 of the module docs: the package's `WordPiece.normalize`.
pub fn normalize(text: &str) -> String {
    if text.is_ascii() {
        // Same result for ASCII, without the Unicode tables: controls other than tab/newline/
        // return are dropped (U+0000 included), those three become spaces, letters lower-case.
        return text
            .bytes()
            .filter_map(|b| match b {
                b'\t' | b'\n' | b'\r' => Some(' '),
                0..=0x1f | 0x7f => None,
                _ => Some(b.to_ascii_lowercase() as char),
            })
            .collect();
    }
    let mut cleaned = String::with_capacity(text.len());
    for ch in text.chars() {
        let cp = ch as u32;
        let cat = get_general_category(ch);
        let is_other = matches!(
            cat,
            Gc::Control | Gc::Format | Gc::Surrogate | Gc::PrivateUse | Gc::Unassigned
        );
        if cp == 0 || cp == 0xFFFD || (is_other && !matches!(ch, '\t' | '\n' | '\r')) {
            continue;
        }
        if matches!(ch, '\t' | '\n' | '\r') || cat == Gc::SpaceSeparator {
            cleaned.push(' ');
        } else if is_cjk(cp) {
            cleaned.push(' ');
            cleaned.push(ch);
            cleaned.push(' ');
        } else {
            cleaned.push(ch);
        }
    }
    cleaned
        .to_lowercase()
        .nfd()
        .filter(|&c| get_general_category(c) != Gc::NonspacingMark)
        .collect()
}

/// Step 2 of the module docs: the package's `WordPiece.pretokenize`.
pub fn pretokenize(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if is_py_space(ch) || is_punct(ch) {
            if let Some(s) = start.take() {
                words.push(&text[s..i]);
            }
            if !is_py_space(ch) {
                words.push(&text[i..i + ch.len_utf8()]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words
}

/// ASCII symbol ranges (33–47, 58–64, 91–96, 123–126) or any Unicode `P*` category.
fn is_punct(ch: char) -> bool {
    let cp = ch as u32;
    if (33..=47).contains(&cp)
        || (58..=64).contains(&cp)
        || (91..=96).contains(&cp)
        || (123..=126).contains(&cp)
    {
        return true;
    }
    matches!(
        get_general_category(ch),
        Gc::ConnectorPunctuation
            | Gc::DashPunctuation
            | Gc::OpenPunctuation
            | Gc::ClosePunctuation
            | Gc::InitialPunctuation
            | Gc::FinalPunctuation
            | Gc::OtherPunctuation
    )
}

/// The CJK ideograph blocks BERT isolates (same ranges as the package's `_is_cjk`).
fn is_cjk(cp: u32) -> bool {
    matches!(cp,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> WordPiece {
        let words = ["[UNK]", "un", "##aff", "##able", "a", "##b", "é"];
        let vocab = words
            .iter()
            .enumerate()
            .map(|(i, w)| (w.to_string(), i as u32))
            .collect();
        WordPiece::new(vocab).unwrap()
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        // "unaffable" = un + ##aff + ##able; "ab" = a + ##b; "abc" has no ##c → one [UNK].
        assert_eq!(
            toy().encode("unaffable ab abc", 512),
            vec![1, 2, 3, 4, 5, 0]
        );
    }

    #[test]
    fn long_words_and_max_len() {
        let long = "a".repeat(MAX_CHARS_PER_WORD + 1);
        assert_eq!(toy().encode(&long, 512), vec![0]);
        // Truncation happens after the word that crosses max_len, then cuts to max_len.
        assert_eq!(toy().encode("unaffable unaffable", 2), vec![1, 2]);
    }

    #[test]
    fn ascii_fast_path_equals_the_unicode_path() {
        let all_ascii: String = (0u8..=127).map(char::from).collect();
        // "é" forces the general path; it normalises to "e", so compare without it.
        let general = normalize(&format!("{all_ascii}é"));
        assert_eq!(normalize(&all_ascii) + "e", general);
    }

    #[test]
    fn normalizes_controls_cjk_and_accents() {
        assert_eq!(normalize("a\u{0}b\u{200b}c\u{fffd}d"), "abcd"); // U+200B is Cf
        assert_eq!(normalize("x中y"), "x 中 y");
        assert_eq!(normalize("ÉCOLE\u{a0}Ñ"), "ecole n");
        // Accents stripped, so "é" is never looked up: it becomes "e", not in the toy vocab.
        assert_eq!(toy().encode("é", 512), vec![0]);
    }

    #[test]
    fn pretokenize_splits_unicode_punctuation() {
        assert_eq!(
            pretokenize("«ok»—fine…"),
            vec!["«", "ok", "»", "—", "fine", "…"]
        );
        assert_eq!(pretokenize("  "), Vec::<&str>::new());
    }
}
