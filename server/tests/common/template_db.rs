//! Migrated templates: most tests want a database with every migration applied, and running
//! the migrations for each of them (a few seconds on PostgreSQL, one commit per migration) was
//! a large part of the test run. The migrations run once per set of migration files, into a
//! template (a database on PostgreSQL, a file on SQLite) that each test then copies.
//! Tests of the migrations themselves still start from an empty database (`TestDb::create`).

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use diesel::{Connection, RunQueryDsl};
use turnpost_server::db::{self, Backend, DbConnection};

/// A key for the migration files of `backend`: their names and contents.
fn migrations_key(backend: Backend) -> String {
    let folder = match backend {
        Backend::Postgres => "postgres",
        Backend::Sqlite => "sqlite",
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../migrations")
        .join(folder);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if dir.is_dir() {
            for file in std::fs::read_dir(&dir).unwrap() {
                files.push(file.unwrap().path());
            }
        }
    }
    files.sort();
    // SipHash with fixed keys: the same key in every test process of one build.
    let mut hasher = std::hash::DefaultHasher::new();
    for file in &files {
        file.strip_prefix(&root).unwrap().hash(&mut hasher);
        std::fs::read(file).unwrap().hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

fn migrate(url: &str) {
    let mut conn = DbConnection::establish(url).unwrap();
    db::run_migrations(&mut conn).unwrap();
}

/// The name of the PostgreSQL template for the current migrations, made first when missing.
/// Test processes run side by side: an advisory lock lets one of them make it, and it is
/// built under another name and renamed when complete, so a crash never leaves a half-made
/// template behind.
pub fn postgres_template(admin_url: &str) -> String {
    let name = format!("turnpost_template_{}", migrations_key(Backend::Postgres));
    let mut admin = diesel::PgConnection::establish(admin_url).unwrap();
    diesel::sql_query("SELECT pg_advisory_lock(7410546)")
        .execute(&mut admin)
        .unwrap();
    let exists: bool = diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
        "EXISTS (SELECT 1 FROM pg_database WHERE datname = '{name}')"
    )))
    .get_result(&mut admin)
    .unwrap();
    if !exists {
        let building = format!("{name}_building");
        for sql in [
            format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"),
            format!("CREATE DATABASE {building}"),
        ] {
            diesel::sql_query(sql).execute(&mut admin).unwrap();
        }
        let mut url = url::Url::parse(admin_url).unwrap();
        url.set_path(&building);
        migrate(url.as_str());
        diesel::sql_query(format!("ALTER DATABASE {building} RENAME TO {name}"))
            .execute(&mut admin)
            .unwrap();
        // Templates of older migration sets are of no further use.
        let older: String = diesel::select(diesel::dsl::sql::<diesel::sql_types::Text>(&format!(
            "(SELECT coalesce(string_agg(datname, ' '), '') FROM pg_database \
             WHERE datname LIKE 'turnpost\\_template\\_%' AND datname <> '{name}')"
        )))
        .get_result(&mut admin)
        .unwrap();
        for old in older.split_whitespace() {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {old} WITH (FORCE)"))
                .execute(&mut admin);
        }
    }
    diesel::sql_query("SELECT pg_advisory_unlock(7410546)")
        .execute(&mut admin)
        .unwrap();
    name
}

/// The SQLite template file for the current migrations, made first when missing (built under
/// a name of its own and renamed into place, so a reader never sees half of one).
pub fn sqlite_template() -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "turnpost-template-{}.db",
        migrations_key(Backend::Sqlite)
    ));
    if !path.exists() {
        let building = std::env::temp_dir().join(format!(
            "turnpost-template-building-{}.db",
            turnpost_server::secrets::random_string(12, turnpost_server::secrets::LOWER_ALNUM)
        ));
        migrate(&format!("sqlite://{}", building.display()));
        std::fs::rename(&building, &path).unwrap();
    }
    path
}
