//! One module per subcommand; each exposes `Args` (clap) and `run(Args)`.

pub mod compare;
pub mod completions;
pub mod convert;
pub mod export;
pub mod metrics;
pub mod serve;
pub mod site;
pub mod synth;
pub mod validate;
