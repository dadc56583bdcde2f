//! What the views compute from a loaded bundle, kept per bundle: the answers to their
//! questions ([`answers`], from the loader worker or the page), leaderboard rows, the table
//! matcher and the compiled rules. Above loading, below the pages (docs/architecture.md,
//! "Layers").

pub mod answers;
pub mod board_cache;
pub mod bundle_matcher;
pub mod compiled_rules;
pub mod newest_answer;
pub mod row_blocks;
