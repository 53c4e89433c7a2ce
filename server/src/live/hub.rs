//! The open streams of this process, by account and by game, so that an event goes only to the
//! streams it concerns (ten thousand idle streams cost nothing per move). Each stream has a
//! bounded queue: a reader that falls that far behind is cut off (it resumes from its last id),
//! never buffered for ever. The caps of the configuration refuse one stream too many.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use super::LiveEvent;
use crate::db::events::LogPosition;

/// Events a stream may have waiting before it is cut off as too slow.
pub const STREAM_QUEUE: usize = 256;

/// What a stream follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamScope {
    /// The games in which this account holds a seat.
    Account(i64),
    /// One game.
    Game(i64),
}

/// Who holds a stream open, as the per-owner cap counts it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StreamOwner {
    /// A signed-in account.
    Account(i64),
    /// A spectator not signed in, by client address.
    Address(String),
}

/// Why a stream was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamRefused {
    /// The owner holds `cap` streams already.
    OwnerCap(u32),
    /// The process holds `cap` streams already.
    ProcessCap(u32),
}

impl std::fmt::Display for StreamRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OwnerCap(cap) => write!(
                f,
                "you have {cap} streams open already (the most this server allows); close one first"
            ),
            Self::ProcessCap(cap) => write!(
                f,
                "this server holds {cap} streams open already; try again in a minute"
            ),
        }
    }
}

/// The caps of the configuration.
#[derive(Debug, Clone, Copy)]
pub struct StreamCaps {
    /// Streams one owner may hold (`streams_per_account`).
    pub per_owner: u32,
    /// Streams this process may hold (`streams_per_process`).
    pub per_process: u32,
}

struct Subscriber {
    id: u64,
    scope: StreamScope,
    owner: StreamOwner,
    /// Where the stream started reading the log itself: the tail starts no later.
    start: LogPosition,
    queue: mpsc::Sender<Arc<LiveEvent>>,
}

#[derive(Default)]
struct Open {
    next_id: u64,
    subscribers: HashMap<u64, Subscriber>,
    by_account: HashMap<i64, Vec<u64>>,
    by_game: HashMap<i64, Vec<u64>>,
    per_owner: HashMap<StreamOwner, u32>,
}

impl Open {
    fn remove(&mut self, id: u64) {
        let Some(gone) = self.subscribers.remove(&id) else {
            return;
        };
        let (index, key) = match gone.scope {
            StreamScope::Account(account) => (&mut self.by_account, account),
            StreamScope::Game(game) => (&mut self.by_game, game),
        };
        if let Some(ids) = index.get_mut(&key) {
            ids.retain(|other| *other != id);
            if ids.is_empty() {
                index.remove(&key);
            }
        }
        if let Some(count) = self.per_owner.get_mut(&gone.owner) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_owner.remove(&gone.owner);
            }
        }
    }
}

/// The open streams of this process.
pub struct Hub {
    caps: StreamCaps,
    open: Mutex<Open>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub")
            .field("caps", &self.caps)
            .field("open", &self.open_streams())
            .finish()
    }
}

/// One open stream's place in the hub: its queue of events, and its removal when dropped.
pub struct Subscription {
    hub: Arc<Hub>,
    id: u64,
    /// The events for this stream, in log order.
    pub events: mpsc::Receiver<Arc<LiveEvent>>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.hub.lock().remove(self.id);
    }
}

