//! runlens-web: the dashboard.
