//! Account operations, each one database transaction: sign-up, sign-in codes, verification,
//! tokens. Shared by the HTTP routes and the operator commands.

use chrono::{Duration, NaiveDateTime};

use crate::db::accounts::NewAccount;
use crate::db::codes::NewSignInCode;
use crate::db::tokens::NewApiToken;
use crate::db::transaction;
use crate::db::{self, accounts, codes, tokens, DbConnection, DbError};
use crate::notify;
use crate::secrets;
use crate::validate::{AccountName, EmailAddress};

// The rows these operations hand out, for callers that hold no queries of their own (pages).
pub use crate::db::accounts::Account;
pub use crate::db::tokens::ApiToken;

/// How long a one-time code is valid.
pub const CODE_VALIDITY_MINUTES: i64 = 15;
/// How many guesses one code allows.
pub const CODE_MAX_ATTEMPTS: i32 = 5;
/// Characters of the secret in a sign-in link (lower-case letters and digits: 165 bits).
pub const SIGN_IN_LINK_LENGTH: usize = 32;
/// The path of a sign-in link, before its secret. The link is valid as long as the code it was
/// mailed with ([`CODE_VALIDITY_MINUTES`]) and, like the code, signs in once.
pub const SIGN_IN_LINK_PATH: &str = "/signin/link/";

pub use crate::mail_context::MailContext;

/// Why an account operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// Sign-up with a name another account holds.
    #[error("this name is taken; choose another")]
    NameTaken,
    /// The operator creates an account whose name another account holds.
    #[error("an account with this name exists")]
    NameExists,
    /// The operator creates an account whose email another account holds.
    #[error("an account with this email exists")]
    EmailExists,
    /// No live code for this email (none asked for, expired, used, or no such account).
    #[error("no valid code for this email; ask for one with POST /v1/sessions")]
    NoCode,
    /// A sign-in link that is unknown, used, superseded by a newer code, locked or expired.
    #[error(
        "this sign-in link is not valid any more (each link signs in once, within {CODE_VALIDITY_MINUTES} minutes); ask for a new one"
    )]
    NoLink,
    /// The code took its last wrong guess earlier.
    #[error(
        "too many wrong guesses: this code is locked; ask for a new one with POST /v1/sessions"
    )]
    CodeLocked,
    /// A wrong code, with guesses left.
    #[error("wrong code; {} before it locks", attempts_left(*.left))]
    WrongCode {
        /// Guesses left before the code locks.
        left: i32,
    },
    /// A wrong code that was the last guess: the code is now locked.
    #[error(
        "wrong code; that was the last attempt and this code is now locked; ask for a new one"
    )]
    LastAttempt,
    /// No account with this name.
    #[error("no account named {name}")]
    NoSuchAccount {
        /// The name asked for.
        name: String,
    },
    /// A built-in bot: it has no tokens.
    #[error("{name} is a built-in bot; it has no tokens")]
    BotAccount {
        /// The bot's name.
        name: String,
    },
    /// A concurrent request changed the same rows (a unique key held where no lock did).
    #[error("a concurrent request changed the same data; read it again and retry")]
    Conflict,
    /// Storage failed.
    #[error(transparent)]
    Storage(DbError),
}

/// The row of a new account named `name` at `email`, created `now`.
fn new_account<'a>(
    name: &'a AccountName,
    email: &'a EmailAddress,
    verified_at: Option<NaiveDateTime>,
    now: NaiveDateTime,
) -> NewAccount<'a> {
    NewAccount {
        name: &name.name,
        name_key: &name.key,
        email: &email.email,
        email_key: &email.key,
        verified_at,
        created_at: now,
    }
}

/// "1 more attempt", "3 more attempts".
fn attempts_left(left: i32) -> String {
    match left {
        1 => "1 more attempt".to_owned(),
        n => format!("{n} more attempts"),
    }
}

crate::db::conflict_or_storage!(AccountError);

/// Whether an unverified account can be replaced: no live code remains for it.
fn is_stale(
    conn: &mut DbConnection,
    account: &Account,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    Ok(account.verified_at.is_none()
        && codes::latest_expiry(conn, account.id)?.is_none_or(|t| t <= now))
}

