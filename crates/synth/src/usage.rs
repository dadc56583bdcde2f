//! Token-usage blocks (`TokenUsage.as_dict`, harness-formats.md §3.4).

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// The `usage` block of a cell. `per_turn` rows are `[prompt, completion, reasoning,
/// cache_read, cache_write]`; totals are sums, `total = prompt + completion + cache_read +
/// cache_write` (reasoning is inside completion).
#[derive(Debug, Clone, Serialize)]
pub struct Usage {
    /// Uncached prompt tokens.
    pub prompt_tokens: u64,
    /// Output tokens (reasoning included).
    pub completion_tokens: u64,
    /// Reasoning share of the output.
    pub reasoning_tokens: u64,
    /// Prompt tokens read from cache.
    pub cache_read_tokens: u64,
    /// Prompt tokens written to cache.
    pub cache_write_tokens: u64,
    /// prompt + completion + cache_read + cache_write.
    pub total_tokens: u64,
    /// Model calls.
    pub api_calls: u32,
    /// Per reported call; absent in older cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_turn: Option<Vec<[u64; 5]>>,
    /// Calls that reported no usage; absent in older cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls_missing_usage: Option<u32>,
}

/// Which cache accounting the provider uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheStyle {
    /// Anthropic/Bedrock: write the schema once, read it afterwards.
    Anthropic,
    /// OpenAI: automatic read after the first call.
    OpenAi,
    /// No prompt cache reported.
    None,
}

/// Cache style from the model key prefix (harness-formats.md §11.1 families).
pub fn cache_style(key: &str) -> CacheStyle {
    if ["opus", "sonnet", "haiku", "fable"]
        .iter()
        .any(|p| key.starts_with(p))
    {
        CacheStyle::Anthropic
    } else if key.starts_with("gpt") || key.starts_with("o4") {
        CacheStyle::OpenAi
    } else {
        CacheStyle::None
    }
}

/// Builds a usage block for `turns` calls. `old_style` drops `per_turn` and
/// `calls_missing_usage`; `verbose` scales the output (weak models ramble).
pub fn usage(
    rng: &mut ChaCha8Rng,
    turns: u32,
    style: CacheStyle,
    reasoning: bool,
    old_style: bool,
    verbose: f64,
) -> Usage {
    let schema = rng.random_range(3_400..4_300u64);
    let missing = if !old_style && turns > 2 && rng.random_bool(0.02) {
        1
    } else {
        0
    };
    let mut rows = Vec::with_capacity(turns as usize);
    let mut history = 0u64;
    for t in 0..turns {
        let last = t + 1 == turns;
        let visible = if last {
            rng.random_range(120..700u64)
        } else {
            rng.random_range(40..260u64)
        };
        let think = if reasoning {
            rng.random_range(80..1_400u64)
        } else {
            0
        };
        let completion = ((visible + think) as f64 * verbose) as u64;
        let think = think.min(completion);
        let fresh = rng.random_range(60..900u64);
        let row = match style {
            CacheStyle::Anthropic if t == 0 => [300 + fresh, completion, think, 0, schema],
            CacheStyle::Anthropic => [history + fresh, completion, think, schema, 0],
            CacheStyle::OpenAi if t == 0 => [schema + fresh, completion, think, 0, 0],
            CacheStyle::OpenAi => [history + fresh, completion, think, schema, 0],
            CacheStyle::None => [schema + history + fresh, completion, think, 0, 0],
        };
        history += fresh + completion;
        rows.push(row);
    }
    for _ in 0..missing {
        let ix = rng.random_range(0..rows.len().max(1));
        if ix < rows.len() {
            rows.remove(ix);
        }
    }
    let sum = |i: usize| rows.iter().map(|r| r[i]).sum::<u64>();
    let (p, c, r, cr, cw) = (sum(0), sum(1), sum(2), sum(3), sum(4));
    Usage {
        prompt_tokens: p,
        completion_tokens: c,
        reasoning_tokens: r,
        cache_read_tokens: cr,
        cache_write_tokens: cw,
        total_tokens: p + c + cr + cw,
        api_calls: turns,
        per_turn: if old_style { None } else { Some(rows) },
        calls_missing_usage: if old_style { None } else { Some(missing) },
    }
}
