//! The command line: `serve` (default), `migrate`, `account create`, `account token`,
//! `mail list`, `mail retry`, `mail-in`, `config`, `check`, `backup`,
//! `copy-to`, `ratings rebuild`, `health`.

pub mod backup;
pub mod check;
mod command_tree;
pub mod copy_to;
pub mod existing_database;
pub mod health;
pub mod mail_in;
pub mod rating_rebuild;

use anyhow::Context as _;

pub use command_tree::{AccountCommand, Cli, Command, MailCommand, RatingsCommand};
pub use existing_database::{EX_CONFIG, EX_TEMPFAIL};

use crate::config::{CommandLine, Config, ConfigError, LoadError};
use crate::db::outbox::OutboxStatus;
use crate::mail::operator::{self, RetryTarget};
use crate::{accounts, app, validate};
use existing_database::ExistingDatabaseError;

/// The process's exit code for `error`: 75 (`EX_TEMPFAIL`) when trying again later may work,
/// 78 (`EX_CONFIG`) for a configuration error (a database newer than the binary, or
/// migrations due with `--no-migrate`, included), 1 otherwise. (`mail-in` has its own:
/// [`mail_in::main`].)
#[must_use]
pub fn exit_code(error: &anyhow::Error) -> u8 {
    if let Some(database) = error.downcast_ref::<ExistingDatabaseError>() {
        database.exit_code()
    } else if error.is::<ConfigError>() {
        EX_CONFIG
    } else if let Some(crate::db::DbError::Newer(_) | crate::db::DbError::Due(_)) =
        error.downcast_ref::<crate::db::DbError>()
    {
        EX_CONFIG
    } else {
        1
    }
}

/// `error` and its causes on one line, as `{error:#}` but each cause once: a message that
/// already quotes its cause (`cannot create x: File exists`) is not followed by it again.
#[must_use]
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// Reads the command line `args` (program name first), the environment and the configuration
/// file into the server's command tree.
///
/// # Errors
/// As [`crate::config::load`].
pub fn parse<I, T>(args: I) -> Result<CommandLine<Cli>, LoadError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    crate::config::load(args)
}

/// Runs the command line as read (settings merged from flags, environment and file).
///
/// # Errors
/// Whatever the command fails with, with context.
pub fn run(loaded: CommandLine<Cli>) -> anyhow::Result<()> {
    let CommandLine {
        cli,
        file,
        settings,
    } = loaded;
    let config = cli.config;
    let newer = if cli.allow_newer_database {
        crate::db::migrate::Newer::Allow
    } else {
        crate::db::migrate::Newer::Refuse
    };
    let policy = crate::db::migrate::Policy {
        no_migrate: false,
        newer,
    };
    match cli.command.unwrap_or(Command::Serve { no_migrate: false }) {
        Command::Serve { no_migrate } => serve(
            config,
            crate::db::migrate::Policy {
                no_migrate,
                ..policy
            },
        ),
        Command::Migrate => {
            config.validate()?;
            crate::inbound::settings::check(&config)?;
            let (_pool, backend, _) = app::open_database_with(&config, policy)?;
            eprintln!("database ({}) is up to date", backend.name());
            Ok(())
        }
        Command::Account(command) => account(&config, policy, command),
        Command::Mail(command) => mail(&config, policy, command),
        Command::MailIn => mail_in::run(&config, newer),
        Command::Config { json } => {
            if json {
                println!(
                    "{:#}",
                    crate::config::report_json(file.as_deref(), &settings)
                );
            } else {
                print!("{}", crate::config::report_text(file.as_deref(), &settings));
            }
            config.validate()?;
            crate::inbound::settings::check(&config)?;
            Ok(())
        }
        Command::Check => check(&config),
        Command::Backup { file } => {
            config.validate()?;
            let backup = crate::cli::backup::write(&config, &file)?;
            eprintln!(
                "{} copied to {} ({} bytes, integrity check ok)",
                backup.source.display(),
                file.display(),
                backup.bytes
            );
            Ok(())
        }
        Command::CopyTo { target } => copy_to(&config, policy, &target),
        Command::Ratings(RatingsCommand::Rebuild { check }) => {
            ratings_rebuild(&config, check, newer)
        }
        Command::Health { url } => {
            let address = health::target(&config, url.as_deref())?;
            health::check(&address)?;
            println!("healthy: {address}");
            Ok(())
        }
    }
}

/// `ratings rebuild --check` found rows that differ from the recomputed ones.
#[derive(Debug, thiserror::Error)]
#[error("the stored ratings differ from those recomputed from the games in {}", turnpost_shared::render::counted(*.0, "row", "rows"))]
pub struct RatingsDiffer(usize);

