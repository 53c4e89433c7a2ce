//! A small in-process rate limiter (token buckets), for sign-up, sign-in and verify.
//!
//! Limits are per process: with several server instances each counts on its own, so the
//! effective limit is multiplied by the number of instances.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Token buckets keyed by string.
#[derive(Debug)]
pub struct RateLimiter {
    capacity: f64,
    refill_per_sec: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// How many keys trigger a sweep of full buckets.
const SWEEP_AT: usize = 10_000;

impl RateLimiter {
    /// `capacity` requests per `window`, refilled evenly.
    #[must_use]
    pub fn new(capacity: u32, window: Duration) -> Self {
        let capacity = f64::from(capacity.max(1));
        Self {
            capacity,
            refill_per_sec: capacity / window.as_secs_f64().max(0.001),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key`.
    ///
    /// # Errors
    /// The number of seconds until a token is available (at least 1).
    pub fn check(&self, key: &str) -> Result<(), u64> {
        let now = Instant::now();
        let mut buckets = match self.buckets.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if buckets.len() >= SWEEP_AT {
            let (capacity, rate) = (self.capacity, self.refill_per_sec);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < capacity
            });
        }
        let (tokens, at) = buckets
            .entry(key.to_owned())
            .or_insert((self.capacity, now));
        let refilled = (*tokens + now.duration_since(*at).as_secs_f64() * self.refill_per_sec)
            .min(self.capacity);
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            *at = now;
            Ok(())
        } else {
            *tokens = refilled;
            *at = now;
            let wait = (1.0 - refilled) / self.refill_per_sec;
            Err(Duration::from_secs_f64(wait.max(0.0)).as_secs().max(1))
        }
    }
}

/// The limiters of the account endpoints.
#[derive(Debug)]
pub struct Limits {
    per_email: RateLimiter,
    per_client: RateLimiter,
}

impl Limits {
    /// `per_email` and `per_client` requests per 15 minutes.
    #[must_use]
    pub fn new(per_email: u32, per_client: u32) -> Self {
        let window = Duration::from_secs(15 * 60);
        Self {
            per_email: RateLimiter::new(per_email, window),
            per_client: RateLimiter::new(per_client, window),
        }
    }

    /// Counts one request to `endpoint` from `client` about `email_key`.
    ///
    /// # Errors
    /// 429 with `Retry-After` when either limit is exhausted.
    pub fn check(
        &self,
        endpoint: &str,
        client: &str,
        email_key: &str,
    ) -> Result<(), crate::error::ApiError> {
        let client_result = self.per_client.check(&format!("{endpoint}|{client}"));
        let email_result = self.per_email.check(&format!("{endpoint}|{email_key}"));
        match (client_result, email_result) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Err(b)) => Err(crate::error::ApiError::TooManyRequests {
                retry_after_secs: a.max(b),
            }),
            (Err(a), Ok(())) | (Ok(()), Err(a)) => Err(crate::error::ApiError::TooManyRequests {
                retry_after_secs: a,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_empties_and_reports_a_wait() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        assert!(limiter.check("k").is_ok());
        assert!(limiter.check("k").is_ok());
        let wait = limiter.check("k").err().unwrap_or(0);
        assert!((1..=30).contains(&wait), "{wait}");
        assert!(limiter.check("other").is_ok());
    }
}
