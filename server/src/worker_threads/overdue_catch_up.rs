//! The mail side's bound on waiting. Mail is composed and sent on low-priority threads
//! (`SCHED_IDLE`, see `crate::worker_threads::idle_priority`), which give the CPU to the HTTP API
//! at once; under a load that saturates the machine they would wait until it ends. A catch-up
//! thread at normal priority, one per stage (composing, delivery), looks at the oldest waiting item
//! every [`CatchUp::check_every`] and works only while it is overdue: from [`CatchUp::after`] until
//! the oldest is younger than half of that. Mail then gets the share of the CPU it needs to keep
//! its oldest item under the bound, and no more (one thread, and only while behind).

use std::time::Duration;

use chrono::NaiveDateTime;

use crate::db::DbError;

/// When a catch-up thread works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CatchUp {
    /// It starts once the oldest waiting item is this old.
    pub after: Duration,
}

impl CatchUp {
    /// The bound `after`; `None` for zero (no catch-up thread).
    #[must_use]
    pub fn after(after: Duration) -> Option<Self> {
        (!after.is_zero()).then_some(Self { after })
    }

    /// How often it looks at the oldest waiting item: a tenth of the bound, between 100 ms and
    /// 1 s (one indexed read each time).
    #[must_use]
    pub fn check_every(self) -> Duration {
        (self.after / 10).clamp(Duration::from_millis(100), Duration::from_secs(1))
    }

    /// Once working, it goes on until the oldest waiting item is younger than this (half the
    /// bound), so it does not stop and start at every item around the bound.
    #[must_use]
    pub fn stop_below(self) -> Duration {
        self.after / 2
    }

    /// Runs `round` (one batch of work; answers how many items it did) while the item
    /// `oldest_age` reports is overdue: from [`Self::after`], then down to
    /// [`Self::stop_below`]; stops early when a round finds nothing it can take (the oldest
    /// are held by other threads). Returns the items done.
    ///
    /// # Errors
    /// The first failure of `oldest_age` or `round`.
    pub fn overdue_rounds(
        self,
        mut oldest_age: impl FnMut() -> Result<Option<Duration>, DbError>,
        mut round: impl FnMut() -> Result<usize, DbError>,
    ) -> Result<usize, DbError> {
        let mut done = 0;
        let mut bound = self.after;
        loop {
            match oldest_age()? {
                Some(age) if age >= bound => {}
                _ => return Ok(done),
            }
            let did = round()?;
            if did == 0 {
                return Ok(done);
            }
            done += did;
            bound = self.stop_below();
        }
    }
}

/// How long ago `at` was (zero for a time in the future, as after a clock step).
#[must_use]
pub fn age_since(at: NaiveDateTime) -> Duration {
    (crate::db::now() - at).to_std().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_means_no_catch_up_and_checks_stay_between_a_tenth_and_a_second() {
        assert_eq!(CatchUp::after(Duration::ZERO), None);
        let ten = CatchUp::after(Duration::from_secs(10)).unwrap();
        assert_eq!(ten.check_every(), Duration::from_secs(1));
        assert_eq!(ten.stop_below(), Duration::from_secs(5));
        let short = CatchUp::after(Duration::from_millis(200)).unwrap();
        assert_eq!(short.check_every(), Duration::from_millis(100));
        let long = CatchUp::after(Duration::from_secs(600)).unwrap();
        assert_eq!(long.check_every(), Duration::from_secs(1));
    }

    #[test]
    fn works_from_the_bound_down_to_half_of_it() {
        let catch_up = CatchUp::after(Duration::from_secs(10)).unwrap();
        // A queue of items aged 12, 11, ..., 1 s: rounds of one take the oldest.
        let mut queue: Vec<u64> = (1..=12).rev().collect();
        let done = {
            let ages = std::cell::RefCell::new(&mut queue);
            catch_up
                .overdue_rounds(
                    || Ok(ages.borrow().first().map(|s| Duration::from_secs(*s))),
                    || {
                        ages.borrow_mut().remove(0);
                        Ok(1)
                    },
                )
                .unwrap()
        };
        assert_eq!(
            done, 8,
            "12 s down to 5 s done, 4 s is under half the bound"
        );
        assert_eq!(queue.first(), Some(&4));

        let mut rounds = 0;
        let none = catch_up
            .overdue_rounds(
                || Ok(Some(Duration::from_secs(9))),
                || {
                    rounds += 1;
                    Ok(1)
                },
            )
            .unwrap();
        assert_eq!((none, rounds), (0, 0), "under the bound: no work at all");

        let stuck = catch_up
            .overdue_rounds(|| Ok(Some(Duration::from_secs(60))), || Ok(0))
            .unwrap();
        assert_eq!(
            stuck, 0,
            "nothing it can take: it stops instead of spinning"
        );
    }
}
