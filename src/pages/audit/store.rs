//! Audit decisions in the browser: one localStorage entry per bundle content hash,
//! `runlens.audit.<hash>`, holding the JSON export (`AuditLog::to_json`).

use runlens_core::audit::AuditLog;

/// The localStorage key of the decisions on the bundle with content hash `hash`.
pub fn storage_key(hash: &str) -> String {
    format!("runlens.audit.{hash}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved decisions (empty when none); `Err` names why a saved entry could not be read.
pub fn load(hash: &str) -> Result<AuditLog, String> {
    let text = storage().and_then(|s| s.get_item(&storage_key(hash)).ok().flatten());
    match text {
        None => Ok(AuditLog::new()),
        Some(t) => AuditLog::from_json(&t).map_err(|e| {
            format!("The saved decisions could not be read ({e}); new decisions replace them.")
        }),
    }
}

/// Saves `log` for the bundle `hash`.
pub fn save(hash: &str, log: &AuditLog) -> Result<(), String> {
    let storage = storage().ok_or("This browser offers no local storage.")?;
    storage
        .set_item(&storage_key(hash), &log.to_json())
        .map_err(|_| "The browser refused to save the decisions (storage full or blocked).".into())
}

/// The current time, RFC 3339 UTC with milliseconds (`2026-12-03T07:04:34.123Z`).
pub fn now() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
}
