//! Recognising input files by their path (the harness's fixed file names).

/// What an input file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Annotated,
    Results,
    FmLabels,
    BoardManifest,
    Rankings,
    FailureLabels,
    Gate,
    Schema,
    Rules,
    SyntheticNotice,
    Unknown,
}

impl Role {
    /// True for the files that belong to a corpus directory.
    pub fn is_corpus_file(self) -> bool {
        matches!(
            self,
            Role::Annotated | Role::Results | Role::FmLabels | Role::BoardManifest
        )
    }
}

impl Role {
    /// True for the Jev outputs attached to corpora by `trace_id` (and cell).
    pub fn is_jev_file(self) -> bool {
        matches!(self, Role::Rankings | Role::FailureLabels | Role::Gate)
    }
}

/// The file name (last `/`-separated component) and its parent path (`""` if none).
pub(crate) fn split_path(path: &str) -> (&str, &str) {
    let path = path.trim_end_matches('/');
    match path.rsplit_once('/') {
        Some((parent, name)) => (parent, name),
        None => ("", path),
    }
}

/// Classifies a path; `schema` and `rules` are explicitly chosen paths, if any.
pub(crate) fn classify(path: &str, schema: Option<&str>, rules: Option<&str>) -> Role {
    if schema == Some(path) {
        return Role::Schema;
    }
    if rules == Some(path) {
        return Role::Rules;
    }
    let (_, name) = split_path(path);
    match name {
        "annotated.jsonl" => Role::Annotated,
        "results.jsonl" => Role::Results,
        "fm_labels.jsonl" => Role::FmLabels,
        "board_manifest.json" => Role::BoardManifest,
        "schema_retrieval.jsonl" => Role::Rankings,
        "failure_labels.jsonl" => Role::FailureLabels,
        "schema_retrieval_agent.jsonl" => Role::Gate,
        "SYNTHETIC.md" => Role::SyntheticNotice,
        "schema.md" | "system.md" if schema.is_none() => Role::Schema,
        n if rules.is_none()
            && n.starts_with("rules")
            && (n.ends_with(".yaml") || n.ends_with(".yml")) =>
        {
            Role::Rules
        }
        _ => Role::Unknown,
    }
}
