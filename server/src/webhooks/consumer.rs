//! The webhooks' consumer of the event log: it reads the log from its own position
//! (`event_cursors`, [`WEBHOOKS_CONSUMER`]), asks the audience who is told of each event
//! (through the streams' reading of it, [`live_events`]), keeps those whose webhook switch of
//! that category is on and who have not muted the game for it (as mail does), and queues one
//! delivery per matching endpoint, in the transaction that moves its position. A crash midway
//! rolls both back; a redo finds the deliveries already queued (unique endpoint and event).

use super::endpoints::wants;
use super::{payload, signature};
use crate::db::webhooks::{self as q, EndpointRow, NewDelivery};
use crate::db::{DbConnection, DbError};
use crate::live::{ChannelReach, Reached};
use crate::preferences::Channel;

/// The consumer's name in `event_cursors` (the log's prune waits for it).
pub const WEBHOOKS_CONSUMER: &str = "webhooks";

/// Webhooks reach the working endpoints of the accounts told that take the event's kind.
pub const ENDPOINTS: ChannelReach<EndpointRow> = ChannelReach {
    channel: Channel::Webhooks,
    any: q::any_active,
    targets_of: q::active_endpoints_of,
    owner: |endpoint| endpoint.account_id,
    queue: deliver_to_endpoints,
};

/// Queues one signed delivery per endpoint of a reached account that takes the event's kind.
fn deliver_to_endpoints(
    conn: &mut DbConnection,
    reached: &Reached<'_, EndpointRow>,
) -> Result<usize, DbError> {
    let event = reached.event;
    let theirs: Vec<_> = reached
        .targets
        .iter()
        .filter(|e| wants(e, event.shown.event))
        .collect();
    if theirs.is_empty() {
        return Ok(0);
    }
    let shown = payload::of_event(event.for_reader(Some(reached.account)), reached.site);
    let body =
        serde_json::to_string(&shown).map_err(|error| DbError::Corrupt(error.to_string()))?;
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
                next_try_at: reached.now,
                status: "pending",
                created_at: reached.now,
            },
        )?);
    }
    Ok(added)
}
