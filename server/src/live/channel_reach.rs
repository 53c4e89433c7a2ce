//! Whom a notifying channel (webhooks, web push) reaches with a batch of logged events: each
//! account the audience tells of an event, with the category it is to them, that has a target
//! on the channel (an endpoint, a device), whose switch of that category on the channel is on,
//! and that has not muted the game for it (as mail decides). One rule for every such channel.

use super::{live_events, LiveEvent};
use crate::db::events::GameEventRow;
use crate::db::{notifications, DbConnection, DbError};
use crate::preferences::{Category, Channel, ChannelSwitches};

/// Calls `each` once per event and account the channel reaches, with the account's targets
/// (from `targets_of`, the targets of the accounts told, and `owner`, whose each is); answers
/// the sum of what `each` answered.
///
/// # Errors
/// Storage failures, `targets_of`'s and `each`'s included.
pub fn for_each_reached<T>(
    conn: &mut DbConnection,
    rows: &[GameEventRow],
    channel: Channel,
    targets_of: impl FnOnce(&mut DbConnection, &[i64]) -> Result<Vec<T>, DbError>,
    owner: impl Fn(&T) -> i64,
    mut each: impl FnMut(&mut DbConnection, &LiveEvent, i64, Category, &[&T]) -> Result<usize, DbError>,
) -> Result<usize, DbError> {
    let live = live_events(conn, rows, &|_, _| true)?;
    let mut told: Vec<i64> = live
        .iter()
        .flat_map(|event| event.told.iter().map(|(account, _)| *account))
        .collect();
    told.sort_unstable();
    told.dedup();
    let targets = targets_of(conn, &told)?;
    if targets.is_empty() {
        return Ok(0);
    }
    let owners: Vec<i64> = targets.iter().map(&owner).collect();
    let switches = ChannelSwitches::load(conn, channel, &owners)?;
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