impl Hub {
    /// A hub with no stream open.
    #[must_use]
    pub fn new(caps: StreamCaps) -> Self {
        Self {
            caps,
            open: Mutex::new(Open::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        // A panic while holding the lock left plain maps behind: still usable.
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens a stream of `scope` for `owner`, which reads the log itself from `start` on.
    ///
    /// # Errors
    /// [`StreamRefused`] past a cap.
    pub fn subscribe(
        self: &Arc<Self>,
        scope: StreamScope,
        owner: StreamOwner,
        start: LogPosition,
    ) -> Result<Subscription, StreamRefused> {
        let mut open = self.lock();
        if open.subscribers.len() >= usize::try_from(self.caps.per_process).unwrap_or(usize::MAX) {
            return Err(StreamRefused::ProcessCap(self.caps.per_process));
        }
        let held = open.per_owner.get(&owner).copied().unwrap_or(0);
        if held >= self.caps.per_owner {
            return Err(StreamRefused::OwnerCap(self.caps.per_owner));
        }
        let (queue, events) = mpsc::channel(STREAM_QUEUE);
        open.next_id += 1;
        let id = open.next_id;
        match scope {
            StreamScope::Account(account) => open.by_account.entry(account).or_default().push(id),
            StreamScope::Game(game) => open.by_game.entry(game).or_default().push(id),
        }
        *open.per_owner.entry(owner.clone()).or_default() += 1;
        open.subscribers.insert(
            id,
            Subscriber {
                id,
                scope,
                owner,
                start,
                queue,
            },
        );
        Ok(Subscription {
            hub: self.clone(),
            id,
            events,
        })
    }

    /// Hands `event` to every stream it concerns; a stream whose queue is full is cut off.
    pub fn dispatch(&self, event: &Arc<LiveEvent>) {
        let mut open = self.lock();
        let mut targets: Vec<u64> = open
            .by_game
            .get(&event.game_id)
            .cloned()
            .unwrap_or_default();
        for account in &event.seated {
            if let Some(ids) = open.by_account.get(account) {
                targets.extend(ids);
            }
        }
        // An account seated twice (a game against oneself) hears it once.
        targets.sort_unstable();
        targets.dedup();
        let mut too_slow = Vec::new();
        for id in targets {
            if let Some(subscriber) = open.subscribers.get(&id) {
                if subscriber.queue.try_send(event.clone()).is_err() {
                    too_slow.push(subscriber.id);
                }
            }
        }
        for id in too_slow {
            // Its sender dropped: the stream drains what it has, then ends.
            open.remove(id);
        }
    }

    /// Whether any stream follows game `game_id` or one of the accounts `seated` in it.
    pub fn concerns(&self, game_id: i64, mut seated: impl Iterator<Item = i64>) -> bool {
        let open = self.lock();
        open.by_game.contains_key(&game_id)
            || seated.any(|account| open.by_account.contains_key(&account))
    }

    /// How many streams are open.
    #[must_use]
    pub fn open_streams(&self) -> usize {
        self.lock().subscribers.len()
    }

    /// The earliest position an open stream started reading from, `None` when none is open.
    #[must_use]
    pub fn earliest_start(&self) -> Option<LogPosition> {
        self.lock().subscribers.values().map(|s| s.start).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hub(per_owner: u32, per_process: u32) -> Arc<Hub> {
        Arc::new(Hub::new(StreamCaps {
            per_owner,
            per_process,
        }))
    }

    #[test]
    fn caps_refuse_one_too_many_and_free_on_drop() {
        let hub = hub(2, 3);
        let start = LogPosition::default();
        let a = hub.subscribe(StreamScope::Account(1), StreamOwner::Account(1), start);
        let b = hub.subscribe(StreamScope::Game(5), StreamOwner::Account(1), start);
        assert!(a.is_ok() && b.is_ok());
        assert_eq!(
            hub.subscribe(StreamScope::Game(6), StreamOwner::Account(1), start)
                .err(),
            Some(StreamRefused::OwnerCap(2))
        );
        let c = hub.subscribe(
            StreamScope::Game(6),
            StreamOwner::Address("x".into()),
            start,
        );
        assert!(c.is_ok());
        assert_eq!(
            hub.subscribe(StreamScope::Game(6), StreamOwner::Account(2), start)
                .err(),
            Some(StreamRefused::ProcessCap(3))
        );
        drop(a);
        assert_eq!(hub.open_streams(), 2);
        assert!(hub
            .subscribe(StreamScope::Game(6), StreamOwner::Account(1), start)
            .is_ok());
    }
}
