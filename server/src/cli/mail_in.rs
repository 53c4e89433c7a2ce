//! `turnpost-server mail-in`: one message on stdin from an MTA's pipe, handled once.
//!
//! The exit code is what the MTA does with the player's reply: 0 (handled or deliberately
//! ignored: delivered), 75 (`EX_TEMPFAIL`: the MTA keeps it and retries). Everything that can
//! stop `mail-in` is ours for an operator to fix (the configuration, migrations due, a
//! database that is down, not migrated or newer, a bug), so it is always 75: a reply is never
//! bounced for our own trouble. What reaches stderr is one line naming the message (sender and
//! Message-ID) and what became of it, never our configuration, since an MTA puts a command's
//! output into the bounce or deferral notice its sender may get; the full log goes to the
//! `mail_in_log` file, or to stderr when none is configured.

use std::fs::OpenOptions;
use std::io::Read as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context as _;
use tracing_subscriber::EnvFilter;

use super::existing_database::{ExistingDatabaseError, EX_TEMPFAIL};
use super::{Cli, Command};
use crate::config::{CommandLine, Config, ConfigError, LoadError, LogFormat};
use crate::db::migrate::Newer;
use crate::db::DbError;
use crate::inbound::{Outcome, MAX_MESSAGE_BYTES};
use crate::mail_context::MailContext;

/// `eprintln!` that never panics: with stderr closed the line is lost, and the exit code still
/// tells the MTA what became of the message.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The longest sender or Message-ID shown on the summary line: it is the sender's text.
const SHOWN_CHARS: usize = 120;

/// Whether the command line asks for `mail-in`: as parsed, or, when it could not be parsed
/// (a refused configuration), as written in `args`.
#[must_use]
pub fn asked(parsed: &Result<CommandLine<Cli>, LoadError>, args: &[std::ffi::OsString]) -> bool {
    match parsed {
        Ok(loaded) => matches!(loaded.cli.command, Some(Command::MailIn)),
        // `mail-in --help` is for a person at a terminal: clap prints it.
        Err(LoadError::Usage(error))
            if matches!(
                error.kind(),
                clap::error::ErrorKind::DisplayHelp
                    | clap::error::ErrorKind::DisplayVersion
                    | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            false
        }
        Err(_) => args.iter().any(|arg| arg == "mail-in"),
    }
}

/// Runs `mail-in` from the command line as parsed (or refused), with its own log; returns the
/// process's exit code: 0 or [`EX_TEMPFAIL`].
#[must_use]
pub fn main(parsed: Result<CommandLine<Cli>, LoadError>) -> u8 {
    let raw = match read_message(&mut std::io::stdin().lock()) {
        Ok(raw) => raw,
        Err(error) => {
            say!("turnpost-server mail-in: cannot read the message on stdin ({error}); not handled, try again later");
            return EX_TEMPFAIL;
        }
    };
    let about = About::of(&raw);
    let loaded = match parsed {
        Ok(loaded) => loaded,
        Err(error) => {
            // The configuration is not read, so neither is the log file's name: only the
            // environment's, if set. The message (keys, paths) never goes to stderr.
            if let Some(path) = std::env::var_os("TURNPOST_MAIL_IN_LOG") {
                let _ = append_line(
                    Path::new(&path),
                    &format!("{about}: the configuration is refused: {error}"),
                );
            }
            say!(
                "{about}: not handled, try again later: the server's configuration is refused \
                 (`turnpost-server check` as the server's user says why)"
            );
            return EX_TEMPFAIL;
        }
    };
    let config = loaded.cli.config;
    let newer = if loaded.cli.allow_newer_database {
        Newer::Allow
    } else {
        Newer::Refuse
    };
    let to_file = init_log(&config);
    let span = tracing::info_span!("mail_in", from = %about.from, message_id = %about.id);
    let _entered = span.enter();
    if let Err(error) = to_file {
        tracing::warn!("cannot open the mail-in log, logging to stderr: {error}");
    }
    match handle(&config, newer, &raw) {
        Ok(outcome) => {
            let said = describe_outcome(&outcome);
            tracing::info!(outcome = %said, "handled");
            say!("{about}: {said}");
            0
        }
        Err(error) => {
            tracing::error!(
                "not handled, the MTA is asked to try again later: {}",
                super::error_text(&error)
            );
            say!(
                "{about}: not handled, try again later: {} (see the mail-in log)",
                reason(&error)
            );
            EX_TEMPFAIL
        }
    }
}

