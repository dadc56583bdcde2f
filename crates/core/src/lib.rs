//! runlens-core: the pure heart of runlens.
//!
//! It reads the outputs of the ClickHouse/data-agent-mnist harness into one versioned
//! run bundle ([`bundle`], [`import`]), and recomputes every number the dashboard and the
//! CLI show ([`metrics`]) from raw per-row data. It compiles natively and to wasm32 and has
//! no web, async, HTTP or drawing dependency (CI checks this with `cargo tree`).
//!
//! Modules:
//! - [`bundle`]: the `runlens.bundle/1` data model (see `docs/bundle-format.md`).
//! - [`import`]: harness files (JSON Lines, JSON, YAML) into a bundle, with precise errors.
//! - [`rules`]: the harness's rules config (semantic + decidable rules) and its checks.
//! - [`metrics`]: table ranking, failures, leaderboard, gate, statistics.
//! - [`jev`]: the Jev wire types and the harness's exact labelling/ranking requests.
//! - [`audit`]: the judge audit queue and the reviewer's decisions.
//! - [`overrides`]: re-labelled failures applied on top of a bundle, with provenance.
//! - [`trajectory`]: the trajectory viewer's SQL highlighting, tables, results and diff.
//! - [`site`]: a report site's index of runs and the trend of each model across them.
//! - [`csv`]: an RFC 4180 writer for table exports, with a formula-injection guard.

pub mod audit;
pub mod bundle;
pub mod csv;
pub mod import;
pub mod jev;
pub mod metrics;
pub mod overrides;
pub mod rules;
pub mod site;
pub mod trajectory;
pub mod yaml;
