//! Whether one player gets one mail now, in the digest, or not at all, and what the mail
//! needs to know about them (time zone, unsubscribe link). Every mail to a player is decided
//! here, by [`recipient`].

use chrono_tz::Tz;
use turnpost_shared::api::TurnMail;

use crate::db::accounts::Account;
use crate::games::{GameStatus, GameWithSeats};
use crate::mail_context::MailContext;
use crate::notify::compose::Recipient;
use crate::preferences::{unsubscribe, Category, Preferences};

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

/// Whether muting a game silences `category`.
fn mutable(category: Category) -> bool {
    category.silenced_by_game_mute()
}

/// The one decision of whether and how `category` mail reaches `account`, from their
/// preferences and whether they muted the game. Muting a game silences its turn mail,
/// reminders and draw offers; the game-over mail still comes. Each switch does what it says:
/// reminders ignore the digest (they are urgent) and do not stop with turn mail `off`, only
/// with their own switch.
#[must_use]
pub fn recipient(
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

/// The addressee of `category` mail about `loaded` for `to`, or `None` when `to` does not want
/// it now (switched off, muted, or turn mail gathered in the digest): [`recipient`] with the
/// preferences and mute read with the game's seats (no query per recipient), and `to`'s reply
/// address and play link.
#[must_use]
pub fn player(
    ctx: &MailContext,
    loaded: &GameWithSeats,
    to: &Account,
    category: Category,
) -> Option<Recipient> {
    let decision = player_decision(ctx, loaded, to, category);
    (decision.delivery == Delivery::Now).then(|| Recipient {
        reply_to: reply_address(ctx, loaded, to),
        play_url: play_url(ctx, loaded, to),
        ..addressee(&decision)
    })
}

/// [`recipient`] for a player of `loaded`, with the preferences and mute read with the game's
/// seats.
#[must_use]
pub fn player_decision(
    ctx: &MailContext,
    loaded: &GameWithSeats,
    to: &Account,
    category: Category,
) -> Decision {
    let settings = loaded.settings_of(to.id);
    let preferences = settings
        .preferences
        .as_ref()
        .map(Preferences::from_row)
        .unwrap_or_default();
    recipient(ctx, to, &preferences, settings.muted, category)
}

/// `to`'s reply address for `loaded` as it stands (its seat, the ply it shows), if `to` holds
/// a seat of it.
#[must_use]
pub fn reply_address(ctx: &MailContext, loaded: &GameWithSeats, to: &Account) -> Option<String> {
    let seat = loaded.seat_of(to.id)?;
    let holder = crate::reply_address::SeatHolder {
        game_id: loaded.game.id,
        seat,
        account_id: to.id,
        generation: to.link_generation,
    };
    Some(ctx.reply.address(&holder, loaded.game.ply))
}

/// `to`'s play link for their seat in `loaded`, while the game is being played.
#[must_use]
pub fn play_url(ctx: &MailContext, loaded: &GameWithSeats, to: &Account) -> Option<String> {
    let seat = loaded.seat_of(to.id)?;
    (loaded.game.status == GameStatus::Active && !to.is_bot()).then(|| {
        crate::play_link::link(
            &ctx.public_url,
            &ctx.link_key,
            loaded.game.id,
            seat,
            to.id,
            to.link_generation,
        )
    })
}

/// A decision to send, as the composers address it.
#[must_use]
pub fn addressee(decision: &Decision) -> Recipient {
    Recipient {
        name: decision.account.name.clone(),
        email: decision.account.email.clone(),
        time_zone: decision.time_zone,
        unsubscribe_url: Some(decision.unsubscribe_url.clone()),
        reply_to: None,
        play_url: None,
    }
}
