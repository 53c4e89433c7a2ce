//! Vacuuming the two queue tables when dead rows pile up in them. Every composed game event is
//! deleted and every delivered mail updated, so a burst of moves leaves tens of thousands of
//! dead rows at the head of their indexes, and autovacuum (which visits a database about once
//! a minute) comes too late: the claim's and the composer's `NOT EXISTS` read through them all.
//! Measured on the load benchmark's database 10 s after a 30 s burst: claiming four mails took
//! 8.6 ms with 19 000 dead outbox rows, 0.28 ms after a `VACUUM` (and its statistics turned the
//! plan to the recipient index). PostgreSQL only; SQLite reuses freed space as it goes.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use super::{DbConnection, DbError};

/// The queue tables: rows come and go at the rate of moves.
pub const QUEUE_TABLES: [&str; 2] = ["mail_outbox", "game_events"];

/// Dead rows in a queue table that make it worth a vacuum. Each claim reads through the dead
/// entries at the head of the pending index, so its cost grows with them: with 5 000 (and a
/// vacuum every few seconds under load) a claim averaged 3.1 ms of the database's time
/// during an open-loop run of 600 moves a second, three times the mail's own CPU. A vacuum
/// without ANALYZE of the queue tables costs tens of milliseconds.
pub const DEAD_ROWS_WORTH_A_VACUUM: i64 = 1_000;

#[derive(QueryableByName)]
struct DeadRows {
    #[diesel(sql_type = BigInt)]
    dead: i64,
}

/// Vacuums each queue table with at least [`DEAD_ROWS_WORTH_A_VACUUM`] dead rows by
/// PostgreSQL's statistics; a table another vacuum holds is skipped. No ANALYZE: it was most of
/// the vacuum's time (300–400 ms a run), and the claim's plan no longer depends on fresh
/// statistics (`DUE_IDS_SQL`); autovacuum still analyzes the tables as they change. No
/// truncation either (the tables' `vacuum_truncate` is off too, for autovacuum): a queue
/// table's last pages are empty whenever it has caught up, and truncating them takes an
/// exclusive lock that every move (recording its game event) waits for, and that the vacuum
/// waited up to five seconds to get (1.8–2.7 s a vacuum of `game_events` under load).
/// Returns the tables vacuumed (none on SQLite). Must run outside a transaction (`VACUUM`
/// cannot run in one).
///
/// # Errors
/// [`DbError::Query`], e.g. when the role may not vacuum the table (not its owner).
pub fn vacuum_queues(conn: &mut DbConnection) -> Result<Vec<&'static str>, DbError> {
    let DbConnection::Pg(pg) = conn else {
        return Ok(Vec::new());
    };
    let mut vacuumed = Vec::new();
    for table in QUEUE_TABLES {
        let dead = diesel::sql_query(
            "SELECT COALESCE(n_dead_tup, 0) AS dead FROM pg_stat_user_tables \
             WHERE relname = $1 AND schemaname = current_schema()",
        )
        .bind::<Text, _>(table)
        .get_result::<DeadRows>(pg)
        .optional()?
        .map_or(0, |row| row.dead);
        if dead >= DEAD_ROWS_WORTH_A_VACUUM {
            // The name is one of the constants above, never input.
            diesel::sql_query(format!("VACUUM (SKIP_LOCKED, TRUNCATE false) {table}"))
                .execute(pg)?;
            vacuumed.push(table);
        }
    }
    Ok(vacuumed)
}
