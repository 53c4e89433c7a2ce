//! The order in which one lane's thinking threads take the bot moves that wait: round-robin
//! across the accounts whose games wait (the account served longest ago goes first), and within
//! one account its longest-waiting game first. So an account with many bot games gets one move
//! thought about per turn of the round, however many it has waiting, and a newcomer waits for
//! at most one move of each other account.
//!
//! The waiting moves are read from the database each round and handed in whole
//! ([`FairQueue::replace`]); the queue remembers what is being thought about and what was
//! finished since that read began, so a move is neither taken twice nor taken again from a
//! read that predates its finishing.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use chrono::NaiveDateTime;

/// What identifies a waiting bot action: the game, its ply, and whether it is a draw answer.
pub type JobKey = (i64, i32, bool);

/// Something a bot has to do, as the queue sees it.
pub trait Queued {
    /// What identifies it.
    fn key(&self) -> JobKey;
    /// The account it is done for (shares are counted per account).
    fn owner(&self) -> i64;
    /// Since when it has waited.
    fn since(&self) -> NaiveDateTime;
}

/// One lane's queue of waiting bot actions.
#[derive(Debug)]
pub struct FairQueue<J> {
    waiting: Vec<J>,
    /// Being thought about, with their owners.
    busy: HashMap<JobKey, i64>,
    finished: HashMap<JobKey, Instant>,
    /// When each account was last served, as a count of services: lower went longer ago.
    served: HashMap<i64, u64>,
    services: u64,
}

impl<J> Default for FairQueue<J> {
    fn default() -> Self {
        Self {
            waiting: Vec::new(),
            busy: HashMap::new(),
            finished: HashMap::new(),
            served: HashMap::new(),
            services: 0,
        }
    }
}

impl<J: Queued> FairQueue<J> {
    /// Replaces the waiting actions by `waiting`, as read from storage by a read that began at
    /// `read_began`: actions finished after that are left out (the read could not see their
    /// effect), and accounts with nothing waiting are forgotten.
    pub fn replace(&mut self, waiting: Vec<J>, read_began: Instant) {
        self.finished.retain(|_, at| *at >= read_began);
        let finished = &self.finished;
        self.waiting = waiting
            .into_iter()
            .filter(|job| !finished.contains_key(&job.key()))
            .collect();
        let owners: HashSet<i64> = self
            .waiting
            .iter()
            .map(Queued::owner)
            .chain(self.busy.values().copied())
            .collect();
        self.served.retain(|owner, _| owners.contains(owner));
    }

    /// Takes the next action to think about, if one waits that is not being thought about:
    /// the account served longest ago (never served first; ties go to the account whose action
    /// has waited longest), then that account's longest-waiting action.
    pub fn take(&mut self) -> Option<J> {
        let served = &self.served;
        let busy = &self.busy;
        let index = self
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, job)| !busy.contains_key(&job.key()))
            .min_by_key(|(_, job)| (served.get(&job.owner()).copied(), job.since(), job.key()))
            .map(|(index, _)| index)?;
        let job = self.waiting.swap_remove(index);
        self.services += 1;
        self.served.insert(job.owner(), self.services);
        self.busy.insert(job.key(), job.owner());
        Some(job)
    }

    /// Marks `key` done at `at` (played, dropped or failed): it leaves the busy set, and reads
    /// that began before `at` do not bring it back.
    pub fn finish(&mut self, key: JobKey, at: Instant) {
        self.busy.remove(&key);
        self.waiting.retain(|job| job.key() != key);
        self.finished.insert(key, at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Job {
        game: i64,
        owner: i64,
        since: i64,
    }

    impl Queued for Job {
        fn key(&self) -> JobKey {
            (self.game, 0, false)
        }
        fn owner(&self) -> i64 {
            self.owner
        }
        fn since(&self) -> NaiveDateTime {
            chrono::DateTime::from_timestamp(self.since, 0)
                .map(|t| t.naive_utc())
                .unwrap_or_default()
        }
    }

    fn job(game: i64, owner: i64, since: i64) -> Job {
        Job { game, owner, since }
    }

    fn drain(queue: &mut FairQueue<Job>) -> Vec<i64> {
        let mut order = Vec::new();
        while let Some(job) = queue.take() {
            order.push(job.game);
            queue.finish(job.key(), Instant::now());
        }
        order
    }

    #[test]
    fn accounts_take_turns_and_each_one_oldest_first() {
        let mut queue = FairQueue::default();
        // Account 1 has five games waiting since long ago; accounts 2 and 3 one each, later.
        let mut waiting: Vec<Job> = (0..5).map(|i| job(10 + i, 1, i)).collect();
        waiting.push(job(20, 2, 100));
        waiting.push(job(30, 3, 50));
        queue.replace(waiting, Instant::now());
        assert_eq!(drain(&mut queue), [10, 30, 20, 11, 12, 13, 14]);
    }

    #[test]
    fn a_fresh_read_does_not_put_the_busy_account_first_again() {
        let mut queue = FairQueue::default();
        let old: Vec<Job> = (0..3).map(|i| job(10 + i, 1, i)).collect();
        queue.replace(old.clone(), Instant::now());
        let first = queue.take().map(|j| j.game);
        assert_eq!(first, Some(10));
        // While game 10 is thought about, a new account's game arrives with a later read; the
        // account served already waits behind it although its games waited longer.
        let mut read = old[1..].to_vec();
        read.push(job(20, 2, 100));
        read.push(old[0]);
        queue.replace(read, Instant::now());
        assert_eq!(queue.take().map(|j| j.game), Some(20));
        assert_eq!(queue.take().map(|j| j.game), Some(11));
    }

    #[test]
    fn busy_and_finished_actions_are_not_taken_again() {
        let mut queue = FairQueue::default();
        let before_finish = Instant::now();
        queue.replace(vec![job(1, 1, 0), job(2, 2, 1)], before_finish);
        let taken = queue.take();
        assert_eq!(taken.map(|j| j.game), Some(1));
        // A read while game 1 is busy still lists it: it is not handed out twice.
        queue.replace(vec![job(1, 1, 0), job(2, 2, 1)], Instant::now());
        assert_eq!(queue.take().map(|j| j.game), Some(2));
        assert_eq!(queue.take(), None);
        queue.finish((1, 0, false), Instant::now());
        // A read that began before game 1 was finished still lists it: left out.
        queue.replace(vec![job(1, 1, 0)], before_finish);
        assert_eq!(queue.take(), None);
        // A read that began after finishing lists it only if it waits again: taken.
        queue.replace(vec![job(1, 1, 0)], Instant::now());
        assert_eq!(queue.take().map(|j| j.game), Some(1));
    }
}
