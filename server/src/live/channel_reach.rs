//! Whom a notifying channel (webhooks, web push) reaches with a batch of logged events: each
//! account the audience tells of an event, with the category it is to them, that has a target
//! on the channel (an endpoint, a device), whose switch of that category on the channel is on,
//! and that has not muted the game for it (as mail decides). One rule for every such channel.

use super::{live_events, LiveEvent};
use crate::db::events::GameEventRow;
use crate::db::{notifications, DbConnection, DbError};
use crate::preferences::{Category, Channel, ChannelSwitches};

/// One account an event reaches on a channel, with its targets there.
pub struct Reached<'a, T> {
    /// The event as the streams read it.
    pub event: &'a LiveEvent,
    /// The account told.
    pub account: i64,
    /// What the event is to them.
    pub category: Category,
    /// Their targets on the channel (devices, endpoints).
    pub targets: &'a [&'a T],
    /// The public base URL, for links.
    pub site: &'a str,
    /// When the queueing runs.
    pub now: chrono::NaiveDateTime,
}

/// A notifying channel as the log's consumers see it: whether anyone has a target on it at
/// all, the targets of the accounts told, whose each target is, and how one account's
/// deliveries are queued.
pub struct ChannelReach<T> {
    /// Its switches.
    pub channel: Channel,
    /// Whether any target exists (else nothing is read).
    pub any: fn(&mut DbConnection) -> Result<bool, DbError>,
    /// The targets of these accounts.
    pub targets_of: fn(&mut DbConnection, &[i64]) -> Result<Vec<T>, DbError>,
    /// A target's account.
    pub owner: fn(&T) -> i64,
    /// Queues what one reached account gets; answers how many deliveries were added.
    pub queue: fn(&mut DbConnection, &Reached<'_, T>) -> Result<usize, DbError>,
}

impl<T> ChannelReach<T> {
    /// Queues the deliveries of the events of `rows` (`site`: the public base URL); answers
    /// how many.
    ///
    /// # Errors
    /// Storage failures.
    pub fn queue_for(
        &self,
        conn: &mut DbConnection,
        site: &str,
        rows: &[GameEventRow],
    ) -> Result<usize, DbError> {
        let now = crate::db::now();
        self.for_each(conn, rows, |conn, event, account, category, targets| {
            let reached = Reached {
                event,
                account,
                category,
                targets,
                site,
                now,
            };
            (self.queue)(conn, &reached)
        })
    }

    /// Calls `each` once per event of `rows` and account the channel reaches, with the
    /// account's targets; answers the sum of what `each` answered.
    ///
    /// # Errors
    /// Storage failures, the channel's queries' and `each`'s included.
    pub fn for_each(
        &self,
        conn: &mut DbConnection,
        rows: &[GameEventRow],
        mut each: impl FnMut(
            &mut DbConnection,
            &LiveEvent,
            i64,
            Category,
            &[&T],
        ) -> Result<usize, DbError>,
    ) -> Result<usize, DbError> {
        if !(self.any)(conn)? {
            return Ok(0);
        }
        let live = live_events(conn, rows, &|_, _| true)?;
        let mut told: Vec<i64> = live
            .iter()
            .flat_map(|event| event.told.iter().map(|(account, _)| *account))
            .collect();
        told.sort_unstable();
        told.dedup();
        let targets = (self.targets_of)(conn, &told)?;
        if targets.is_empty() {
            return Ok(0);
        }
        let owner = self.owner;
        let owners: Vec<i64> = targets.iter().map(owner).collect();
        let switches = ChannelSwitches::load(conn, self.channel, &owners)?;
        let mut done = 0;
        for event in &live {
            for (account, category) in &event.told {
                let Ok(category) = category.parse::<Category>() else {
                    continue;
                };
                let theirs: Vec<&T> = targets.iter().filter(|t| owner(t) == *account).collect();
                if theirs.is_empty() || !switches.wants(*account, category) {
                    continue;
                }
                if category.silenced_by_game_mute()
                    && notifications::is_muted(conn, *account, event.game_id)?
                {
                    continue;
                }
                done += each(conn, event, *account, category, &theirs)?;
            }
        }
        Ok(done)
    }
}
