//! Reviewer decisions on audit items, keyed by item key; the latest decision wins.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// A reviewer's verdict on one audit item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The grader was wrong: the candidate's answer is correct (`a`).
    GraderWrong,
    /// The grader was right: a genuine failure (`r`).
    GraderRight,
    /// Cannot tell (`u`).
    Unsure,
}

impl Verdict {
    /// All verdicts, in display order.
    pub const ALL: [Verdict; 3] = [Verdict::GraderWrong, Verdict::GraderRight, Verdict::Unsure];

    /// The file spelling: `grader_wrong`, `grader_right`, `unsure`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::GraderWrong => "grader_wrong",
            Verdict::GraderRight => "grader_right",
            Verdict::Unsure => "unsure",
        }
    }

    /// Parses the file spelling (exact, lower case).
    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// One decision on one audit item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditDecision {
    /// The item key, `"<model key>/<trace_id>"`.
    pub key: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Free-text note (may be empty).
    pub note: String,
    /// When the decision was made, RFC 3339 UTC from the caller (core has no clock), e.g.
    /// `2026-12-02T18:00:00Z`. Decisions in one log should use one format so that they
    /// compare in time order.
    pub decided_at: String,
}

/// Decision counts for the live counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct AuditCounts {
    /// Decisions of any verdict.
    pub total: usize,
    /// `grader_wrong` decisions.
    pub grader_wrong: usize,
    /// `grader_right` decisions.
    pub grader_right: usize,
    /// `unsure` decisions.
    pub unsure: usize,
}

/// Decisions by key, in first-decided order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuditLog {
    decisions: IndexMap<String, AuditDecision>,
}

impl AuditLog {
    /// An empty log.
    pub fn new() -> AuditLog {
        AuditLog::default()
    }

    /// Records a decision unless the key already has a strictly later one (`decided_at`
    /// compared as text, which is time order for one RFC 3339 UTC format). Returns whether
    /// it was recorded. A replaced key keeps its place in the order.
    pub fn record(&mut self, decision: AuditDecision) -> bool {
        if let Some(old) = self.decisions.get(&decision.key)
            && old.decided_at > decision.decided_at
        {
            return false;
        }
        self.decisions.insert(decision.key.clone(), decision);
        true
    }

    /// Records a decision on `key` that changes its verdict, its note or both, keeping the
    /// earlier verdict or note where none is given (a key decided for the first time with no
    /// verdict is `unsure`); see [`AuditLog::record`].
    pub fn amend(
        &mut self,
        key: &str,
        verdict: Option<Verdict>,
        note: Option<String>,
        decided_at: String,
    ) -> bool {
        let old = self.get(key);
        let verdict = verdict
            .or(old.map(|d| d.verdict))
            .unwrap_or(Verdict::Unsure);
        let note = note
            .or_else(|| old.map(|d| d.note.clone()))
            .unwrap_or_default();
        self.record(AuditDecision {
            key: key.to_owned(),
            verdict,
            note,
            decided_at,
        })
    }

    /// Records every decision of `other` (see [`AuditLog::record`]); returns how many were
    /// recorded.
    pub fn merge(&mut self, other: AuditLog) -> usize {
        other
            .decisions
            .into_values()
            .filter(|d| self.record(d.clone()))
            .count()
    }

    /// The decision on `key`.
    pub fn get(&self, key: &str) -> Option<&AuditDecision> {
        self.decisions.get(key)
    }

    /// Forgets the decision on `key` (keeping the order of the others).
    pub fn remove(&mut self, key: &str) -> Option<AuditDecision> {
        self.decisions.shift_remove(key)
    }

    /// Every decision, in first-decided order.
    pub fn decisions(&self) -> impl Iterator<Item = &AuditDecision> {
        self.decisions.values()
    }

    /// Number of decided keys.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    /// True when nothing is decided.
    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// Counts by verdict.
    pub fn counts(&self) -> AuditCounts {
        let mut c = AuditCounts::default();
        for d in self.decisions.values() {
            c.total += 1;
            match d.verdict {
                Verdict::GraderWrong => c.grader_wrong += 1,
                Verdict::GraderRight => c.grader_right += 1,
                Verdict::Unsure => c.unsure += 1,
            }
        }
        c
    }
}
