//! The body's canonical JSON (what the content hash hashes) a slice at a time, so a caller
//! that must stay responsive (the dashboard's loader worker) can hash a large body between
//! other work, and without holding the whole serialisation in memory.
//!
//! The pieces are the body serialised by serde with every corpus's row lists left empty (the
//! *skeleton*), with those lists' rows spliced back in, a few at a time, where the skeleton has
//! their `[]`. Joined, they are exactly [`BundleBody::canonical_json`] (tests check it).

use std::ops::Range;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::codec::hex_digest;
use super::{BundleBody, Corpus};

/// A corpus's row lists, in the order their splice points are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum List {
    Questions,
    Results,
    Rankings,
    FailureLabels,
    FmLabels,
    GateRows,
}

impl List {
    const ALL: [List; 6] = [
        List::Questions,
        List::Results,
        List::Rankings,
        List::FailureLabels,
        List::FmLabels,
        List::GateRows,
    ];

    /// The JSON key of the list.
    fn key(self) -> &'static [u8] {
        match self {
            List::Questions => b"questions",
            List::Results => b"results",
            List::Rankings => b"rankings",
            List::FailureLabels => b"failure_labels",
            List::FmLabels => b"fm_labels",
            List::GateRows => b"gate_rows",
        }
    }

    fn len(self, c: &Corpus) -> usize {
        match self {
            List::Questions => c.questions.len(),
            List::Results => c.results.len(),
            List::Rankings => c.rankings.len(),
            List::FailureLabels => c.failure_labels.len(),
            List::FmLabels => c.fm_labels.len(),
            List::GateRows => c.gate().len(),
        }
    }

    /// Appends row `i` of this list of `c` to `out` (serialising plain data cannot fail).
    fn write(self, c: &Corpus, i: usize, out: &mut Vec<u8>) {
        fn put<T: Serialize>(rows: &[T], i: usize, out: &mut Vec<u8>) {
            if let Some(row) = rows.get(i) {
                let _ = serde_json::to_writer(&mut *out, row);
            }
        }
        match self {
            List::Questions => put(&c.questions, i, out),
            List::Results => put(&c.results, i, out),
            List::Rankings => put(&c.rankings, i, out),
            List::FailureLabels => put(&c.failure_labels, i, out),
            List::FmLabels => put(&c.fm_labels, i, out),
            List::GateRows => {
                if let Some(row) = c.gate().get(i) {
                    let _ = serde_json::to_writer(&mut *out, &row);
                }
            }
        }
    }
}

/// One step of the pieces: skeleton bytes, or one corpus's row list.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    Skeleton(Range<usize>),
    List(usize, List),
}

/// The body's canonical JSON in pieces of about `piece_bytes` (a piece holds whole rows).
#[derive(Debug)]
pub struct CanonicalPieces<'a> {
    body: &'a BundleBody,
    skeleton: Vec<u8>,
    steps: Vec<Step>,
    step: usize,
    row: usize,
    piece_bytes: usize,
}

impl<'a> CanonicalPieces<'a> {
    /// The pieces of `body`'s canonical JSON.
    pub fn new(body: &'a BundleBody, piece_bytes: usize) -> CanonicalPieces<'a> {
        let skeleton = body.skeleton().canonical_json();
        let steps = plan(&skeleton);
        CanonicalPieces {
            body,
            skeleton,
            steps,
            step: 0,
            row: 0,
            piece_bytes: piece_bytes.max(1),
        }
    }
}

impl Iterator for CanonicalPieces<'_> {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        loop {
            match self.steps.get(self.step)? {
                Step::Skeleton(range) => {
                    self.step += 1;
                    return Some(self.skeleton[range.clone()].to_vec());
                }
                &Step::List(ci, rows) => {
                    let corpus = self.body.corpora.get(ci)?;
                    let n = rows.len(corpus);
                    if self.row >= n {
                        (self.step, self.row) = (self.step + 1, 0);
                        continue;
                    }
                    let mut out = Vec::new();
                    while self.row < n && out.len() < self.piece_bytes {
                        if self.row > 0 {
                            out.push(b',');
                        }
                        rows.write(corpus, self.row, &mut out);
                        self.row += 1;
                    }
                    return Some(out);
                }
            }
        }
    }
}

/// Where the skeleton's corpus row lists are: the skeleton cut into the bytes before each
/// list's `]` and the list itself. A list is a key of [`List`] whose value is `[]` inside
/// a corpus object (an object directly in the body's `corpora` array); strings are skipped.
pub(crate) fn plan(skeleton: &[u8]) -> Vec<Step> {
    let mut steps = Vec::new();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut string_start, mut last_string) = (0usize, 0..0);
    // Inside the body's `corpora` array, and the corpus object last opened in it.
    let mut in_corpora = false;
    let mut corpus: Option<usize> = None;
    let mut from = 0;
    for (i, &b) in skeleton.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => {
                    in_string = false;
                    last_string = string_start..i;
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                string_start = i + 1;
            }
            b'{' | b'[' => {
                let key = &skeleton[last_string.clone()];
                let value_of_key = i > 0 && skeleton[i - 1] == b':';
                if b == b'[' && depth == 1 && value_of_key && key == b"corpora" {
                    in_corpora = true;
                }
                if b == b'{' && depth == 2 && in_corpora {
                    corpus = Some(corpus.map_or(0, |c| c + 1));
                }
                if b == b'['
                    && depth == 3
                    && value_of_key
                    && skeleton.get(i + 1) == Some(&b']')
                    && let (Some(ci), Some(list)) =
                        (corpus, List::ALL.iter().find(|r| r.key() == key))
                {
                    steps.push(Step::Skeleton(from..i + 1));
                    steps.push(Step::List(ci, *list));
                    from = i + 1;
                }
                depth += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    in_corpora = false;
                }
            }
            _ => {}
        }
    }
    steps.push(Step::Skeleton(from..skeleton.len()));
    steps
}

/// SHA-256 of a body's canonical JSON, computed a slice at a time ([`BodyHasher::step`]).
#[derive(Debug)]
pub struct BodyHasher<'a> {
    pieces: CanonicalPieces<'a>,
    hasher: Sha256,
}

impl<'a> BodyHasher<'a> {
    /// A hasher of `body` whose pieces are about `piece_bytes` long.
    pub fn new(body: &'a BundleBody, piece_bytes: usize) -> BodyHasher<'a> {
        BodyHasher {
            pieces: CanonicalPieces::new(body, piece_bytes),
            hasher: Sha256::new(),
        }
    }

    /// Hashes at least `bytes` more bytes (whole pieces); the lower-case hex digest once the
    /// last piece is in, else `None`.
    pub fn step(&mut self, bytes: usize) -> Option<String> {
        let mut done = 0;
        while done < bytes.max(1) {
            match self.pieces.next() {
                Some(piece) => {
                    self.hasher.update(&piece);
                    done += piece.len();
                }
                None => return Some(hex_digest(&self.hasher.clone().finalize())),
            }
        }
        None
    }
}
