//! A reply to a tournament's announcement (issue 27): its reply key names the tournament and
//! the invited account; the key AND the sender are checked as for game replies, then its first
//! written line (`join` or `withdraw`, [`EntryCommand`]) runs through the tournament service,
//! the same `tournaments::join` / `withdraw` the API and the web call (same checks: entries
//! open, not full, not in already), and the sender is answered with what happened.
//!
//! Exactly once, as game replies: the message's record (`inbound_tournament_mail`, keyed by a
//! hash of its Message-ID, the tournament and the account) is written in the transaction of
//! the entry and the answer; the service's own transaction joins it as a savepoint.

use super::entry_command::{EntryCommand, EXPECTED};
use super::sender_auth::same_address;
use super::{written_lines, InboundMessage, Outcome, SenderAuth};
use crate::db::transaction as tx;
use crate::db::{self, accounts, inbound as q, tournaments, DbConnection, DbError};
use crate::games::{Actor, GameError};
use crate::mail_context::MailContext;
use crate::notify::tournament_mail::{self, EntryAnswer};
use crate::reply_address::EntryToken;
use crate::tournaments::TournamentError;

/// What a reply to an announcement must pass, beyond its key and From address, and how often
/// its sender may be answered.
#[derive(Debug, Clone, Copy)]
pub struct EntryLimits<'a> {
    /// Answers one account gets per hour.
    pub answers_per_hour: u32,
    /// What a reply must prove about its sender.
    pub sender_auth: &'a SenderAuth,
}

/// Handles `message` from `from`, sent to the tournament reply address `token`.
///
/// # Errors
/// Storage failures only (the message is offered again later).
pub fn decide(
    conn: &mut DbConnection,
    ctx: &MailContext,
    limits: EntryLimits<'_>,
    message: &InboundMessage,
    from: &str,
    token: &EntryToken,
) -> Result<Outcome, DbError> {
    let id = token.tournament_id;
    // Scoped to the tournament and account, so one sender's Message-ID never shadows another's.
    let key = crate::secrets::sha256_hex(&format!("{}|t{id}|a{}", message.id, token.account_id));
    let result = tx::write_with(conn, |conn| -> Result<Outcome, DbError> {
        if q::entry_reply_handled(conn, &key)? {
            return Ok(Outcome::Duplicate);
        }
        let account = accounts::by_id(conn, token.account_id)?;
        let Some(account) = account.filter(|a| ctx.reply.check_entry(token, a.link_generation))
        else {
            tracing::warn!(
                tournament = id,
                "inbound mail with a wrong tournament reply key (forged, edited, or revoked \
                 with the account's tokens): nothing done, nothing sent"
            );
            return Ok(Outcome::Ignored("wrong reply key"));
        };
        let Some(tournament) = tournaments::find(conn, id)? else {
            return Ok(Outcome::Ignored("the reply key names no tournament"));
        };
        if !same_address(from, &account.email) {
            tracing::warn!(
                tournament = id,
                "reply to a tournament announcement from an address that is not the invited \
                 player's: nothing done, nothing sent"
            );
            return Ok(Outcome::Ignored("sender is not the invited player"));
        }
        let lines = written_lines(&message.text());
        let line = lines
            .first()
            .cloned()
            .unwrap_or_else(|| "(an empty reply)".to_owned());
        let outcome = if limits
            .sender_auth
            .passes(&message.authentication_results, from)
        {
            run(conn, account.id, id, &line)?
        } else {
            tracing::warn!(
                tournament = id,
                "reply to a tournament announcement whose sender the trusted mail server did \
                 not authenticate: nothing done, answered to the invited player"
            );
            Err(
                "this reply could not be shown to come from your address: this server acts \
                 only on mail that your mail provider signs (DMARC or DKIM), and the receiving \
                 mail server found no such signature. Nothing in it was done."
                    .to_owned(),
            )
        };
        let answers = tournament_mail::answer_entry_reply(
            conn,
            ctx,
            limits.answers_per_hour,
            &account,
            &EntryAnswer {
                id,
                name: &tournament.name,
                line: &line,
                outcome: outcome.as_deref().map_err(String::as_str),
            },
        )?;
        let said = if outcome.is_ok() { "done" } else { "refused" };
        q::record_entry_reply(conn, &key, (account.id, id), (said, answers), db::now())?;
        Ok(Outcome::Entry {
            tournament_id: id,
            refused: outcome.is_err(),
            answers,
        })
    });
    match result {
        // Another process recorded the same message between our look and our insert.
        Err(error) if error.is_unique_violation() => Ok(Outcome::Duplicate),
        other => other,
    }
}

/// Runs the reply's command `line` for `account_id` in tournament `id`: what was done, or why
/// not (a refusal of the service, or a line that is no command).
fn run(
    conn: &mut DbConnection,
    account_id: i64,
    id: i64,
    line: &str,
) -> Result<Result<String, String>, DbError> {
    let actor = Actor::Account(account_id);
    let done = match EntryCommand::parse(line) {
        EntryCommand::Join => crate::tournaments::join(conn, &actor, id).map(|view| {
            format!(
                "you have entered the tournament \"{}\" (#{id}); {} entered so far. Entries \
                 close at {}; round 1 starts then, and the server mails you your games.",
                view.name,
                turnpost_shared::render::counted(view.entrants.len(), "player has", "players have"),
                view.entry_closes_at,
            )
        }),
        EntryCommand::Withdraw => crate::tournaments::withdraw(conn, &actor, id).map(|view| {
            format!(
                "you have withdrawn from the tournament \"{}\" (#{id}).",
                view.name
            )
        }),
        EntryCommand::Unclear => return Ok(Err(format!("expected {EXPECTED}."))),
    };
    match done {
        Ok(done) => Ok(Ok(done)),
        Err(TournamentError::Storage(error) | TournamentError::Game(GameError::Storage(error))) => {
            Err(error)
        }
        // A concurrent write the locks did not order: roll back and handle the message again.
        Err(TournamentError::Game(GameError::Conflict)) => {
            Err(DbError::Query(diesel::result::Error::RollbackTransaction))
        }
        Err(refused) => Ok(Err(format!("{refused}."))),
    }
}
