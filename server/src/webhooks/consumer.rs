//! The webhooks' consumer of the event log: it reads the log from its own position
//! (`event_cursors`, [`WEBHOOKS_CONSUMER`]), asks the audience who is told of each event
//! (through the streams' reading of it, [`live_events`]), keeps those whose webhook switch of
//! that category is on and who have not muted the game for it (as mail does), and queues one
//! delivery per matching endpoint, in the transaction that moves its position. A crash midway
//! rolls both back; a redo finds the deliveries already queued (unique endpoint and event).

use super::endpoints::wants;
use super::{payload, signature};
use crate::db::events;
use crate::db::webhooks::{self as q, NewDelivery};
use crate::db::{self, DbConnection, DbError};
use crate::live::for_each_reached;
use crate::preferences::Channel;

/// The consumer's name in `event_cursors` (the log's prune waits for it).
pub const WEBHOOKS_CONSUMER: &str = "webhooks";

/// Queues the deliveries of `rows` (`site`: the public base URL); answers how many.
///
/// # Errors
/// Storage failures.
pub fn queue_for(
    conn: &mut DbConnection,
    site: &str,
    rows: &[events::GameEventRow],
) -> Result<usize, DbError> {
    if !q::any_active(conn)? {
        return Ok(0);
    }
    let now = db::now();
    for_each_reached(
        conn,
        rows,
        Channel::Webhooks,
        q::active_endpoints_of,
        |endpoint| endpoint.account_id,
        |conn, event, account, _, endpoints| {
            let theirs: Vec<_> = endpoints
                .iter()
                .filter(|e| wants(e, event.shown.event))
                .collect();
            if theirs.is_empty() {
                return Ok(0);
            }
            let shown = payload::of_event(event.for_reader(Some(account)), site);
            let body = serde_json::to_string(&shown)
                .map_err(|error| DbError::Corrupt(error.to_string()))?;
            let mut added = 0;
            for endpoint in theirs {
                let message_id = signature::new_message_id();
                added += usize::from(q::enqueue(
                    conn,
                    &NewDelivery {
                        endpoint_id: endpoint.id,
                        event_id: Some(event.position.id),
                        webhook_id: &message_id,
                        event_type: &shown.event,
                        body: &body,
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
