//! Migrations: up → down → up on both backends, and `schema.rs` matches what the migrations
//! create (table by table, column by column: name, type, nullability).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::collections::BTreeMap;

use common::{Backend, TestDb};
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};
use turnpost_server::db::{self, DbConnection};

both_backends!(migrations_go_up_down_up, schema_matches_migrations);

#[derive(QueryableByName, Debug)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Integer)]
    nullable: i32,
}

/// table → column → (type, nullable) as the database has them.
fn database_columns(conn: &mut DbConnection) -> BTreeMap<String, BTreeMap<String, (String, bool)>> {
    let rows: Vec<ColumnRow> = match conn {
        DbConnection::Pg(pg) => diesel::sql_query(
            "SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type, \
             CASE WHEN is_nullable = 'YES' THEN 1 ELSE 0 END AS nullable \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name NOT LIKE '__diesel%' ORDER BY table_name, ordinal_position",
        )
        .load(pg)
        .unwrap(),
        DbConnection::Sqlite(sqlite) => diesel::sql_query(
            "SELECT m.name AS table_name, p.name AS column_name, p.type AS data_type, \
             CASE WHEN p.\"notnull\" = 0 AND p.pk = 0 THEN 1 ELSE 0 END AS nullable \
             FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '__diesel%' \
             ORDER BY m.name, p.cid",
        )
        .load(sqlite)
        .unwrap(),
    };
    let mut tables: BTreeMap<String, BTreeMap<String, (String, bool)>> = BTreeMap::new();
    for r in rows {
        tables
            .entry(r.table_name)
            .or_default()
            .insert(r.column_name, (r.data_type.to_lowercase(), r.nullable == 1));
    }
    tables
}

/// table → column → (diesel type, nullable) as `schema.rs` declares them.
fn declared_columns() -> BTreeMap<String, BTreeMap<String, (String, bool)>> {
    let source = include_str!("../src/db/schema.rs");
    let mut tables: BTreeMap<String, BTreeMap<String, (String, bool)>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if line.starts_with("diesel::table!") || line.is_empty() || line.starts_with("//") {
            continue;
        }
        if let Some((name, rest)) = line.split_once(" (") {
            if rest.ends_with(") {") {
                current = Some(name.trim().to_owned());
                tables.entry(name.trim().to_owned()).or_default();
                continue;
            }
        }
        if let (Some(table), Some((column, ty))) = (&current, line.split_once(" -> ")) {
            let ty = ty.trim_end_matches(',');
            let (ty, nullable) = match ty
                .strip_prefix("Nullable<")
                .and_then(|t| t.strip_suffix('>'))
            {
                Some(inner) => (inner, true),
                None => (ty, false),
            };
            tables
                .get_mut(table)
                .unwrap()
                .insert(column.trim().to_owned(), (ty.to_owned(), nullable));
        }
        if line == "}" {
            current = None;
        }
    }
    tables
}

fn type_matches(backend: Backend, diesel_type: &str, db_type: &str) -> bool {
    match (backend, diesel_type) {
        (Backend::Postgres, "BigInt") => db_type == "bigint",
        (Backend::Postgres, "Integer") => db_type == "integer",
        (Backend::Postgres, "Text") => db_type == "text",
        (Backend::Postgres, "Timestamp") => db_type == "timestamp without time zone",
        (Backend::Postgres, "Bool") => db_type == "boolean",
        (Backend::Postgres, "Double") => db_type == "double precision",
        (Backend::Sqlite, "BigInt" | "Integer") => db_type == "integer",
        (Backend::Sqlite, "Text") => db_type == "text",
        (Backend::Sqlite, "Timestamp") => db_type == "timestamp",
        (Backend::Sqlite, "Bool") => db_type == "boolean",
        (Backend::Sqlite, "Double") => db_type == "real",
        _ => false,
    }
}

async fn schema_matches_migrations(backend: Backend) {
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let actual = database_columns(&mut conn);
    let declared = declared_columns();
    assert_eq!(
        actual.keys().collect::<Vec<_>>(),
        declared.keys().collect::<Vec<_>>(),
        "tables in the migrated database vs server/src/db/schema.rs"
    );
    for (table, columns) in &declared {
        let db_columns = &actual[table];
        assert_eq!(
            db_columns.keys().collect::<Vec<_>>().len(),
            columns.len(),
            "{table}: columns differ: database {:?} vs schema.rs {:?}",
            db_columns.keys().collect::<Vec<_>>(),
            columns.keys().collect::<Vec<_>>()
        );
        for (column, (ty, nullable)) in columns {
            let (db_ty, db_nullable) = db_columns.get(column).unwrap_or_else(|| {
                panic!("{table}.{column} is in schema.rs but not in the migrated database")
            });
            assert!(
                type_matches(backend, ty, db_ty),
                "{table}.{column}: schema.rs says {ty}, database has {db_ty}"
            );
            assert_eq!(
                nullable, db_nullable,
                "{table}.{column}: nullability differs (schema.rs nullable = {nullable})"
            );
        }
    }
}

async fn migrations_go_up_down_up(backend: Backend) {
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let up = database_columns(&mut conn);
    assert!(up.contains_key("accounts"));
    assert!(db::revert_all_migrations(&mut conn).unwrap() > 0);
    assert!(
        database_columns(&mut conn).is_empty(),
        "down leaves no table behind"
    );
    assert!(db::run_migrations(&mut conn).unwrap() > 0);
    assert_eq!(database_columns(&mut conn), up);
    assert_eq!(
        db::run_migrations(&mut conn).unwrap(),
        0,
        "nothing left to run"
    );
}
