//! A bounded least-recently-used cache of decision responses, keyed by
//! sha256(model, state, questions), so re-asking the same thing is instant and reproducible.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Bytes;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Cache key: the sha256 of the canonical request JSON `[model, state, questions]`.
pub type CacheKey = [u8; 32];

/// Computes the cache key of a decision (object keys hashed in request order).
///
/// ```
/// use runlens_proxy::cache::cache_key;
/// let questions = serde_json::json!({"q": {"type": "noul", "instructions": "?"}});
/// let a = cache_key("m", &serde_json::json!("s"), &questions);
/// assert_eq!(a, cache_key("m", &serde_json::json!("s"), &questions));
/// assert_ne!(a, cache_key("other", &serde_json::json!("s"), &questions));
/// ```
pub fn cache_key(model: &str, state: &Value, questions: &impl Serialize) -> CacheKey {
    let canonical = serde_json::to_vec(&(model, state, questions)).unwrap_or_default();
    Sha256::digest(&canonical).into()
}

/// Hit/miss counters and size, as shown by `/healthz`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Entries held.
    pub entries: usize,
    /// Most entries held.
    pub capacity: usize,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups that went to the backend.
    pub misses: u64,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<CacheKey, (Bytes, u64)>,
    recency: BTreeMap<u64, CacheKey>,
    clock: u64,
}

/// The response cache (thread-safe; O(log n) per operation).
pub struct ResponseCache {
    capacity: usize,
    inner: Mutex<Inner>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl ResponseCache {
    /// A cache holding at most `capacity` responses (0 = never stores).
    pub fn new(capacity: usize) -> Self {
        ResponseCache {
            capacity,
            inner: Mutex::new(Inner::default()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The stored body for `key`, marking it most recently used; counts a hit or a miss.
    pub fn get(&self, key: &CacheKey) -> Option<Bytes> {
        let found = self.inner.lock().ok().and_then(|mut inner| {
            inner.clock += 1;
            let now = inner.clock;
            let (body, last_used) = inner.entries.get_mut(key)?;
            let previous = std::mem::replace(last_used, now);
            let body = body.clone();
            inner.recency.remove(&previous);
            inner.recency.insert(now, *key);
            Some(body)
        });
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Stores `body` under `key`, evicting the least recently used entry when full.
    pub fn insert(&self, key: CacheKey, body: Bytes) {
        if self.capacity == 0 {
            return;
        }
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        inner.clock += 1;
        let now = inner.clock;
        if let Some((_, previous)) = inner.entries.insert(key, (body, now)) {
            inner.recency.remove(&previous);
        }
        inner.recency.insert(now, key);
        while inner.entries.len() > self.capacity {
            let Some((_, oldest)) = inner.recency.pop_first() else {
                break;
            };
            inner.entries.remove(&oldest);
        }
    }

    /// Current size and counters.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            entries: self
                .inner
                .lock()
                .map(|inner| inner.entries.len())
                .unwrap_or(0),
            capacity: self.capacity,
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> CacheKey {
        [n; 32]
    }

    #[test]
    fn least_recently_used_entry_is_evicted_first() {
        let cache = ResponseCache::new(2);
        cache.insert(key(1), Bytes::from_static(b"one"));
        cache.insert(key(2), Bytes::from_static(b"two"));
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&b"one"[..])); // 1 is now newest
        cache.insert(key(3), Bytes::from_static(b"three")); // evicts 2
        assert_eq!(cache.get(&key(2)), None);
        assert_eq!(cache.get(&key(3)).as_deref(), Some(&b"three"[..]));
        assert_eq!(
            cache.stats(),
            CacheStats {
                entries: 2,
                capacity: 2,
                hits: 2,
                misses: 1
            }
        );
    }

    #[test]
    fn zero_capacity_stores_nothing() {
        let cache = ResponseCache::new(0);
        cache.insert(key(1), Bytes::from_static(b"x"));
        assert_eq!(cache.get(&key(1)), None);
        assert_eq!(cache.stats().entries, 0);
    }
}
