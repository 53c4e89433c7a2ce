//! Web push's consumer of the event log: it reads the log from its own position
//! (`event_cursors`, [`PUSH_CONSUMER`]), asks the audience who is told of each event, keeps
//! those whose push switch of that category is on and who have not muted the game for it (as
//! mail does), and queues one notification per device of theirs, in the transaction that
//! moves its position. A crash midway rolls both back; a redo finds the rows already queued
//! (unique device and event).

use super::notification;
use crate::db::push::{self as q, NewDelivery, SubscriptionRow};
use crate::db::{DbConnection, DbError};
use crate::live::{ChannelReach, Reached};
use crate::preferences::Channel;

/// The consumer's name in `event_cursors` (the log's prune waits for it).
pub const PUSH_CONSUMER: &str = "push";

/// Queues one notification per device of a reached account.
fn notify_devices(
    conn: &mut DbConnection,
    reached: &Reached<'_, SubscriptionRow>,
) -> Result<usize, DbError> {
    let event = reached.event;
    let shown = notification::of_event(event.for_reader(Some(reached.account)), reached.site);
    let body =
        serde_json::to_string(&shown).map_err(|error| DbError::Corrupt(error.to_string()))?;
    let how = notification::delivery(reached.category);
    let mut added = 0;
    for device in reached.targets {
        added += usize::from(q::enqueue(
            conn,
            &NewDelivery {
                subscription_id: device.id,
                event_id: event.position.id,
                body: &body,
                ttl: how.ttl,
                urgency: how.urgency,
                next_try_at: reached.now,
                status: "pending",
                created_at: reached.now,
            },
        )?);
    }
    Ok(added)
}

/// Push reaches the devices of the accounts told, one notification each.
pub const DEVICES: ChannelReach<SubscriptionRow> = ChannelReach {
    channel: Channel::Push,
    any: q::any,
    targets_of: q::subscriptions_of_all,
    owner: |device| device.account_id,
    queue: notify_devices,
};
