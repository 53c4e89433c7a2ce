//! Copies one table's rows from SQLite to PostgreSQL in batches: SQLite writes each row as a
//! JSON object (`json_object`), PostgreSQL reads a batch of them back into typed columns
//! (`json_populate_recordset` with the table's own row type). One round trip per batch, and no
//! Rust type per table: the catalogs say which columns there are.

use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, RunQueryDsl, SqliteConnection};

use super::catalog::quoted;
use super::CopyError;

/// Rows read and written per batch.
const BATCH_ROWS: i64 = 1_000;

/// A batch is written early once its JSON is this long (mail bodies can be large).
const BATCH_BYTES: usize = 8 * 1024 * 1024;

#[derive(diesel::QueryableByName)]
struct JsonRow {
    #[diesel(sql_type = BigInt)]
    row_key: i64,
    #[diesel(sql_type = Text)]
    row_json: String,
}

/// Copies every row of `table` (its `columns`, named alike on both sides); returns how many.
///
/// # Errors
/// [`CopyError::Query`] from either side; [`CopyError::Schema`] for a strange name.
pub(super) fn copy_table(
    source: &mut SqliteConnection,
    target: &mut PgConnection,
    table: &str,
    columns: &[String],
) -> Result<i64, CopyError> {
    let table_sql = quoted(table)?;
    let mut pairs = Vec::with_capacity(columns.len());
    let mut names = Vec::with_capacity(columns.len());
    for column in columns {
        let name = quoted(column)?;
        pairs.push(format!("'{column}', {name}"));
        names.push(name);
    }
    // In rowid order, from after the last row read: every batch is one indexed range.
    let select = format!(
        "SELECT rowid AS row_key, json_object({}) AS row_json FROM {table_sql} \
         WHERE rowid > ? ORDER BY rowid LIMIT ?",
        pairs.join(", ")
    );
    let names = names.join(", ");
    let insert = format!(
        "INSERT INTO {table_sql} ({names}) SELECT {names} \
         FROM json_populate_recordset(NULL::{table_sql}, $1::json)"
    );
    let mut copied = 0;
    let mut after = i64::MIN;
    let mut batch = String::new();
    loop {
        let rows: Vec<JsonRow> = diesel::sql_query(&select)
            .bind::<BigInt, _>(after)
            .bind::<BigInt, _>(BATCH_ROWS)
            .load(source)?;
        let done = rows.len() < usize::try_from(BATCH_ROWS).unwrap_or(usize::MAX);
        for row in rows {
            after = row.row_key;
            batch.push(if batch.is_empty() { '[' } else { ',' });
            batch.push_str(&row.row_json);
            copied += 1;
            if batch.len() >= BATCH_BYTES {
                write_batch(target, &insert, &mut batch)?;
            }
        }
        if done {
            break;
        }
        write_batch(target, &insert, &mut batch)?;
    }
    write_batch(target, &insert, &mut batch)?;
    Ok(copied)
}

/// Writes the rows gathered in `batch` (a JSON array still open) and empties it.
fn write_batch(
    target: &mut PgConnection,
    insert: &str,
    batch: &mut String,
) -> Result<(), CopyError> {
    if batch.is_empty() {
        return Ok(());
    }
    batch.push(']');
    diesel::sql_query(insert)
        .bind::<Text, _>(batch.as_str())
        .execute(target)?;
    batch.clear();
    Ok(())
}

/// Sets the sequence of `table.column` so the next row gets the id after the largest copied.
///
/// # Errors
/// [`CopyError::Query`]; [`CopyError::Schema`] for a strange name.
pub(super) fn continue_sequence(
    target: &mut PgConnection,
    table: &str,
    column: &str,
) -> Result<(), CopyError> {
    let sql = format!(
        "SELECT setval(pg_get_serial_sequence($1, $2), \
         COALESCE((SELECT MAX({}) FROM {}), 0) + 1, false)",
        quoted(column)?,
        quoted(table)?
    );
    diesel::sql_query(sql)
        .bind::<Text, _>(table)
        .bind::<Text, _>(column)
        .execute(target)?;
    Ok(())
}

/// How many rows `table` has on SQLite.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn sqlite_count(conn: &mut SqliteConnection, table: &str) -> Result<i64, CopyError> {
    let sql = format!("SELECT COUNT(*) AS n FROM {}", quoted(table)?);
    let count: super::catalog::Count = diesel::sql_query(sql).get_result(conn)?;
    Ok(count.n)
}

/// How many rows `table` has on PostgreSQL.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn pg_count(conn: &mut PgConnection, table: &str) -> Result<i64, CopyError> {
    let sql = format!("SELECT COUNT(*) AS n FROM {}", quoted(table)?);
    let count: super::catalog::Count = diesel::sql_query(sql).get_result(conn)?;
    Ok(count.n)
}

/// How many rows `table` has on PostgreSQL besides those matching `seed` (the migrations' own).
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn pg_count_beyond_seed(
    conn: &mut PgConnection,
    table: &str,
    seed: Option<&str>,
) -> Result<i64, CopyError> {
    let mut sql = format!("SELECT COUNT(*) AS n FROM {}", quoted(table)?);
    if let Some(seed) = seed {
        sql.push_str(&format!(" WHERE NOT ({seed})"));
    }
    let count: super::catalog::Count = diesel::sql_query(sql).get_result(conn)?;
    Ok(count.n)
}

/// Deletes every row of `table` on PostgreSQL.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn delete_all(conn: &mut PgConnection, table: &str) -> Result<(), CopyError> {
    diesel::sql_query(format!("DELETE FROM {}", quoted(table)?)).execute(conn)?;
    Ok(())
}