/// Sign-up: creates an unverified account and queues a code to its email. Repeating the same
/// name and email while unverified sends a fresh code; an unverified account whose codes all
/// expired no longer holds its name.
///
/// The answer never tells whether an address has an account: for the address of a verified
/// account nothing is created and its owner gets a mail saying someone tried to sign up with
/// it. A pending sign-up holds its address for nobody: a new sign-up with that address
/// replaces it (only the address's owner can read the code), so a stranger's sign-up with
/// somebody else's address cannot block the owner's own.
///
/// # Errors
/// [`AccountError::NameTaken`]; storage failures.
pub fn sign_up(
    conn: &mut DbConnection,
    name: &AccountName,
    email: &EmailAddress,
    ctx: &MailContext,
) -> Result<(), AccountError> {
    transaction::write_with(conn, |conn| -> Result<(), AccountError> {
        accounts::lock_sign_ups(conn)?;
        let now = db::now();
        let by_name = accounts::by_name_key(conn, &name.key)?;
        let by_email = accounts::by_email_key(conn, &email.key)?;
        if let (Some(a), Some(b)) = (&by_name, &by_email) {
            if a.id == b.id && a.verified_at.is_none() {
                issue_code(conn, a, ctx)?;
                return Ok(());
            }
        }
        if let Some(a) = by_name {
            if !is_stale(conn, &a, now)? {
                return Err(AccountError::NameTaken);
            }
            accounts::delete(conn, a.id)?;
        }
        if let Some(b) = by_email {
            // A bot's address receives nothing; the answer stays the same.
            if b.is_bot() {
                return Ok(());
            }
            if b.verified_at.is_some() {
                notify::sign_up_attempt(conn, ctx, &b)?;
                return Ok(());
            }
            accounts::delete(conn, b.id)?;
        }
        let account = accounts::insert(conn, &new_account(name, email, None, now))?;
        issue_code(conn, &account, ctx)?;
        Ok(())
    })?;
    ctx.wake.notify_one();
    Ok(())
}

/// Sign-in: queues a code if an account has this email; sends nothing otherwise. Neither the
/// answer nor its timing tells whether the address has an account: for an unknown address
/// (or a bot's) the request does the same work as for a known one — a code and link drawn
/// and hashed, the same mail composed, its outbox row written and deleted again in the same
/// transaction, the worker woken — so both take as long (measured by
/// `benches/sign_in_timing.rs`) and no mail leaves for an address without an account.
///
/// # Errors
/// Storage failures.
pub fn sign_in(
    conn: &mut DbConnection,
    email: &EmailAddress,
    ctx: &MailContext,
) -> Result<(), AccountError> {
    transaction::write_with(conn, |conn| -> Result<(), AccountError> {
        // Bots cannot sign in: no code is issued, and the answer is the same as for no account.
        match accounts::by_email_key(conn, &email.key)?.filter(|a| !a.is_bot()) {
            Some(account) => issue_code(conn, &account, ctx)?,
            None => issue_decoy(conn, email, ctx)?,
        }
        Ok(())
    })?;
    ctx.wake.notify_one();
    Ok(())
}

/// The account id no account has (ids start at 1): the decoy's queries match no row.
const NO_ACCOUNT: i64 = 0;

