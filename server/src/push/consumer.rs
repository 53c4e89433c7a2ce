//! Web push's consumer of the event log: it reads the log from its own position
//! (`event_cursors`, [`PUSH_CONSUMER`]), asks the audience who is told of each event, keeps
//! those whose push switch of that category is on and who have not muted the game for it (as
//! mail does), and queues one notification per device of theirs, in the transaction that
//! moves its position. A crash midway rolls both back; a redo finds the rows already queued
//! (unique device and event).

use super::notification;
use crate::db::events;
use crate::db::push::{self as q, NewDelivery};
use crate::db::{self, DbConnection, DbError};
use crate::live::for_each_reached;
use crate::preferences::Channel;

/// The consumer's name in `event_cursors` (the log's prune waits for it).
pub const PUSH_CONSUMER: &str = "push";

/// Queues the notifications of `rows` (`site`: the public base URL); answers how many.
///
/// # Errors
/// Storage failures.
pub fn queue_for(
    conn: &mut DbConnection,
    site: &str,
    rows: &[events::GameEventRow],
) -> Result<usize, DbError> {
    if !q::any(conn)? {
        return Ok(0);
    }
    let now = db::now();
    for_each_reached(
        conn,
        rows,
        Channel::Push,
        q::subscriptions_of_all,
        |device| device.account_id,
        |conn, event, account, category, devices| {
            let shown = notification::of_event(event.for_reader(Some(account)), site);
            let body = serde_json::to_string(&shown)
                .map_err(|error| DbError::Corrupt(error.to_string()))?;
            let how = notification::delivery(category);
            let mut added = 0;
            for device in devices {
                added += usize::from(q::enqueue(
                    conn,
                    &NewDelivery {
                        subscription_id: device.id,
                        event_id: event.position.id,
                        body: &body,
                        ttl: how.ttl,
                        urgency: how.urgency,
                        next_try_at: now,
                        status: "pending",
                        created_at: now,
                    },
                )?);
            }
            Ok(added)
        },
    )
}
