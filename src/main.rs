//! Entry point of the dashboard: install the panic hooks and mount the app.
fn main() {
    runlens_web::start();
}
