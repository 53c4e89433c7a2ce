//! What `turnpost-server mail list` and `mail retry` do: the outbox as an operator sees it.

use std::fmt::Write as _;

use crate::db::outbox::OutboxMail;
use crate::db::outbox::{self, OutboxStatus, Retry};
use crate::db::{self, DbConnection, DbError};

/// The rows with `status` (all when None) as a table: a header line, then one tab-separated
/// line per mail, oldest first.
///
/// # Errors
/// [`DbError`] if the outbox cannot be read.
pub fn list(conn: &mut DbConnection, status: Option<OutboxStatus>) -> Result<String, DbError> {
    let rows = outbox::with_status(conn, status)?;
    let mut table = String::from(
        "id\tstatus\tattempts\tqueued\tnext attempt\trecipient\tsubject\tlast error\n",
    );
    for row in &rows {
        table.push_str(&line(row));
    }
    Ok(table)
}

fn line(row: &OutboxMail) -> String {
    let mut line = String::new();
    let next = if row.status == OutboxStatus::Pending {
        row.next_attempt_at.format("%Y-%m-%d %H:%M:%S").to_string()
    } else {
        "-".to_owned()
    };
    // Writing to a String cannot fail.
    let _ = writeln!(
        line,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        row.id,
        row.status,
        row.attempts,
        row.created_at.format("%Y-%m-%d %H:%M:%S"),
        next,
        one_line(&row.recipient),
        one_line(&row.subject),
        one_line(row.last_error.as_deref().unwrap_or("-")),
    );
    line
}

/// Text on one line of the table: tabs, line breaks and other control characters shown as
/// spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Which mail `mail retry` queues again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryTarget {
    /// One mail by id.
    One(i64),
    /// Every dead-lettered mail.
    AllDead,
}

/// A refused `mail retry`.
#[derive(Debug, thiserror::Error)]
pub enum RetryError {
    /// No mail has this id.
    #[error("no mail with id {0} in the outbox (see `turnpost-server mail list`)")]
    NotFound(i64),
    /// The mail was delivered already.
    #[error("mail {0} was delivered already; it is not sent again")]
    AlreadySent(i64),
    /// Storage failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Queues `target` again; returns how many mails are due now.
///
/// # Errors
/// [`RetryError`] saying why nothing was queued.
pub fn retry(conn: &mut DbConnection, target: RetryTarget) -> Result<usize, RetryError> {
    match target {
        RetryTarget::AllDead => Ok(outbox::retry_all_dead(conn, db::now())?),
        RetryTarget::One(id) => match outbox::retry(conn, id, db::now())? {
            Retry::Queued => Ok(1),
            Retry::NotFound => Err(RetryError::NotFound(id)),
            Retry::AlreadySent => Err(RetryError::AlreadySent(id)),
        },
    }
}
