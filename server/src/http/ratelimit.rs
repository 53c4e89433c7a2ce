//! A small in-process rate limiter (token buckets), for sign-up, sign-in, verify and challenges.
//!
//! Limits are per process: with several server instances each counts on its own, so the
//! effective limit is multiplied by the number of instances.
//!
//! Kept rather than `governor` (0.10, keyed by a `DashMap`): a challenge takes a token from
//! the sender's and from every recipient's bucket, all or none ([`RateLimiter::take_each`]),
//! and gives them back when the challenge is not created ([`ChallengeCharge`]); `governor`
//! checks one key at a time and cannot give a token back. It does cost less a check, measured
//! with `cargo bench -p turnpost-server --bench hand_written` (2026-11-28, 2-core machine, load
//! average 5; 10 requests per 15 minutes a key, ns a check):
//!
//! | pattern | ours | `governor` |
//! |---|---|---|
//! | one client, 100 000 checks (refused after 10) | 284 | 227 |
//! | 1 000 clients in turn | 300 | 232 |
//! | 9 000 new clients, one check each | 536 | 431 |
//! | 30 000 new clients, one check each | 205 519 | 606 |
//!
//! The last row was our eviction as it stood then: from `SWEEP_AT` (10 000) keys on, every check
//! swept the map, and when none of the buckets is full again (a flood of new addresses within a
//! refill) each sweep kept them all, so every check walked them all. Now the next sweep waits
//! until the map has doubled since the last one kept, so sweeping costs a constant share of a
//! check however many keys stay.

