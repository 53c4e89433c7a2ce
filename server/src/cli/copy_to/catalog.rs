//! What the two databases hold: their tables, each table's columns, the order the foreign keys
//! ask for, and the PostgreSQL columns a sequence numbers. Read from each backend's own catalog,
//! so a table added by a migration is copied without a line here.

use std::collections::{BTreeMap, BTreeSet};

use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, RunQueryDsl, SqliteConnection};

use super::CopyError;

/// The table diesel keeps its migration versions in: each side migrates itself.
const MIGRATIONS_TABLE: &str = "__diesel_schema_migrations";

#[derive(diesel::QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(diesel::QueryableByName)]
struct Edge {
    #[diesel(sql_type = Text)]
    child: String,
    #[diesel(sql_type = Text)]
    parent: String,
}

#[derive(diesel::QueryableByName)]
pub(super) struct Count {
    #[diesel(sql_type = BigInt)]
    pub(super) n: i64,
}

/// `name` in double quotes, once it is known to be a plain identifier (the catalogs name our
/// own tables; anything else is refused rather than spliced into SQL).
///
/// # Errors
/// [`CopyError::Schema`] for a name that is not lower-case letters, digits and `_`.
pub(super) fn quoted(name: &str) -> Result<String, CopyError> {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        Ok(format!("\"{name}\""))
    } else {
        Err(CopyError::Schema(format!(
            "unexpected table or column name {name:?}"
        )))
    }
}

/// The tables of the SQLite database, by name.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn sqlite_tables(conn: &mut SqliteConnection) -> Result<BTreeSet<String>, CopyError> {
    let names: Vec<Name> = diesel::sql_query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> ? ORDER BY name",
    )
    .bind::<Text, _>(MIGRATIONS_TABLE)
    .load(conn)?;
    Ok(names.into_iter().map(|n| n.name).collect())
}

/// The columns of an SQLite table, in order.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn sqlite_columns(
    conn: &mut SqliteConnection,
    table: &str,
) -> Result<Vec<String>, CopyError> {
    let names: Vec<Name> = diesel::sql_query("SELECT name FROM pragma_table_info(?) ORDER BY cid")
        .bind::<Text, _>(table)
        .load(conn)?;
    Ok(names.into_iter().map(|n| n.name).collect())
}

/// The tables of the PostgreSQL database's current schema, by name.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn pg_tables(conn: &mut PgConnection) -> Result<BTreeSet<String>, CopyError> {
    let names: Vec<Name> = diesel::sql_query(
        "SELECT table_name::text AS name FROM information_schema.tables \
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
         AND table_name <> $1 ORDER BY table_name",
    )
    .bind::<Text, _>(MIGRATIONS_TABLE)
    .load(conn)?;
    Ok(names.into_iter().map(|n| n.name).collect())
}

/// The columns of a PostgreSQL table, in order.
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn pg_columns(conn: &mut PgConnection, table: &str) -> Result<Vec<String>, CopyError> {
    let names: Vec<Name> = diesel::sql_query(
        "SELECT column_name::text AS name FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind::<Text, _>(table)
    .load(conn)?;
    Ok(names.into_iter().map(|n| n.name).collect())
}

/// `tables` ordered so that every table comes after the tables its foreign keys name (the
/// copy inserts in this order, so each row's references already exist).
///
/// # Errors
/// [`CopyError::Query`]; [`CopyError::Schema`] for a cycle of foreign keys.
pub(super) fn insert_order(
    conn: &mut PgConnection,
    tables: &BTreeSet<String>,
) -> Result<Vec<String>, CopyError> {
    let edges: Vec<Edge> = diesel::sql_query(
        "SELECT ch.relname::text AS child, pa.relname::text AS parent FROM pg_constraint c \
         JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid \
         JOIN pg_namespace n ON n.oid = ch.relnamespace \
         WHERE c.contype = 'f' AND n.nspname = current_schema()",
    )
    .load(conn)?;
    let mut parents: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in &edges {
        if edge.child != edge.parent {
            parents
                .entry(edge.child.as_str())
                .or_default()
                .insert(edge.parent.as_str());
        }
    }
    let mut order: Vec<String> = Vec::with_capacity(tables.len());
    let mut left: BTreeSet<&str> = tables.iter().map(String::as_str).collect();
    while !left.is_empty() {
        let ready: Vec<&str> = left
            .iter()
            .copied()
            .filter(|table| {
                parents
                    .get(table)
                    .is_none_or(|ps| ps.iter().all(|p| !left.contains(p)))
            })
            .collect();
        if ready.is_empty() {
            return Err(CopyError::Schema(format!(
                "the foreign keys of {left:?} form a cycle"
            )));
        }
        for table in ready {
            left.remove(table);
            order.push(table.to_owned());
        }
    }
    Ok(order)
}

/// Every PostgreSQL column a sequence numbers (`BIGSERIAL`), as (table, column).
///
/// # Errors
/// [`CopyError::Query`].
pub(super) fn pg_sequenced_columns(
    conn: &mut PgConnection,
) -> Result<Vec<(String, String)>, CopyError> {
    #[derive(diesel::QueryableByName)]
    struct Column {
        #[diesel(sql_type = Text)]
        table_name: String,
        #[diesel(sql_type = Text)]
        column_name: String,
    }
    let columns: Vec<Column> = diesel::sql_query(
        "SELECT table_name::text AS table_name, column_name::text AS column_name \
         FROM information_schema.columns WHERE table_schema = current_schema() \
         AND (column_default LIKE 'nextval(%' OR is_identity = 'YES') \
         ORDER BY table_name, column_name",
    )
    .load(conn)?;
    Ok(columns
        .into_iter()
        .map(|c| (c.table_name, c.column_name))
        .collect())
}
