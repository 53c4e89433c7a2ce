//! `turnpost-server check`: whether what the configuration names answers, before going live.
//! Each check reaches the real thing (database, SMTP relay, IMAP mailbox, DNS, the data
//! directory) and changes nothing: no database is created or migrated, no mail is sent, no
//! message is moved.

use std::net::ToSocketAddrs as _;
use std::path::Path;

use crate::cli::existing_database;
use crate::config::{describe_database, Config, DatabaseTarget};

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckLine {
    /// What was checked: `database`, `smtp`, `imap`, `public_url`, `data_dir`.
    pub name: &'static str,
    /// Whether it passed.
    pub ok: bool,
    /// What was found.
    pub detail: String,
}

impl std::fmt::Display for CheckLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = if self.ok { "ok" } else { "FAIL" };
        write!(f, "{status:<4}  {:<10}  {}", self.name, self.detail)
    }
}

/// Runs every check, in order: database, SMTP, IMAP, public URL, data directory.
#[must_use]
pub fn run(config: &Config) -> Vec<CheckLine> {
    let line = |name, outcome: Result<String, String>| {
        let ok = outcome.is_ok();
        let detail = outcome.unwrap_or_else(|failure| failure);
        CheckLine {
            name,
            ok,
            // One line per check, whatever the backend's message spans (PostgreSQL adds a hint
            // line).
            detail: detail.lines().map(str::trim).collect::<Vec<_>>().join(" "),
        }
    };
    vec![
        line("database", database(config)),
        line("smtp", smtp(config)),
        line("imap", imap(config)),
        line("public_url", public_url(config)),
        line("data_dir", data_dir(config)),
    ]
}

fn database(config: &Config) -> Result<String, String> {
    let shown = config
        .database_target()
        .map(|target| describe_database(&target))
        .map_err(|e| e.to_string())?;
    let (mut conn, due) = existing_database::connect(config).map_err(|e| e.to_string())?;
    // A newer binary's migrations are not "up to date": this binary refuses to serve on them.
    crate::db::migrate::check_newer(&mut conn, crate::db::migrate::Newer::Refuse)
        .map_err(|e| format!("{shown}: reachable, but {e}"))?;
    Ok(if due == 0 {
        format!("{shown}: reachable, migrations up to date")
    } else {
        format!(
            "{shown}: reachable, {} due (the server runs them at start, or \
             `turnpost-server migrate`)",
            turnpost_shared::render::counted(due, "migration", "migrations")
        )
    })
}

fn smtp(config: &Config) -> Result<String, String> {
    crate::app::mail_transport(config)
        .map_err(|e| format!("{e:#}"))?
        .check()
        .map_err(|e| e.to_string())
}

fn imap(config: &Config) -> Result<String, String> {
    let watch = crate::inbound::settings::imap_watch(config).map_err(|e| e.to_string())?;
    let Some(watch) = watch else {
        return Ok("no imap_url: replies come in through `turnpost-server mail-in` only".into());
    };
    let shown = watch.mailbox.describe();
    match watch.mailbox.check() {
        Ok(waiting) => Ok(format!(
            "{shown}: login and select done, {} waiting",
            turnpost_shared::render::counted(waiting, "message", "messages")
        )),
        Err(error) => Err(format!("{shown}: {error}")),
    }
}

fn public_url(config: &Config) -> Result<String, String> {
    let base = config.public_base_url().map_err(|e| e.to_string())?;
    let url = url::Url::parse(&base).map_err(|e| format!("{base}: {e}"))?;
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or(80);
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match (bare, port).to_socket_addrs() {
        Ok(addresses) => {
            let mut found: Vec<String> = addresses.map(|a| a.ip().to_string()).collect();
            found.dedup();
            if found.is_empty() {
                Err(format!("{base}: {host} resolves to no address"))
            } else {
                Ok(format!("{base}: {host} resolves to {}", found.join(", ")))
            }
        }
        Err(error) => Err(format!("{base}: cannot resolve {host}: {error}")),
    }
}

fn data_dir(config: &Config) -> Result<String, String> {
    let dir = &config.data_dir;
    let sqlite = matches!(config.database_target(), Ok(DatabaseTarget::Sqlite(_)));
    if !sqlite && config.smtp_url.is_some() {
        return Ok(format!(
            "{}: not used (PostgreSQL and an SMTP relay)",
            dir.display()
        ));
    }
    let meta = std::fs::metadata(dir).map_err(|e| {
        format!(
            "{}: {e} (the server creates it at first start, or `turnpost-server migrate`)",
            dir.display()
        )
    })?;
    if !meta.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mode = mode_of(&meta);
    if mode & 0o077 != 0 {
        return Err(format!(
            "{}: mode {mode:o} lets other users in, and it holds the database and sign-in codes: \
             chmod 700 '{}'",
            dir.display(),
            dir.display()
        ));
    }
    writable(dir)?;
    Ok(format!("{}: mode {mode:o}, writable", dir.display()))
}

#[cfg(unix)]
fn mode_of(meta: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    meta.permissions().mode() & 0o777
}

#[cfg(not(unix))]
fn mode_of(_meta: &std::fs::Metadata) -> u32 {
    0o700
}

/// Creates and removes a probe file: the one sure test that this user may write there.
fn writable(dir: &Path) -> Result<(), String> {
    let probe = dir.join(format!(".turnpost-check-{}", std::process::id()));
    crate::private_files::create_empty(&probe)
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("{}: cannot write in it: {e}", dir.display()))
}