use std::collections::{BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::config::client_address::{rate_bucket, ProxyHeader, TrustedProxies};

/// Token buckets keyed by string.
#[derive(Debug)]
pub struct RateLimiter {
    capacity: f64,
    refill_per_sec: f64,
    buckets: Mutex<Buckets>,
}

/// The buckets by key, and how many keys make the next sweep of full buckets.
#[derive(Debug)]
struct Buckets {
    by_key: HashMap<String, (f64, Instant)>,
    sweep_at: usize,
}

/// How many keys trigger the first sweep of full buckets.
const SWEEP_AT: usize = 10_000;

impl RateLimiter {
    /// `capacity` requests per `window`, refilled evenly.
    #[must_use]
    pub fn new(capacity: u32, window: Duration) -> Self {
        let capacity = f64::from(capacity.max(1));
        Self {
            capacity,
            refill_per_sec: capacity / window.as_secs_f64().max(0.001),
            buckets: Mutex::new(Buckets {
                by_key: HashMap::new(),
                sweep_at: SWEEP_AT,
            }),
        }
    }

    fn buckets(&self) -> MutexGuard<'_, Buckets> {
        match self.buckets.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The tokens a bucket holds `now`.
    fn refilled(&self, (tokens, at): (f64, Instant), now: Instant) -> f64 {
        (tokens + now.duration_since(at).as_secs_f64() * self.refill_per_sec).min(self.capacity)
    }

    /// Takes one token for `key`.
    ///
    /// # Errors
    /// The number of seconds until a token is available (at least 1).
    pub fn check(&self, key: &str) -> Result<(), u64> {
        self.take_each(&[key])
    }

    /// Takes one token for each of `keys` (each distinct key once), or none when any of them
    /// has none left.
    ///
    /// # Errors
    /// The number of seconds until every key has a token (at least 1).
    pub fn take_each(&self, keys: &[&str]) -> Result<(), u64> {
        let keys: BTreeSet<&str> = keys.iter().copied().collect();
        let now = Instant::now();
        let mut guard = self.buckets();
        let Buckets { by_key, sweep_at } = &mut *guard;
        if by_key.len() >= *sweep_at {
            by_key.retain(|_, bucket| self.refilled(*bucket, now) < self.capacity);
            // Buckets that are not full stay; sweeping again before the map has doubled would
            // walk them all at every check of a flood of new addresses.
            *sweep_at = SWEEP_AT.max(by_key.len().saturating_mul(2));
        }
        let mut lacking = 0.0_f64;
        for key in &keys {
            let bucket = by_key
                .entry((*key).to_owned())
                .or_insert((self.capacity, now));
            *bucket = (self.refilled(*bucket, now), now);
            lacking = lacking.max(1.0 - bucket.0);
        }
        if lacking > 0.0 {
            let wait = lacking / self.refill_per_sec;
            return Err(Duration::from_secs_f64(wait.max(0.0)).as_secs().max(1));
        }
        for key in &keys {
            if let Some(bucket) = by_key.get_mut(*key) {
                bucket.0 -= 1.0;
            }
        }
        Ok(())
    }

    /// Gives back the token [`RateLimiter::take_each`] took for each of `keys`.
    pub fn give_back(&self, keys: &[&str]) {
        let keys: BTreeSet<&str> = keys.iter().copied().collect();
        let now = Instant::now();
        let mut buckets = self.buckets();
        for key in keys {
            // A bucket swept away was full again: nothing to give back.
            if let Some(bucket) = buckets.by_key.get_mut(key) {
                *bucket = ((self.refilled(*bucket, now) + 1.0).min(self.capacity), now);
            }
        }
    }
}

/// The limiters of the account and challenge endpoints.
#[derive(Debug)]
pub struct Limits {
    per_email: RateLimiter,
    per_client: RateLimiter,
    challenges_per_account: RateLimiter,
    challenges_per_recipient: RateLimiter,
    proxies: TrustedProxies,
    proxy_header: ProxyHeader,
}

/// What the limits are set to.
#[derive(Debug, Clone)]
pub struct LimitSettings {
    /// Account requests per email address per 15 minutes (each endpoint counted apart).
    pub per_email: u32,
    /// Sign-up and verify requests per client address per 15 minutes.
    pub per_client: u32,
    /// Challenges one account may send per hour.
    pub challenges_per_account: u32,
    /// Challenges one account may receive per hour.
    pub challenges_per_recipient: u32,
    /// Whose `X-Forwarded-For` (or `Forwarded`) names the client.
    pub proxies: TrustedProxies,
    /// Which of the two headers the proxies write.
    pub proxy_header: ProxyHeader,
}

/// A request over its budget, and when the budget allows the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many requests; retry in {retry_after_secs} s")]
pub struct RateLimited {
    /// Seconds until a retry can succeed (at least 1).
    pub retry_after_secs: u64,
}

fn too_many(retry_after_secs: u64) -> RateLimited {
    RateLimited { retry_after_secs }
}

impl Limits {
    /// Limiters with these settings.
    #[must_use]
    pub fn new(settings: LimitSettings) -> Self {
        let quarter = Duration::from_secs(15 * 60);
        let hour = Duration::from_secs(60 * 60);
        Self {
            per_email: RateLimiter::new(settings.per_email, quarter),
            per_client: RateLimiter::new(settings.per_client, quarter),
            challenges_per_account: RateLimiter::new(settings.challenges_per_account, hour),
            challenges_per_recipient: RateLimiter::new(settings.challenges_per_recipient, hour),
            proxies: settings.proxies,
            proxy_header: settings.proxy_header,
        }
    }

    /// The rate-limit bucket of the address a request comes from, given the peer's address
    /// and the values of the proxy header (see [`TrustedProxies::client`] and [`rate_bucket`]).
    #[must_use]
    pub fn client_address(&self, peer: Option<IpAddr>, forwarded: &[&str]) -> String {
        let Some(peer) = peer else {
            return "unknown".to_owned();
        };
        rate_bucket(self.proxies.client(peer, self.proxy_header, forwarded))
    }

    /// The header trusted proxies name the client in.
    #[must_use]
    pub fn proxy_header(&self) -> ProxyHeader {
        self.proxy_header
    }

    /// Counts one request to `endpoint` about `email_key`: the limit of one mailbox, whoever
    /// asks. Sign-in is limited by this alone, so requests for other addresses from a shared
    /// address (a NAT, an office) never lock a player out of signing in.
    ///
    /// # Errors
    /// [`RateLimited`] when the address's budget is used up.
    pub fn check_email(&self, endpoint: &str, email_key: &str) -> Result<(), RateLimited> {
        self.per_email
            .check(&format!("{endpoint}|{email_key}"))
            .map_err(too_many)
    }

    /// Counts one request to `endpoint` from `client` about `email_key`: both the address's
    /// and the client's budget (sign-up and verify, where one client trying many addresses is
    /// the abuse). Each budget is counted apart: a refusal by one still counts in the other.
    ///
    /// # Errors
    /// [`RateLimited`] when either budget is used up.
    pub fn check(&self, endpoint: &str, client: &str, email_key: &str) -> Result<(), RateLimited> {
        let client_result = self.per_client.check(&format!("{endpoint}|{client}"));
        let email_result = self.per_email.check(&format!("{endpoint}|{email_key}"));
        match (client_result, email_result) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Err(b)) => Err(too_many(a.max(b))),
            (Err(a), Ok(())) | (Ok(()), Err(a)) => Err(too_many(a)),
        }
    }

    /// Counts one join of an open challenge by the account called `account` (a name key):
    /// joins have an hourly budget of their own, as large as the budget of challenges sent.
    /// A refused join counts too, so retrying in a loop does not get further.
    ///
    /// # Errors
    /// [`RateLimited`] when the account has joined as many challenges as an hour allows.
    pub fn check_join(&self, account: &str) -> Result<(), RateLimited> {
        self.challenges_per_account
            .check(&format!("join|{}", account.to_lowercase()))
            .map_err(too_many)
    }

    /// Charges one challenge from the account called `challenger` to the persons called
    /// `recipients` (name keys; each charged once, the challenger never as a recipient): one
    /// from the sender's hourly budget and one from each recipient's, all or none. Call it
    /// once the challenge is known to be acceptable, and [`ChallengeCharge::keep`] the charge
    /// once it is created: a charge dropped unkept is given back.
    ///
    /// # Errors
    /// [`RateLimited`] when the challenger has sent, or a recipient has received, as
    /// many challenges as an hour allows; then nothing is charged.
    pub fn charge_challenge<'a>(
        &'a self,
        challenger: &str,
        recipients: &[String],
    ) -> Result<ChallengeCharge<'a>, RateLimited> {
        let challenger = challenger.to_lowercase();
        let mut recipients: Vec<String> = recipients
            .iter()
            .map(|r| r.trim().to_lowercase())
            .filter(|r| *r != challenger)
            .collect();
        recipients.sort();
        recipients.dedup();
        self.challenges_per_account
            .take_each(&[&challenger])
            .map_err(too_many)?;
        let keys: Vec<&str> = recipients.iter().map(String::as_str).collect();
        if let Err(wait) = self.challenges_per_recipient.take_each(&keys) {
            self.challenges_per_account.give_back(&[&challenger]);
            return Err(too_many(wait));
        }
        Ok(ChallengeCharge {
            limits: self,
            challenger,
            recipients,
            kept: false,
        })
    }
}