/// Reads one message of at most [`MAX_MESSAGE_BYTES`] (and one byte more, to know it is
/// larger), then the rest to its end: the MTA writing it must not see a broken pipe (and retry
/// or bounce) because we stopped reading.
fn read_message(input: &mut impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    let limit = u64::try_from(MAX_MESSAGE_BYTES + 1).unwrap_or(u64::MAX);
    input.take(limit).read_to_end(&mut raw)?;
    if raw.len() > MAX_MESSAGE_BYTES {
        std::io::copy(input, &mut std::io::sink())?;
    }
    Ok(raw)
}

/// Which message this is, for the summary line and every log line: its sender and Message-ID
/// as written (cut, control characters dropped).
struct About {
    from: String,
    id: String,
}

impl About {
    fn of(raw: &[u8]) -> Self {
        let parsed = mail_parser::MessageParser::default().parse_headers(raw);
        let from = parsed
            .as_ref()
            .and_then(|message| message.from())
            .and_then(|from| from.first())
            .and_then(|address| address.address())
            .map_or_else(|| "(no sender)".to_owned(), shown);
        let id = parsed
            .as_ref()
            .and_then(|message| message.message_id())
            .map_or_else(
                || "(no Message-ID)".to_owned(),
                |id| shown(&format!("<{id}>")),
            );
        Self { from, id }
    }
}

impl std::fmt::Display for About {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "turnpost-server mail-in: message {} from {}",
            self.id, self.from
        )
    }
}

/// `text` as shown: at most [`SHOWN_CHARS`] characters, no control characters (one line).
fn shown(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(SHOWN_CHARS)
        .collect()
}

/// What the summary line says of `error`: its kind, never its details (paths, URLs, keys).
fn reason(error: &anyhow::Error) -> &'static str {
    if error.is::<ConfigError>() {
        return "the server's configuration is refused";
    }
    if let Some(database) = error.downcast_ref::<ExistingDatabaseError>() {
        return match database {
            ExistingDatabaseError::Config(_) => "the server's configuration is refused",
            ExistingDatabaseError::Missing(_) => "no database where the configuration points",
            ExistingDatabaseError::Unmigrated { .. } => "the database's migrations are due",
            ExistingDatabaseError::Unreachable { .. } => "the database does not answer",
        };
    }
    if let Some(DbError::Newer(_)) = error.downcast_ref::<DbError>() {
        return "the database is newer than this turnpost-server";
    }
    "the server could not handle it"
}

/// Sets the process's log to `config`'s `mail_in_log` file, or stderr when none is set (or
/// the file cannot be opened: then the error).
fn init_log(config: &Config) -> std::io::Result<()> {
    let filter = || EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let file = config.mail_in_log.as_deref().map(open_log).transpose();
    let (file, opened) = match file {
        Ok(file) => (file, Ok(())),
        Err(error) => (None, Err(error)),
    };
    let json = config.log_format == LogFormat::Json;
    // `try_init`: a second subscriber (a test calling this twice) is no error worth stopping for.
    let _ = match (file, json) {
        (Some(file), false) => tracing_subscriber::fmt()
            .with_writer(Mutex::new(file))
            .with_ansi(false)
            .with_env_filter(filter())
            .log_internal_errors(false)
            .try_init(),
        (Some(file), true) => tracing_subscriber::fmt()
            .json()
            .with_writer(Mutex::new(file))
            .with_env_filter(filter())
            .log_internal_errors(false)
            .try_init(),
        (None, false) => tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_env_filter(filter())
            .log_internal_errors(false)
            .try_init(),
        (None, true) => tracing_subscriber::fmt()
            .json()
            .with_writer(std::io::stderr)
            .with_env_filter(filter())
            .log_internal_errors(false)
            .try_init(),
    };
    opened
}

