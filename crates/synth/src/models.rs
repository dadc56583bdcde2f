//! Candidate models, judge seats and annotators of the synthetic runs.
//!
//! Keys and display names are the board's (harness-formats.md §11.1). Strength is an
//! invented pass probability that orders the synthetic board roughly like the published one.

/// One candidate model.
#[derive(Debug, Clone)]
pub struct Model {
    /// Registry key, used in `candidates` and every Jev output.
    pub key: String,
    /// Display name from the board's `NAMES` table.
    pub name: String,
    /// Provider model id stored as `served_model`.
    pub served: String,
    /// Base pass probability on an average question.
    pub strength: f64,
    /// True for reasoning models (they report reasoning tokens).
    pub reasoning: bool,
}

/// What variant `n` of a preset changes (`runlens synth --variant N`, for comparing runs):
/// the preset's last model is dropped and a new one (`variant{n}-model`) takes its place at
/// the end; two models pass more often and two less often ([`crate::plan::perturb`]). The
/// plan is drawn model by model, so every other model's outcomes are the preset's.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The variant's number (1, 2, …).
    pub n: u32,
    /// Keys of the models that pass more often.
    pub improved: Vec<String>,
    /// Keys of the models that pass less often.
    pub regressed: Vec<String>,
    /// Key of the dropped model.
    pub dropped: String,
    /// Key of the added model.
    pub added: String,
}

/// The models of variant `n` (≥ 1) of a preset with `models`, and what it changes. The
/// improved and regressed models are taken, by `n`, among those whose failures are not
/// labelled (the article's labelled matrix stays as published).
pub fn variant(models: &[Model], n: u32) -> (Vec<Model>, Variant) {
    let mut out = models.to_vec();
    let dropped = out.pop().map(|m| m.key).unwrap_or_default();
    let added = format!("variant{n}-model");
    out.push(Model {
        key: added.clone(),
        name: format!("Variant {n} model (synthetic)"),
        served: added.clone(),
        strength: 0.45,
        reasoning: false,
    });
    let free: Vec<&str> = out[..out.len() - 1]
        .iter()
        .map(|m| m.key.as_str())
        .filter(|k| !LABELLED.contains(k))
        .collect();
    let k = free.len().max(1);
    let at = |i: usize| free.get(i % k).map(|s| (*s).to_owned()).unwrap_or_default();
    let base = 2 * n as usize;
    let variant = Variant {
        n,
        improved: vec![at(base), at(base + 1)],
        regressed: vec![at(base + k / 2), at(base + k / 2 + 1)],
        dropped,
        added,
    };
    (out, variant)
}

/// The four models whose dev failures are labelled (published-figures.md).
pub const LABELLED: [&str; 4] = ["sonnet46", "gpt-4.1", "qwen3-coder-30b", "gemini-2.5-flash"];

/// Judge seats, best first within each seat (the providers 10_judge_bias hard-codes).
pub const JUDGE_SEATS: [[&str; 2]; 3] = [
    ["opus48", "sonnet46"],
    ["gpt-5.5", "gpt-5.4"],
    ["gemini-2.5-pro", "gemini-2.5-flash"],
];

/// The annotators of `annotated.jsonl` (the harness example config).
pub const ANNOTATORS: [&str; 3] = ["gpt-4.1", "claude-sonnet", "kimi"];

const ARTICLE: [(&str, &str, &str, f64, bool); 20] = [
    (
        "fable51",
        "Claude Fable 5.1",
        "claude-fable-5-1",
        0.80,
        true,
    ),
    (
        "deepseek-v4-pro-0813",
        "DeepSeek V4 Pro",
        "deepseek-v4-pro-0813",
        0.78,
        true,
    ),
    ("kimi-k3", "Kimi K3", "kimi-k3-instruct", 0.77, true),
    (
        "gemini-3.1-pro-preview",
        "Gemini 3.1 Pro (prev.)",
        "gemini-3.1-pro-preview",
        0.76,
        true,
    ),
    ("opus48", "Claude Opus 4.8", "claude-opus-4-8", 0.75, true),
    ("gpt-5.5", "GPT-5.5", "gpt-5.5-2026-03-05", 0.74, true),
    ("qwen3.8-max", "Qwen3.8-Max", "qwen3.8-max", 0.72, false),
    ("gpt-6-sol", "GPT-6 Sol", "gpt-6-sol-2026-05-20", 0.71, true),
    ("opus55", "Claude Opus 5.5", "claude-opus-5-5", 0.71, true),
    (
        "sonnet55",
        "Claude Sonnet 5.5",
        "claude-sonnet-5-5",
        0.69,
        true,
    ),
    ("glm-5.2", "GLM-5.2", "glm-5.2", 0.67, true),
    (
        "gemini-3.8-flash",
        "Gemini 3.8 Flash",
        "gemini-3.8-flash",
        0.66,
        true,
    ),
    (
        "sonnet46",
        "Claude Sonnet 4.6",
        "claude-sonnet-4-6",
        0.66,
        false,
    ),
    (
        "deepseek-v3.2",
        "DeepSeek V3.2",
        "deepseek-v3.2",
        0.60,
        false,
    ),
    (
        "haiku45",
        "Claude Haiku 4.5",
        "claude-haiku-4-5",
        0.57,
        false,
    ),
    ("gemma-4-31b", "Gemma 4 31B", "gemma-4-31b-it", 0.52, false),
    ("o4-mini", "o4-mini", "o4-mini-2025-04-16", 0.50, true),
    (
        "qwen3-coder-30b",
        "Qwen3-Coder 30B",
        "qwen3-coder-30b-a3b-instruct",
        0.45,
        false,
    ),
    (
        "gemini-2.5-flash",
        "Gemini 2.5 Flash",
        "gemini-2.5-flash",
        0.43,
        false,
    ),
    ("gpt-4.1", "GPT-4.1", "gpt-4.1-2025-04-14", 0.40, false),
];

