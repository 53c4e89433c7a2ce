//! What one notification says ({title, body, url, tag}, as the webhooks word the event) and
//! how the push service should hold it: `TTL` and `Urgency` (RFC 8030) by category.

use turnpost_shared::api::{PushNotification, StreamEvent};

use crate::preferences::Category;
use crate::webhooks::{payload_of_event, payload_title};

/// The push service's headers for one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// `TTL`: seconds the push service keeps it for a device that is offline.
    pub ttl: i32,
    /// `Urgency`: `high` wakes a sleeping phone; `normal` may wait for it.
    pub urgency: &'static str,
}

const DAY: i32 = 24 * 60 * 60;

/// How a notification of `category` is sent. Your turn is `high` (the one a player waits
/// for) and kept three days (the turn stays yours until you move: a phone off over a weekend
/// still learns of it); a challenge is kept as long (it waits for an answer); the rest are
/// `normal` and kept a day (news that is old by then, and the game page says it anyway).
#[must_use]
pub fn delivery(category: Category) -> Delivery {
    match category {
        Category::Turn => Delivery {
            ttl: 3 * DAY,
            urgency: "high",
        },
        Category::Challenges => Delivery {
            ttl: 3 * DAY,
            urgency: "normal",
        },
        _ => Delivery {
            ttl: DAY,
            urgency: "normal",
        },
    }
}

/// The notification of `event` as told to its reader; `site`: the public base URL. A click
/// opens the game's page, where a signed-in player plays their seat (as the web links it).
#[must_use]
pub fn of_event(event: StreamEvent, site: &str) -> PushNotification {
    let game = event.game;
    let payload = payload_of_event(event, site);
    PushNotification {
        title: payload_title(&payload),
        body: payload.text,
        url: payload.url,
        // One notification per game on the device: the newest replaces the one before.
        tag: format!("game-{game}"),
    }
}
