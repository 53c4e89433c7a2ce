//! Queries for mail in: the record of each inbound message that acted (exactly once), replies
//! to games and to tournament announcements each in their own table, and the count of answers
//! per account over both (the answer limit).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{inbound_mail, inbound_tournament_mail};
use super::{DbConnection, DbError};

/// Whether the message with `message_key` was handled already.
///
/// # Errors
/// Storage failures.
pub fn handled(conn: &mut DbConnection, message_key: &str) -> Result<bool, DbError> {
    Ok(
        diesel::select(diesel::dsl::exists(inbound_mail::table.find(message_key)))
            .get_result(conn)?,
    )
}

/// Records the message with `message_key` as handled for `account_id` in `game_id`.
///
/// # Errors
/// A unique violation when another process recorded it first (its transaction must roll back);
/// storage failures.
pub fn record(
    conn: &mut DbConnection,
    message_key: &str,
    account_id: i64,
    game_id: i64,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(inbound_mail::table)
        .values((
            inbound_mail::message_key.eq(message_key),
            inbound_mail::account_id.eq(account_id),
            inbound_mail::game_id.eq(game_id),
            inbound_mail::outcome.eq(""),
            inbound_mail::answers.eq(0),
            inbound_mail::handled_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Writes what the handled message did and how many answers it sent.
///
/// # Errors
/// Storage failures.
pub fn finish(
    conn: &mut DbConnection,
    message_key: &str,
    outcome: &str,
    answers: i32,
) -> Result<(), DbError> {
    diesel::update(inbound_mail::table.find(message_key))
        .set((
            inbound_mail::outcome.eq(outcome),
            inbound_mail::answers.eq(answers),
        ))
        .execute(conn)?;
    Ok(())
}

/// Answers sent to `account_id` for messages handled since `since`.
///
/// # Errors
/// Storage failures.
pub fn answers_since(
    conn: &mut DbConnection,
    account_id: i64,
    since: NaiveDateTime,
) -> Result<i64, DbError> {
    let mut counts: Vec<i32> = inbound_mail::table
        .filter(inbound_mail::account_id.eq(account_id))
        .filter(inbound_mail::handled_at.ge(since))
        .select(inbound_mail::answers)
        .load(conn)?;
    counts.extend(
        inbound_tournament_mail::table
            .filter(inbound_tournament_mail::account_id.eq(account_id))
            .filter(inbound_tournament_mail::handled_at.ge(since))
            .select(inbound_tournament_mail::answers)
            .load::<i32>(conn)?,
    );
    Ok(counts.into_iter().map(i64::from).sum())
}

/// Whether the reply to a tournament announcement with `message_key` was handled already.
///
/// # Errors
/// Storage failures.
pub fn entry_reply_handled(conn: &mut DbConnection, message_key: &str) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        inbound_tournament_mail::table.find(message_key),
    ))
    .get_result(conn)?)
}

/// Records the reply with `message_key` to tournament `tournament_id`'s announcement as
/// handled for `account_id`, with its outcome and the answers sent.
///
/// # Errors
/// A unique violation when another process recorded it first (its transaction must roll back);
/// storage failures.
pub fn record_entry_reply(
    conn: &mut DbConnection,
    message_key: &str,
    (account_id, tournament_id): (i64, i64),
    (outcome, answers): (&str, i32),
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(inbound_tournament_mail::table)
        .values((
            inbound_tournament_mail::message_key.eq(message_key),
            inbound_tournament_mail::account_id.eq(account_id),
            inbound_tournament_mail::tournament_id.eq(tournament_id),
            inbound_tournament_mail::outcome.eq(outcome),
            inbound_tournament_mail::answers.eq(answers),
            inbound_tournament_mail::handled_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}