/// A new code and sign-in link for `account_id`, its open codes retired first: the start that
/// [`issue_code`] and [`issue_decoy`] share, so that the decoy does the same work.
fn fresh_code(
    conn: &mut DbConnection,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<(String, String), DbError> {
    codes::retire_open(conn, account_id, now)?;
    let code = secrets::new_code();
    let link = secrets::random_string(SIGN_IN_LINK_LENGTH, secrets::LOWER_ALNUM);
    Ok((code, link))
}

/// The address of the sign-in link `link`.
fn sign_in_url(ctx: &MailContext, link: &str) -> String {
    format!(
        "{}{SIGN_IN_LINK_PATH}{link}",
        ctx.public_url.trim_end_matches('/')
    )
}

/// What [`issue_code`] does, for an address without an account, leaving nothing behind: the
/// same queries (matching no row, or undone in the transaction) and the same hashing.
fn issue_decoy(
    conn: &mut DbConnection,
    email: &EmailAddress,
    ctx: &MailContext,
) -> Result<(), DbError> {
    let now = db::now();
    let (code, link) = fresh_code(conn, NO_ACCOUNT, now)?;
    // The real code's row, hashed alike, written and undone (see `codes::insert_undone`).
    codes::insert_undone(
        conn,
        &NewSignInCode {
            account_id: NO_ACCOUNT,
            code_hash: &secrets::code_hash(NO_ACCOUNT, &code),
            expires_at: now + Duration::minutes(CODE_VALIDITY_MINUTES),
            created_at: now,
            link_hash: Some(&secrets::sha256_hex(&link)),
        },
    )?;
    let link_url = sign_in_url(ctx, &link);
    notify::sign_in_decoy(
        conn,
        ctx,
        &email.email,
        &code,
        &link_url,
        CODE_VALIDITY_MINUTES,
    )?;
    Ok(())
}

fn issue_code(
    conn: &mut DbConnection,
    account: &Account,
    ctx: &MailContext,
) -> Result<(), DbError> {
    let now = db::now();
    let (code, link) = fresh_code(conn, account.id, now)?;
    codes::insert(
        conn,
        &NewSignInCode {
            account_id: account.id,
            code_hash: &secrets::code_hash(account.id, &code),
            expires_at: now + Duration::minutes(CODE_VALIDITY_MINUTES),
            created_at: now,
            link_hash: Some(&secrets::sha256_hex(&link)),
        },
    )?;
    let link_url = sign_in_url(ctx, &link);
    notify::sign_in_code(conn, ctx, account, &code, &link_url, CODE_VALIDITY_MINUTES)?;
    Ok(())
}

enum VerifyOutcome<T> {
    Granted(Box<(T, Account)>),
    Wrong { left: i32 },
}

/// Verify: trades a code for a new token (and marks the email verified). Each guess counts; the
/// fifth wrong guess locks the code.
///
/// # Errors
/// [`AccountError::NoCode`] (no live code), [`AccountError::WrongCode`],
/// [`AccountError::CodeLocked`], [`AccountError::LastAttempt`]; storage failures.
pub fn verify(
    conn: &mut DbConnection,
    email: &EmailAddress,
    typed_code: &str,
    label: &str,
) -> Result<(String, ApiToken, Account), AccountError> {
    let ((secret, token), account) = verify_with(conn, email, typed_code, |conn, account| {
        insert_token(conn, account.id, label)
    })?;
    Ok((secret, token, account))
}

/// Verify, granting what `grant` makes for the account (an API token, a browser session) in
/// the same transaction that uses the code: a code grants one thing once.
///
/// # Errors
/// As [`verify`]; `grant`'s storage failures.
pub fn verify_with<T>(
    conn: &mut DbConnection,
    email: &EmailAddress,
    typed_code: &str,
    grant: impl FnOnce(&mut DbConnection, &Account) -> Result<T, DbError>,
) -> Result<(T, Account), AccountError> {
    let outcome =
        transaction::write_with(conn, |conn| -> Result<VerifyOutcome<T>, AccountError> {
            let now = db::now();
            let account = accounts::by_email_key(conn, &email.key)?
                .filter(|a| !a.is_bot())
                .ok_or(AccountError::NoCode)?;
            let code = codes::current(conn, account.id, now)?.ok_or(AccountError::NoCode)?;
            if code.attempts >= CODE_MAX_ATTEMPTS
                || !codes::add_attempt(conn, code.id, CODE_MAX_ATTEMPTS)?
            {
                return Err(AccountError::CodeLocked);
            }
            let typed_hash = secrets::code_hash(account.id, &secrets::normalize_code(typed_code));
            if !secrets::constant_time_eq(&typed_hash, &code.code_hash) {
                return Ok(VerifyOutcome::Wrong {
                    left: CODE_MAX_ATTEMPTS - code.attempts - 1,
                });
            }
            if !codes::mark_used(conn, code.id, now)? {
                return Err(AccountError::NoCode);
            }
            accounts::mark_verified(conn, account.id, now)?;
            let granted = grant(conn, &account)?;
            let account = accounts::by_id(conn, account.id)?.unwrap_or(account);
            Ok(VerifyOutcome::Granted(Box::new((granted, account))))
        })?;
    match outcome {
        VerifyOutcome::Granted(granted) => Ok(*granted),
        VerifyOutcome::Wrong { left } if left > 0 => Err(AccountError::WrongCode { left }),
        VerifyOutcome::Wrong { .. } => Err(AccountError::LastAttempt),
    }
}

/// Follows the sign-in link of a code mail: uses the code (the link and the code sign in once,
/// together) and grants what `grant` makes, in one transaction.
///
/// # Errors
/// [`AccountError::NoLink`] for an unknown, used, superseded, locked or expired link; `grant`'s
/// storage failures.
pub fn verify_link<T>(
    conn: &mut DbConnection,
    link: &str,
    grant: impl FnOnce(&mut DbConnection, &Account) -> Result<T, DbError>,
) -> Result<(T, Account), AccountError> {
    if link.len() != SIGN_IN_LINK_LENGTH {
        return Err(AccountError::NoLink);
    }
    let link_hash = secrets::sha256_hex(link);
    transaction::write_with(conn, |conn| -> Result<(T, Account), AccountError> {
        let now = db::now();
        let code = codes::by_link_hash(conn, &link_hash, now, CODE_MAX_ATTEMPTS)?
            .ok_or(AccountError::NoLink)?;
        let account = accounts::by_id(conn, code.account_id)?
            .filter(|a| !a.is_bot())
            .ok_or(AccountError::NoLink)?;
        if !codes::mark_used(conn, code.id, now)? {
            return Err(AccountError::NoLink);
        }
        accounts::mark_verified(conn, account.id, now)?;
        let granted = grant(conn, &account)?;
        let account = accounts::by_id(conn, account.id)?.unwrap_or(account);
        Ok((granted, account))
    })
}

fn insert_token(
    conn: &mut DbConnection,
    account_id: i64,
    label: &str,
) -> Result<(String, ApiToken), DbError> {
    let secret = secrets::new_token();
    let token = tokens::insert(
        conn,
        &NewApiToken {
            account_id,
            token_hash: &secrets::sha256_hex(&secret),
            label,
            created_at: db::now(),
        },
    )?;
    Ok((secret, token))
}

/// Operator: creates a verified account and a token for it, without mail.
///
/// # Errors
/// [`AccountError::NameExists`] / [`AccountError::EmailExists`] (unless held only by a stale
/// unverified sign-up); storage failures.
pub fn create_verified(
    conn: &mut DbConnection,
    name: &AccountName,
    email: &EmailAddress,
    label: &str,
) -> Result<(String, ApiToken, Account), AccountError> {
    transaction::write_with(conn, |conn| {
        let now = db::now();
        for existing in [
            accounts::by_name_key(conn, &name.key)?,
            accounts::by_email_key(conn, &email.key)?,
        ]
        .into_iter()
        .flatten()
        {
            if !is_stale(conn, &existing, now)? {
                return Err(if existing.name_key == name.key {
                    AccountError::NameExists
                } else {
                    AccountError::EmailExists
                });
            }
            accounts::delete(conn, existing.id)?;
        }
        let account = accounts::insert(conn, &new_account(name, email, Some(now), now))?;
        let (secret, token) = insert_token(conn, account.id, label)?;
        Ok((secret, token, account))
    })
}

/// Operator: another token for the account with this name.
///
/// # Errors
/// [`AccountError::NoSuchAccount`], [`AccountError::BotAccount`]; storage failures.
pub fn issue_token_for_name(
    conn: &mut DbConnection,
    name_key: &str,
    label: &str,
) -> Result<(String, ApiToken, Account), AccountError> {
    transaction::write_with(conn, |conn| {
        let account =
            accounts::by_name_key(conn, name_key)?.ok_or_else(|| AccountError::NoSuchAccount {
                name: name_key.to_owned(),
            })?;
        if account.is_bot() {
            return Err(AccountError::BotAccount {
                name: name_key.to_owned(),
            });
        }
        let now = db::now();
        accounts::mark_verified(conn, account.id, now)?;
        let (secret, token) = insert_token(conn, account.id, label)?;
        Ok((secret, token, account))
    })
}

/// The account's API tokens, oldest first.
///
/// # Errors
/// Storage failures.
pub fn tokens_of(conn: &mut DbConnection, account_id: i64) -> Result<Vec<ApiToken>, DbError> {
    tokens::list(conn, account_id)
}

/// Revokes one of the account's API tokens (and with it the play links issued so far); false
/// if the account has no such token.
///
/// # Errors
/// Storage failures.
pub fn revoke_token(
    conn: &mut DbConnection,
    account_id: i64,
    token_id: i64,
) -> Result<bool, DbError> {
    tokens::delete(conn, account_id, token_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_left_are_counted_in_words() {
        assert_eq!(
            AccountError::WrongCode { left: 1 }.to_string(),
            "wrong code; 1 more attempt before it locks"
        );
        assert_eq!(
            AccountError::WrongCode { left: 3 }.to_string(),
            "wrong code; 3 more attempts before it locks"
        );
    }
}
