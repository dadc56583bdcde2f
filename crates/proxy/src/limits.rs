//! Per-client rate limiting on `/v1/systemone` (client = peer IP, or the forwarded address
//! behind a trusted proxy): `governor`'s GCRA, keyed by client, with a bounded client map.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter as Gcra};

/// Most clients tracked at once. When full, clients whose state is back to fresh (no
/// recent requests) are dropped; if they are all still active (a flood of distinct
/// addresses), every request waits a second until some are not: the map never grows past it.
pub const MAX_TRACKED_CLIENTS: usize = 10_000;

/// governor's keyed limiter on `clock`.
type KeyedGcra<C> =
    Gcra<IpAddr, DashMapStateStore<IpAddr>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// `burst` requests at once per client, refilled at `per_minute` a minute.
pub struct RateLimiter<C: Clock = DefaultClock> {
    gcra: Option<KeyedGcra<C>>,
    clock: C,
}

impl RateLimiter {
    /// A limiter allowing `per_minute` sustained requests (0 = unlimited) and `burst` at once.
    pub fn new(per_minute: u32, burst: u32) -> Self {
        RateLimiter::with_clock(per_minute, burst, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    /// The same limiter on `clock` (tests pass a `governor::clock::FakeRelativeClock`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use governor::clock::FakeRelativeClock;
    /// use runlens_proxy::limits::RateLimiter;
    /// let clock = FakeRelativeClock::default();
    /// let limiter = RateLimiter::with_clock(60, 2, clock.clone()); // 1 per second, 2 at once
    /// let ip = "10.0.0.1".parse().unwrap();
    /// assert!(limiter.check(ip).is_ok());
    /// assert!(limiter.check(ip).is_ok());
    /// assert_eq!(limiter.check(ip), Err(Duration::from_secs(1)));
    /// assert!(limiter.check("10.0.0.2".parse().unwrap()).is_ok()); // its own bucket
    /// clock.advance(Duration::from_secs(1));
    /// assert!(limiter.check(ip).is_ok());
    /// ```
    pub fn with_clock(per_minute: u32, burst: u32, clock: C) -> Self {
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let gcra = NonZeroU32::new(per_minute).map(|rate| {
            Gcra::dashmap_with_clock(Quota::per_minute(rate).allow_burst(burst), clock.clone())
        });
        RateLimiter { gcra, clock }
    }

    /// Takes one request for `client`; `Err(wait)` until its next one is allowed.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        let Some(gcra) = &self.gcra else {
            return Ok(());
        };
        if gcra.len() >= MAX_TRACKED_CLIENTS {
            gcra.retain_recent();
            gcra.shrink_to_fit();
            if gcra.len() >= MAX_TRACKED_CLIENTS {
                return Err(Duration::from_secs(1));
            }
        }
        gcra.check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Clients tracked now (for `/healthz` and tests).
    pub fn tracked_clients(&self) -> usize {
        self.gcra.as_ref().map_or(0, Gcra::len)
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv6Addr;

    use governor::clock::FakeRelativeClock;

    use super::*;

    fn client(n: usize) -> IpAddr {
        IpAddr::V6(Ipv6Addr::from(n as u128 + 1))
    }

    #[test]
    fn the_client_map_never_grows_past_its_bound() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(60, 1, clock.clone());
        for n in 0..MAX_TRACKED_CLIENTS {
            assert!(limiter.check(client(n)).is_ok());
        }
        assert_eq!(limiter.tracked_clients(), MAX_TRACKED_CLIENTS);
        // Every tracked client is still active (1 per second, each used its one request).
        assert_eq!(
            limiter.check(client(MAX_TRACKED_CLIENTS)),
            Err(Duration::from_secs(1))
        );
        assert_eq!(limiter.tracked_clients(), MAX_TRACKED_CLIENTS);
        // Two seconds later they are all fresh again: dropped, and the newcomer is let in.
        clock.advance(Duration::from_secs(2));
        assert!(limiter.check(client(MAX_TRACKED_CLIENTS)).is_ok());
        assert_eq!(limiter.tracked_clients(), 1);
    }

    #[test]
    fn zero_per_minute_is_unlimited() {
        let limiter = RateLimiter::new(0, 1);
        for _ in 0..1000 {
            assert!(limiter.check(client(0)).is_ok());
        }
        assert_eq!(limiter.tracked_clients(), 0);
    }
}
