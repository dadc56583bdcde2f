//! The synthetic sample bundle and its native metrics (`runlens metrics --json`), written by
//! `make test` before the wasm tests run (scripts/test.sh), included once for every module.

pub const SAMPLE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/public/bundles/article.json.gz"
));
pub const NATIVE_DEV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/target/sample-metrics/text2sqlbench-synthetic-dev.json"
));
pub const NATIVE_BOARD: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/target/sample-metrics/text2sqlbench-synthetic.json"
));
