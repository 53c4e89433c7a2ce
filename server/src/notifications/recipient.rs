//! Whether one player gets one mail now, in the digest, or not at all, and what the mail
//! needs to know about them (time zone, unsubscribe link).

use chrono_tz::Tz;
use turnpost_shared::TurnMail;

use super::{unsubscribe, Category, Preferences};
use crate::accounts::MailContext;
use crate::db::models::Account;
use crate::db::{notifications as q, DbConnection, DbError};

/// What to do with one mail for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Queue it now.
    Now,
    /// Turn mail of a digest reader: the daily digest will list the game.
    Digest,
    /// The player switched it off (or muted the game).
    Skip,
}

/// A player as a mail addresses them.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The account.
    pub account: Account,
    /// Time zone for deadlines.
    pub time_zone: Tz,
    /// One-click link that switches this mail's category off.
    pub unsubscribe_url: String,
    /// Whether to send.
    pub delivery: Delivery,
}

/// The decision for `category` mail about `game_id` (if any) to `account`. Muting a game
/// silences its turn mail, reminders and draw offers; the game-over mail still comes.
/// Reminders ignore the digest (they are urgent) but stop when turn mail is `off`.
///
/// # Errors
/// [`DbError::Query`].
pub fn recipient(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account: &Account,
    game_id: Option<i64>,
    category: Category,
) -> Result<Decision, DbError> {
    let preferences = Preferences::load(conn, account.id)?;
    let muted = match game_id {
        Some(game_id) if mutable(category) => q::is_muted(conn, account.id, game_id)?,
        _ => false,
    };
    Ok(decide(ctx, account, &preferences, muted, category))
}

/// Whether muting a game silences `category`.
fn mutable(category: Category) -> bool {
    matches!(
        category,
        Category::Turn | Category::Reminders | Category::DrawOffers
    )
}

/// [`recipient`] for a player whose preferences and mute of the game are already known (read
/// with the game's seats, see `games::Loaded`).
#[must_use]
pub fn decide(
    ctx: &MailContext,
    account: &Account,
    preferences: &Preferences,
    muted: bool,
    category: Category,
) -> Decision {
    let muted = muted && mutable(category);
    // Built-in bots have no mailbox: nothing is ever queued for them.
    let delivery = if muted || account.is_bot() || !preferences.wants(category) {
        Delivery::Skip
    } else {
        match (category, preferences.turn_mail) {
            (Category::Reminders, TurnMail::Off) => Delivery::Skip,
            (Category::Turn, TurnMail::Digest) => Delivery::Digest,
            _ => Delivery::Now,
        }
    };
    Decision {
        account: account.clone(),
        time_zone: preferences.time_zone,
        unsubscribe_url: unsubscribe::link(&ctx.public_url, &ctx.link_key, account.id, category),
        delivery,
    }
}
