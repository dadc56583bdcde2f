//! Per-client token-bucket rate limiting (client = peer IP) and the in-flight cap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most client buckets kept before full (idle) ones are dropped.
const MAX_TRACKED_CLIENTS: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// A token bucket per client IP: `burst` tokens, refilled at `per_minute / 60` per second.
#[derive(Debug)]
pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    /// A limiter allowing `per_minute` sustained requests (0 = unlimited) and `burst` at once.
    pub fn new(per_minute: u32, burst: u32) -> Self {
        RateLimiter {
            per_second: f64::from(per_minute) / 60.0,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `client` at time `now`; `Err(wait)` when none is left.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use runlens_proxy::limits::RateLimiter;
    /// let limiter = RateLimiter::new(60, 2); // 1 per second, 2 at once
    /// let (ip, t0) = ("10.0.0.1".parse().unwrap(), Instant::now());
    /// assert!(limiter.check(ip, t0).is_ok());
    /// assert!(limiter.check(ip, t0).is_ok());
    /// assert_eq!(limiter.check(ip, t0), Err(Duration::from_secs(1)));
    /// assert!(limiter.check(ip, t0 + Duration::from_secs(1)).is_ok());
    /// ```
    pub fn check(&self, client: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= MAX_TRACKED_CLIENTS && !buckets.contains_key(&client) {
            let (per_second, burst) = (self.per_second, self.burst);
            buckets.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.updated).as_secs_f64() * per_second
                    < burst
            });
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: self.burst,
            updated: now,
        });
        let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.per_second).min(self.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }
}
