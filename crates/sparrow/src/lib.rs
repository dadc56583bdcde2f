//! runlens-sparrow: offline fallback decision model (being written).
