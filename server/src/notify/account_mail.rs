//! Account mail: the one-time sign-in code, and the notice to a verified address that someone
//! tried to sign up with it. Queued on the caller's connection, inside the account operation's
//! transaction (`crate::accounts`); bots have no mailbox and get none.

use crate::db::accounts::Account;
use crate::db::{DbConnection, DbError};
use crate::mail::{self, MailLane};
use crate::mail_context::MailContext;
use crate::notify::compose;

/// Queues the mail carrying `code` (valid `minutes`) to `account`.
///
/// # Errors
/// Storage failures.
pub fn sign_in_code(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account: &Account,
    code: &str,
    link: &str,
    minutes: i64,
) -> Result<(), DbError> {
    if account.is_bot() {
        return Ok(());
    }
    let mail = compose::sign_in_code(
        &account.email,
        &account.name,
        code,
        link,
        minutes,
        &ctx.public_url,
    );
    mail::enqueue_in(conn, &ctx.message_id_domain, &mail, MailLane::Account)?;
    Ok(())
}

/// Does what [`sign_in_code`] does for an address with no account (or a bot's), and sends
/// nothing: composes the same mail to `email` and writes and deletes its outbox row in the
/// caller's transaction, so the request takes as long as one for a known address.
///
/// # Errors
/// Storage failures.
pub fn sign_in_decoy(
    conn: &mut DbConnection,
    ctx: &MailContext,
    email: &str,
    code: &str,
    link: &str,
    minutes: i64,
) -> Result<(), DbError> {
    let mail = compose::sign_in_code(email, "there", code, link, minutes, &ctx.public_url);
    mail::enqueue_account_mail_and_discard(conn, &ctx.message_id_domain, &mail)?;
    Ok(())
}

/// Queues the notice that someone tried to sign up with `account`'s (verified) address.
///
/// # Errors
/// Storage failures.
pub fn sign_up_attempt(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account: &Account,
) -> Result<(), DbError> {
    if account.is_bot() {
        return Ok(());
    }
    let mail = compose::sign_up_attempt(&account.email, &account.name, &ctx.public_url);
    mail::enqueue_in(conn, &ctx.message_id_domain, &mail, MailLane::Account)?;
    Ok(())
}
