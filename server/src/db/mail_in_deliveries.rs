//! The count of replies `mail-in` delivered, by outcome: kept in the database because each
//! `mail-in` is a process of its own that no `/metrics` scrape reaches; every serving process
//! reads the counts when scraped.

use diesel::prelude::*;

use super::schema::mail_in_deliveries;
use super::{DbConnection, DbError};

/// Counts one message `mail-in` delivered with `outcome` (`acted`, `entry`, `ignored`,
/// `duplicate`).
///
/// # Errors
/// Storage failures.
pub fn count(conn: &mut DbConnection, outcome: &str) -> Result<(), DbError> {
    // Update, else insert; two processes inserting the first row at once: one wins, the other
    // adds to it.
    if add_one(conn, outcome)? > 0 {
        return Ok(());
    }
    let inserted = diesel::insert_into(mail_in_deliveries::table)
        .values((
            mail_in_deliveries::outcome.eq(outcome),
            mail_in_deliveries::count.eq(1_i64),
        ))
        .execute(conn)
        .map_err(DbError::from);
    match inserted {
        Err(error) if error.is_unique_violation() => add_one(conn, outcome).map(|_| ()),
        other => other.map(|_| ()),
    }
}

fn add_one(conn: &mut DbConnection, outcome: &str) -> Result<usize, DbError> {
    Ok(diesel::update(mail_in_deliveries::table.find(outcome))
        .set(mail_in_deliveries::count.eq(mail_in_deliveries::count + 1_i64))
        .execute(conn)?)
}

/// Every outcome's count, by outcome.
///
/// # Errors
/// Storage failures.
pub fn counts(conn: &mut DbConnection) -> Result<Vec<(String, i64)>, DbError> {
    Ok(mail_in_deliveries::table
        .select((mail_in_deliveries::outcome, mail_in_deliveries::count))
        .order(mail_in_deliveries::outcome)
        .load(conn)?)
}
