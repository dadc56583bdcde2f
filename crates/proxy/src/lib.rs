//! runlens-proxy: `app(config) -> Router` serving the dashboard, bundles and a Jev-compatible API.