fn ratings_rebuild(
    config: &Config,
    check: bool,
    newer: crate::db::migrate::Newer,
) -> anyhow::Result<()> {
    config.validate()?;
    let (pool, _) = crate::cli::existing_database::open(config, 1)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    // A newer binary may have changed what a rating row holds: rewriting them from this one's
    // idea of the games could undo its work (exit 78 unless --allow-newer-database).
    crate::db::migrate::check_newer(&mut conn, newer)?;
    let report = crate::cli::rating_rebuild::rebuild(&mut conn, check)?;
    for line in &report.mismatches {
        println!("{line}");
    }
    let differ = report.mismatches.len();
    println!(
        "{} recomputed from {}; {} stored; {}",
        turnpost_shared::render::counted(report.rows, "rating row", "rating rows"),
        turnpost_shared::render::counted(report.games, "rated game", "rated games"),
        report.stored,
        match (differ, check) {
            (0, _) => "all match".to_owned(),
            (n, true) => format!("{n} differ (nothing written)"),
            (n, false) => format!("{n} differed; the recomputed rows are stored now"),
        }
    );
    if check && differ > 0 {
        return Err(RatingsDiffer(differ).into());
    }
    Ok(())
}

/// Some checks of `turnpost-server check` failed (each printed on its line).
#[derive(Debug, thiserror::Error)]
#[error("{} failed", turnpost_shared::render::counted(*.0, "check", "checks"))]
pub struct ChecksFailed(usize);

fn check(config: &Config) -> anyhow::Result<()> {
    config.validate()?;
    crate::inbound::settings::check(config)?;
    let lines = crate::cli::check::run(config);
    for line in &lines {
        println!("{line}");
    }
    let failed = lines.iter().filter(|line| !line.ok).count();
    if failed > 0 {
        return Err(ChecksFailed(failed).into());
    }
    Ok(())
}

fn copy_to(
    config: &Config,
    policy: crate::db::migrate::Policy,
    target: &str,
) -> anyhow::Result<()> {
    config.validate()?;
    // An SQLite file that is not there would be created empty and "copied": refuse instead.
    if let crate::config::DatabaseTarget::Sqlite(path) = config.database_target()? {
        anyhow::ensure!(
            path.is_file(),
            "no SQLite database at {}: set DATABASE_URL or TURNPOST_DATA_DIR as the server has them",
            path.display()
        );
    }
    let (pool, _, _) = app::open_database_with(config, policy)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    let report = crate::cli::copy_to::copy_to(&mut conn, target)?;
    for (table, rows) in &report.tables {
        println!("{table:<24} {rows:>10} rows");
    }
    println!(
        "{} games replayed to their stored positions; copied in {:.1} s",
        report.games_replayed,
        report.took.as_secs_f64()
    );
    eprintln!(
        "done: start the server with DATABASE_URL={} (the SQLite file is left as it was)",
        crate::config::redact_url(target)
    );
    Ok(())
}

fn mail(
    config: &Config,
    policy: crate::db::migrate::Policy,
    command: MailCommand,
) -> anyhow::Result<()> {
    config.validate()?;
    crate::inbound::settings::check(config)?;
    let (pool, _, _) = app::open_database_with(config, policy)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    match command {
        MailCommand::List { dead, pending } => {
            let status = match (dead, pending) {
                (true, _) => Some(OutboxStatus::Dead),
                (false, true) => Some(OutboxStatus::Pending),
                (false, false) => None,
            };
            print!("{}", operator::list(&mut conn, status)?);
        }
        MailCommand::Retry { id, all_dead } => {
            let target = match (id, all_dead) {
                (_, true) => RetryTarget::AllDead,
                (Some(id), false) => RetryTarget::One(id),
                (None, false) => anyhow::bail!("give a mail id or --all-dead"),
            };
            let queued = operator::retry(&mut conn, target)?;
            eprintln!(
                "{} queued again; a running server sends them within its poll interval",
                turnpost_shared::render::counted(queued, "mail", "mails")
            );
        }
    }
    Ok(())
}

fn serve(config: Config, policy: crate::db::migrate::Policy) -> anyhow::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let application = app::Application::build_with(config, policy).await?;
        application
            .run_until_stopped()
            .await
            .context("HTTP server failed")
    })
}

fn account(
    config: &Config,
    policy: crate::db::migrate::Policy,
    command: AccountCommand,
) -> anyhow::Result<()> {
    config.validate()?;
    crate::inbound::settings::check(config)?;
    let (pool, _, _) = app::open_database_with(config, policy)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    let (secret, account) = match command {
        AccountCommand::Create { name, email, label } => {
            let name = validate::account_name(&name)?;
            let email = validate::email(&email)?;
            validate::deliverable_email(&email, config.smtp_utf8)?;
            let label = validate::token_label(Some(&label))?;
            let (secret, _, account) = accounts::create_verified(&mut conn, &name, &email, &label)?;
            (secret, account)
        }
        AccountCommand::Token { name, label } => {
            let label = validate::token_label(Some(&label))?;
            let (secret, _, account) =
                accounts::issue_token_for_name(&mut conn, &name.to_ascii_lowercase(), &label)?;
            (secret, account)
        }
    };
    eprintln!(
        "token for account {} (id {}), shown once:",
        account.name, account.id
    );
    println!("{secret}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_tree_is_well_formed() {
        use clap::CommandFactory as _;
        super::Cli::command().debug_assert();
    }
}
