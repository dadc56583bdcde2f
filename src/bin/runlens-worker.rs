//! The loader Web Worker (built by trunk with `data-type="worker"`): see `runlens_web::loader`.
fn main() {
    runlens_web::loader::worker::start();
}
