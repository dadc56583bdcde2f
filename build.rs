//! With the `split` feature, the wasm binary keeps its relocations (`--emit-relocs`): the
//! split tool (wasm-split-cli, run by scripts/split.mjs) needs them to cut the module.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    if split && wasm {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
}