/// The log file, opened to append, created readable by its owner only (it names senders).
fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
}

/// Appends one line to the log file at `path`.
fn append_line(path: &Path, line: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = open_log(path)?;
    writeln!(file, "{line}")
}

/// `mail-in` as a command of [`super::run`]: the message on stdin, handled; errors as they are.
///
/// # Errors
/// Whatever stops the message from being handled; [`main`] turns every one into 75.
pub fn run(config: &Config, newer: Newer) -> anyhow::Result<()> {
    let raw =
        read_message(&mut std::io::stdin().lock()).context("cannot read the message on stdin")?;
    let outcome = handle(config, newer, &raw)?;
    say!("{}", describe_outcome(&outcome));
    Ok(())
}

/// Handles `raw` against the configured database, which must exist and be migrated (never
/// created: a database the server does not use would swallow the reply).
fn handle(config: &Config, newer: Newer, raw: &[u8]) -> anyhow::Result<Outcome> {
    config.validate()?;
    crate::inbound::settings::check(config)?;
    let (pool, _) = crate::cli::existing_database::open(config, 1)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    crate::db::migrate::check_newer(&mut conn, newer)?;
    let link_key = crate::preferences::unsubscribe::load_key(&mut conn)?;
    let reply = crate::reply_address::ReplyKeys::load(&mut conn, config)?;
    let ctx = MailContext {
        message_id_domain: config.message_id_domain(),
        public_url: config.public_base_url()?,
        // No mail worker here: the answers wait in the outbox for a serving process's worker.
        wake: std::sync::Arc::new(tokio::sync::Notify::new()),
        link_key: link_key.into(),
        reply,
        // No sweeper here either: a serving process's composer rings its own.
    };
    let settings = crate::inbound::settings::handler_settings(config)?;
    Ok(crate::inbound::deliver(
        &mut conn, &ctx, &settings, raw, None,
    )?)
}

/// One line for what became of a message.
#[must_use]
pub fn describe_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ignored(why) => format!("ignored: {why}"),
        Outcome::Duplicate => "ignored: handled before".to_owned(),
        Outcome::Acted {
            game_id,
            done,
            refused,
            answers,
        } => format!(
            "game {game_id}: {} done{}, {} queued",
            turnpost_shared::render::counted(*done, "command", "commands"),
            if *refused { ", one refused" } else { "" },
            turnpost_shared::render::counted(*answers, "answer", "answers"),
        ),
        Outcome::Entry {
            tournament_id,
            refused,
            answers,
        } => format!(
            "tournament {tournament_id}: {}, {} queued",
            if *refused { "refused" } else { "done" },
            turnpost_shared::render::counted(*answers, "answer", "answers"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{shown, About};

    #[test]
    fn the_summary_names_sender_and_message_id_on_one_line() {
        let about = About::of(
            b"From: Anna <anna@example.org>\r\nMessage-ID: <m1@example.org>\r\n\r\nbody\r\n",
        );
        assert_eq!(
            about.to_string(),
            "turnpost-server mail-in: message <m1@example.org> from anna@example.org"
        );
        let none = About::of(b"Subject: x\r\n\r\n");
        assert_eq!(
            none.to_string(),
            "turnpost-server mail-in: message (no Message-ID) from (no sender)"
        );
        assert_eq!(shown("a\nb"), "ab");
        assert_eq!(shown(&"x".repeat(500)).len(), 120);
    }
}