/// One challenge's share of the hourly challenge budgets ([`Limits::charge_challenge`]):
/// given back when dropped, unless kept because the challenge was created.
#[derive(Debug)]
#[must_use = "a charge dropped unkept is given back"]
pub struct ChallengeCharge<'a> {
    limits: &'a Limits,
    challenger: String,
    recipients: Vec<String>,
    kept: bool,
}

impl ChallengeCharge<'_> {
    /// Keeps the charge: the challenge was created.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for ChallengeCharge<'_> {
    fn drop(&mut self) {
        if !self.kept {
            self.limits
                .challenges_per_account
                .give_back(&[&self.challenger]);
            let keys: Vec<&str> = self.recipients.iter().map(String::as_str).collect();
            self.limits.challenges_per_recipient.give_back(&keys);
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

    #[test]
    fn a_flood_of_new_keys_is_swept_once_per_doubling_and_keeps_its_limits() {
        let limiter = RateLimiter::new(1, Duration::from_secs(3600));
        assert!(limiter.check("drained").is_ok());
        for n in 0..SWEEP_AT {
            assert!(limiter.check(&format!("client-{n}")).is_ok());
        }
        // The sweep at SWEEP_AT keys kept every bucket (none is full again within the hour), so
        // the next one waits until the map has doubled instead of running at every check.
        let sweep_at = limiter.buckets().sweep_at;
        assert_eq!(sweep_at, 2 * SWEEP_AT);
        assert!(limiter.check("drained").is_err());
        assert!(limiter.check("client-0").is_err());
    }
}
