//! The answer to a player's mail reply (`crate::inbound`): whether one is due and under the
//! hourly limit, to which address, and what it says. Queued in the reply's own transaction.

use super::compose::{self, MailAnswer};
use super::recipient::Delivery;
use super::{facts, recipient};
use crate::db::accounts::Account;
use crate::db::{self, inbound as q, DbConnection, DbError};
use crate::games::{GameError, GameWithSeats};
use crate::mail_context::MailContext;
use crate::preferences::Category;

/// What the commands of one reply did, as the answer reports it.
#[derive(Debug, Clone, Copy)]
pub struct ReplyRun<'a> {
    /// What was done, refused or asked for.
    pub answer: &'a MailAnswer,
    /// Whether something changed the game (a confirmation is then due).
    pub acted: bool,
    /// Whether the reply asked for an answer (`show`, `moves`, `help`, or no command at all).
    pub asked: bool,
}

/// Queues the answer to `account`'s reply about game `game_id`, if one is due and the account
/// is under `answers_per_hour`; answers how many mails were queued (0 or 1).
///
/// Asked for (show, moves, help, no command) or a refusal: sent whatever the preferences say,
/// without an unsubscribe link (it cannot be switched off); a confirmation only to those who
/// want confirmations. Bots get none.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for a game that cannot be read.
pub fn answer_reply(
    conn: &mut DbConnection,
    ctx: &MailContext,
    answers_per_hour: u32,
    game_id: i64,
    account: &Account,
    run: ReplyRun<'_>,
) -> Result<i32, DbError> {
    let loaded = GameWithSeats::load(conn, game_id, false).map_err(|error| match error {
        GameError::Storage(error) => error,
        other => DbError::Corrupt(other.to_string()),
    })?;
    let asked = run.asked || run.answer.refusal.is_some();
    let decision = recipient::player_decision(ctx, &loaded, account, Category::MailConfirmations);
    let wanted = if asked {
        !account.is_bot()
    } else {
        run.acted && decision.delivery == Delivery::Now
    };
    if !wanted {
        return Ok(0);
    }
    let since = db::now() - chrono::Duration::hours(1);
    if q::answers_since(conn, account.id, since)? >= i64::from(answers_per_hour) {
        tracing::warn!(
            game = game_id,
            account = account.id,
            "mail answers over the hourly limit: not answered"
        );
        return Ok(0);
    }
    let mut to = recipient::addressee(&decision);
    to.reply_to = recipient::reply_address(ctx, &loaded, account);
    if asked {
        to.unsubscribe_url = None;
    }
    let seat = loaded.seat_of(account.id);
    let game = facts::game_facts(conn, &loaded, seat)?;
    let mail = compose::mail_answer(&facts::site(ctx), &to, &game, run.answer);
    facts::queue(conn, ctx, &to, mail)?;
    Ok(1)
}
