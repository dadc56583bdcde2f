//! Default display names: the harness's board key → name table (`NAMES` in 09/11, newest
//! version; harness-formats.md §11.1). Keys not in the table display as themselves.

/// Board key → display name, as the harness's plotting scripts spell them.
pub const BOARD_NAMES: &[(&str, &str)] = &[
    ("opus48", "Claude Opus 4.8"),
    ("opus47", "Claude Opus 4.7"),
    ("opus5", "Claude Opus 5"),
    ("opus55", "Claude Opus 5.5"),
    ("sonnet55", "Claude Sonnet 5.5"),
    ("sonnet5", "Claude Sonnet 5"),
    ("sonnet46", "Claude Sonnet 4.6"),
    ("haiku45", "Claude Haiku 4.5"),
    ("fable5", "Claude Fable 5"),
    ("fable51", "Claude Fable 5.1"),
    ("gpt-6-astra", "GPT-6 Astra"),
    ("gpt-6-luna", "GPT-6 Luna"),
    ("gpt-6-sol", "GPT-6 Sol"),
    ("gpt-5.6", "GPT-5.6"),
    ("gpt-5.5", "GPT-5.5"),
    ("gpt-4.1", "GPT-4.1"),
    ("o4-mini", "o4-mini"),
    ("kimi-k3", "Kimi K3"),
    ("kimi-k2.6", "Kimi K2.6"),
    ("kimi-k2-thinking", "Kimi K2 Thinking"),
    ("qwen3.8-max", "Qwen3.8-Max"),
    ("qwen3-coder-480b", "Qwen3-Coder 480B"),
    ("qwen3-coder-30b", "Qwen3-Coder 30B"),
    ("glm-5.2", "GLM-5.2"),
    ("deepseek-v4-pro-0813", "DeepSeek V4 Pro"),
    ("deepseek-v4-pro", "DeepSeek V4 Pro (Apr preview)"),
    ("deepseek-v4-flash-0731", "DeepSeek V4 Flash"),
    ("deepseek-v4-flash", "DeepSeek V4 Flash (Apr preview)"),
    ("deepseek-v3.2", "DeepSeek V3.2"),
    ("gemini-3.1-pro-preview", "Gemini 3.1 Pro (prev.)"),
    ("gemini-3.8-flash", "Gemini 3.8 Flash"),
    ("gemini-3.7-flash", "Gemini 3.7 Flash"),
    ("gemini-3.5-flash", "Gemini 3.5 Flash"),
    ("gemini-2.5-pro", "Gemini 2.5 Pro"),
    ("gemini-2.5-flash", "Gemini 2.5 Flash"),
    ("gemma-4-31b", "Gemma 4 31B"),
    ("nova-pro", "Amazon Nova Pro"),
    ("nova-lite", "Amazon Nova Lite"),
    ("nova-micro", "Amazon Nova Micro"),
];

/// The board display name of `key`, if the harness's table has one.
///
/// ```
/// use runlens_core::import::board_display_name;
/// assert_eq!(board_display_name("fable51"), Some("Claude Fable 5.1"));
/// assert_eq!(board_display_name("my-model"), None);
/// ```
pub fn board_display_name(key: &str) -> Option<&'static str> {
    BOARD_NAMES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, name)| *name)
}
