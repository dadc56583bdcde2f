//! `runlens`: the command-line tool.
fn main() {}