const EXTRA: [(&str, &str, &str, f64, bool); 20] = [
    ("opus5", "Claude Opus 5", "claude-opus-5", 0.70, true),
    ("opus47", "Claude Opus 4.7", "claude-opus-4-7", 0.64, true),
    ("sonnet5", "Claude Sonnet 5", "claude-sonnet-5", 0.63, true),
    ("fable5", "Claude Fable 5", "claude-fable-5", 0.76, true),
    (
        "gpt-6-astra",
        "GPT-6 Astra",
        "gpt-6-astra-2026-05-20",
        0.69,
        true,
    ),
    (
        "gpt-6-luna",
        "GPT-6 Luna",
        "gpt-6-luna-2026-05-20",
        0.70,
        true,
    ),
    ("gpt-5.6", "GPT-5.6", "gpt-5.6-2026-04-22", 0.68, true),
    ("kimi-k2.6", "Kimi K2.6", "kimi-k2.6", 0.71, true),
    (
        "kimi-k2-thinking",
        "Kimi K2 Thinking",
        "kimi-k2-thinking",
        0.55,
        true,
    ),
    (
        "qwen3-coder-480b",
        "Qwen3-Coder 480B",
        "qwen3-coder-480b-a35b-instruct",
        0.47,
        false,
    ),
    (
        "deepseek-v4-flash-0731",
        "DeepSeek V4 Flash",
        "deepseek-v4-flash-0731",
        0.65,
        true,
    ),
    (
        "deepseek-v4-pro",
        "DeepSeek V4 Pro (Apr preview)",
        "deepseek-v4-pro-preview",
        0.66,
        true,
    ),
    (
        "deepseek-v4-flash",
        "DeepSeek V4 Flash (Apr preview)",
        "deepseek-v4-flash-preview",
        0.58,
        true,
    ),
    (
        "gemini-3.7-flash",
        "Gemini 3.7 Flash",
        "gemini-3.7-flash",
        0.64,
        true,
    ),
    (
        "gemini-3.5-flash",
        "Gemini 3.5 Flash",
        "gemini-3.5-flash",
        0.49,
        true,
    ),
    (
        "gemini-2.5-pro",
        "Gemini 2.5 Pro",
        "gemini-2.5-pro",
        0.48,
        true,
    ),
    (
        "nova-pro",
        "Amazon Nova Pro",
        "amazon.nova-pro-v1:0",
        0.38,
        false,
    ),
    (
        "nova-lite",
        "Amazon Nova Lite",
        "amazon.nova-lite-v1:0",
        0.30,
        false,
    ),
    (
        "nova-micro",
        "Amazon Nova Micro",
        "amazon.nova-micro-v1:0",
        0.24,
        false,
    ),
    ("gpt-5.4", "GPT-5.4", "gpt-5.4-2026-02-11", 0.62, true),
];

fn build(rows: &[(&str, &str, &str, f64, bool)]) -> Vec<Model> {
    rows.iter()
        .map(|&(key, name, served, strength, reasoning)| Model {
            key: key.into(),
            name: name.into(),
            served: served.into(),
            strength,
            reasoning,
        })
        .collect()
}

/// The 20 models of the `article` preset, in the board's 60-turn order.
pub fn article() -> Vec<Model> {
    build(&ARTICLE)
}

/// The 40 models of the `large` preset (the article's 20 plus 20 more board keys).
pub fn large() -> Vec<Model> {
    let mut all = build(&ARTICLE);
    all.extend(build(&EXTRA));
    all
}

/// The 100 models of the `huge` preset: the `large` preset's 40 and 60 later checkpoints of
/// them (`<key>-ckptN`, each a little weaker or stronger than its base, deterministically).
pub fn huge() -> Vec<Model> {
    let base = large();
    let mut all = base.clone();
    for i in 0..60 {
        let b = &base[i % base.len()];
        let n = i / base.len() + 1;
        // −0.04 … +0.04 around the base, spread by position so neighbours differ.
        let shift = ((i * 7) % 9) as f64 * 0.01 - 0.04;
        all.push(Model {
            key: format!("{}-ckpt{n}", b.key),
            name: format!("{} (checkpoint {n})", b.name),
            served: format!("{}-ckpt{n}", b.served),
            strength: (b.strength + shift).clamp(0.05, 0.95),
            reasoning: b.reasoning,
        });
    }
    all
}

/// The judge panel for `candidate`: per seat, the first judge that is not the candidate.
pub fn panel(candidate: &str) -> Vec<&'static str> {
    JUDGE_SEATS
        .iter()
        .filter_map(|seat| seat.iter().copied().find(|j| *j != candidate))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_has_the_large_models_then_60_distinct_checkpoints() {
        let (large, huge) = (large(), huge());
        assert_eq!(huge.len(), 100);
        let keys: std::collections::HashSet<&str> = huge.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys.len(), 100);
        assert!(huge.iter().zip(&large).all(|(h, l)| h.key == l.key));
        // Model 41 is the first base model's first checkpoint: shift (0·7 mod 9)·0.01 − 0.04.
        assert_eq!(huge[40].key, format!("{}-ckpt1", large[0].key));
        assert_eq!(huge[40].strength, large[0].strength - 0.04);
        // Model 81 is the first base model's second checkpoint: (280 mod 9 = 1)·0.01 − 0.04.
        assert_eq!(huge[80].key, format!("{}-ckpt2", large[0].key));
        assert!((huge[80].strength - (large[0].strength - 0.03)).abs() < 1e-12);
        assert!(huge.iter().all(|m| (0.05..=0.95).contains(&m.strength)));
    }
}
