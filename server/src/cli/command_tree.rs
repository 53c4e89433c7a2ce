//! The server's command tree: the settings every command reads ([`Config`]) and the
//! subcommands (`serve`, `migrate`, `account`, `mail`, `mail-in`, `config`, `check`, `backup`,
//! `copy-to`, `ratings`).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::config::Config;

/// turnpost's HTTP API server: accounts, games and turn emails for play-by-mail abstract games.
///
/// With no DATABASE_URL it keeps an SQLite file in the data directory; with no SMTP_URL it writes
/// each email as an .eml file under the data directory, so `turnpost-server` alone is a working
/// local server.
#[derive(Debug, Parser)]
#[command(name = "turnpost-server", version, about, long_about)]
pub struct Cli {
    /// Configuration file (TOML; every setting below is a key: `--public-url`,
    /// TURNPOST_PUBLIC_URL → `public_url`) [default: /etc/turnpost/turnpost.toml when present]
    #[arg(
        long = "config",
        env = "TURNPOST_CONFIG",
        value_name = "FILE",
        global = true
    )]
    pub config_file: Option<PathBuf>,
    /// Server settings (also read by the operator commands).
    #[command(flatten)]
    pub config: Config,
    /// Use a database even when a newer turnpost-server migrated it (it has migrations this
    /// binary does not know; refused otherwise, exit 78). See "Upgrading" in the operators'
    /// guide.
    #[arg(long, global = true)]
    pub allow_newer_database: bool,
    /// What to do (default: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP API and the mail worker (the default).
    Serve {
        /// Do not migrate: refuse to start (exit 78) when migrations are due, for operators who
        /// run `turnpost-server migrate` as an upgrade step of its own.
        #[arg(long)]
        no_migrate: bool,
    },
    /// Run pending database migrations and exit. Safe while servers run and start: one
    /// process migrates at a time, the others wait.
    Migrate,
    /// Operator commands on accounts (no email is sent).
    #[command(subcommand)]
    Account(AccountCommand),
    /// Operator commands on the mail outbox.
    #[command(subcommand)]
    Mail(MailCommand),
    /// Read one RFC 5322 message on stdin, a reply to a game mail, and act on it (for an MTA's
    /// pipe transport, procmail or fetchmail's mda). Exit 0 when it was handled or deliberately
    /// ignored; 75 (EX_TEMPFAIL) for anything of ours an operator can fix (the configuration,
    /// a database down, missing, not migrated or newer), so the MTA keeps the reply and
    /// retries. Stderr gets one line (sender, Message-ID, what happened); the log goes to
    /// `--mail-in-log` (else stderr). It never creates a database.
    MailIn,
    /// Print the effective configuration (secrets masked) and where each value came from:
    /// default, file, environment or command line.
    Config {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check what the server needs: the database (and whether migrations are due), the SMTP
    /// relay (EHLO, TLS, AUTH; no mail sent), the IMAP mailbox, the public URL's host and the
    /// data directory. One line per check; exit 1 if any failed.
    Check,
    /// Write a consistent copy of the SQLite database to FILE, also while the server runs
    /// (PostgreSQL: use pg_dump).
    Backup {
        /// The copy to write (must not exist).
        file: PathBuf,
    },
    /// Copy every table of the SQLite database into an empty PostgreSQL database (migrated
    /// first), in one consistent snapshot; checks row counts and that every game replays, and
    /// refuses a target that holds data. Then point DATABASE_URL at the new database.
    CopyTo {
        /// The PostgreSQL database to fill: postgres://user:password@host/db
        target: String,
    },
    /// Operator commands on ratings.
    #[command(subcommand)]
    Ratings(RatingsCommand),
    /// Ask a running server's GET /v1/health (on the configured listen address, an unspecified
    /// one asked on loopback, or --url) and exit 0 when it answers 200 within 5 s, 1 otherwise:
    /// a container's HEALTHCHECK.
    Health {
        /// The server to ask: http://HOST:PORT [default: the listen address]
        #[arg(long, value_name = "URL")]
        url: Option<String>,
    },
}

/// `ratings …` subcommands.
#[derive(Debug, Subcommand)]
pub enum RatingsCommand {
    /// Recompute every rating from the finished rated games, in the order they ended, and
    /// replace the stored rating history with it; prints how many rows differed.
    Rebuild {
        /// Only compare: write nothing, print each difference, exit 1 if any.
        #[arg(long)]
        check: bool,
    },
}

/// `mail …` subcommands.
#[derive(Debug, Subcommand)]
pub enum MailCommand {
    /// List queued mail, oldest first: id, status, attempts, queued, next attempt, recipient,
    /// subject, last error.
    List {
        /// Only dead-lettered mail (refused for good or too many failed attempts).
        #[arg(long, conflicts_with = "pending")]
        dead: bool,
        /// Only mail still to be delivered.
        #[arg(long)]
        pending: bool,
    },
    /// Queue a dead-lettered mail again (due now, attempts counted from zero). It keeps its
    /// Message-ID; a delivered mail is not sent again.
    Retry {
        /// The mail's id (from `mail list`).
        #[arg(required_unless_present = "all_dead", conflicts_with = "all_dead")]
        id: Option<i64>,
        /// Every dead-lettered mail.
        #[arg(long)]
        all_dead: bool,
    },
}

/// `account …` subcommands.
#[derive(Debug, Subcommand)]
pub enum AccountCommand {
    /// Create a verified account and print a new API token for it.
    Create {
        /// Account name: 2–32 letters, digits, `-` or `_`.
        #[arg(long)]
        name: String,
        /// Email address.
        #[arg(long)]
        email: String,
        /// Label of the printed token.
        #[arg(long, default_value = "operator")]
        label: String,
    },
    /// Print another API token for an existing account.
    Token {
        /// Account name (any case).
        #[arg(long)]
        name: String,
        /// Label of the printed token.
        #[arg(long, default_value = "operator")]
        label: String,
    },
}
