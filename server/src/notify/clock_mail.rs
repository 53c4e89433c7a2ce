//! The mails the clock sweeps cause: reminders, claim notices and digests, composed and queued
//! in the sweep's own transaction (they are about the game as it is now, and the sweep's
//! single-flight claim already makes each one once), through the same recipient decision.

use chrono::NaiveDateTime;

use super::facts;
use super::recipient::{self, Delivery};
use crate::db::games::Game;
use crate::db::{accounts, DbConnection, DbError};
use crate::games::GameWithSeats;
use crate::mail_context::MailContext;
use crate::notify::compose;
use crate::preferences::{Category, Preferences};

/// Reminds the seat to move of its deadline.
///
/// # Errors
/// Storage failures.
pub fn reminder(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &GameWithSeats,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let Some(seat) = loaded.game.to_move else {
        return Ok(());
    };
    // A bot plays the seat on for its player who left: nobody to remind.
    if loaded.stand_in(seat).is_some() {
        return Ok(());
    }
    let Some(account) = loaded.player_at(seat) else {
        return Ok(());
    };
    let Some(to) = recipient::player(ctx, loaded, account, Category::Reminders) else {
        return Ok(());
    };
    let game = facts::game_facts(conn, loaded, Some(seat))?;
    let mail = compose::reminder(&facts::site(ctx), &to, &game, now.and_utc());
    facts::queue(conn, ctx, &to, mail)
}

/// Tells the seats not to move that the seat to move ran out of time and the win may be
/// claimed.
///
/// # Errors
/// Storage failures.
pub fn claimable(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &GameWithSeats,
) -> Result<(), DbError> {
    let Some(late) = loaded.game.to_move else {
        return Ok(());
    };
    let late_name = loaded.playing_name(late);
    let command = format!("turnpost claim {}", loaded.game.id);
    // Players who left the game may not claim.
    let departed = loaded.players_left()?;
    for (seat, account) in &loaded.seats {
        if seat.seat == late || departed.contains(&seat.seat) {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::Reminders) else {
            continue;
        };
        let game = facts::game_facts(conn, loaded, Some(seat.seat))?;
        let mail = compose::may_claim_on_time(&facts::site(ctx), &to, &game, &late_name, &command);
        facts::queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// The daily digest for `account_id` listing `waiting` (most urgent first). Returns whether a
/// mail was queued.
///
/// # Errors
/// Storage failures.
pub fn digest(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account_id: i64,
    waiting: &[Game],
) -> Result<bool, DbError> {
    let Some(account) = accounts::by_id(conn, account_id)? else {
        return Ok(false);
    };
    // Preferences read now: the digest is composed when it is due.
    let preferences = Preferences::load(conn, account.id)?;
    let decision = recipient::recipient(ctx, &account, &preferences, false, Category::Turn);
    if decision.delivery != Delivery::Digest {
        return Ok(false);
    }
    let mut games = Vec::with_capacity(waiting.len());
    for game in waiting {
        let Some(loaded) = GameWithSeats::find(conn, game.id, false)? else {
            continue;
        };
        let seat = loaded.seat_of(account_id);
        games.push(facts::game_facts(conn, &loaded, seat)?);
    }
    let to = recipient::addressee(&decision);
    let mail = compose::digest(&facts::site(ctx), &to, &games);
    facts::queue(conn, ctx, &to, mail)?;
    Ok(true)
}
