//! Configuration: flags with environment fallbacks (clap `env`) over a TOML file ([`load`]),
//! read once at start; [`report`] shows where each value came from.

pub mod client_address;
mod file;
pub mod network_list;
pub mod outbound_allow;
mod report;

pub use file::{load, CommandLine, LoadError, Origin, Setting, ValueKind, DEFAULT_CONFIG_FILE};
pub use report::{report_json, report_text};

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::ArgAction::Set;
use clap::{value_parser, Args};

use crate::config::client_address::{ProxyHeader, TrustedProxies};

/// Every server setting.
// One `#[arg(...)]` a line where it fits: the settings read as a list, not as 45 six-line
// blocks of the same shape.
#[rustfmt::skip::attributes(arg)]
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address and port to listen on (port 0 picks a free port).
    #[arg(long, env = "TURNPOST_LISTEN", default_value = "127.0.0.1:8080", global = true)]
    pub listen: String,

    /// Directory for the default SQLite database and for .eml files when no SMTP_URL is set.
    #[arg(long, env = "TURNPOST_DATA_DIR", default_value = "./turnpost-data", global = true)]
    pub data_dir: PathBuf,

    /// Database: postgres://user:password@host/db or sqlite://path/to/file.db
    /// [default: sqlite file turnpost.db in the data directory]
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, global = true)]
    pub database_url: Option<String>,

    /// Mail relay: smtps://user:pass@host:465 or smtp://user:pass@host:587?tls=required;
    /// plain smtp:// only to a loopback host (or with --smtp-allow-plain)
    /// [default: write .eml files under DATA_DIR/mail]
    #[arg(long, env = "SMTP_URL", hide_env_values = true, global = true)]
    pub smtp_url: Option<String>,

    /// Allow plain (unencrypted) smtp:// to a non-loopback host, e.g. a mail catcher on a private
    /// container network. Never for a real relay.
    #[arg(long, env = "TURNPOST_SMTP_ALLOW_PLAIN", default_value_t = false, global = true)]
    pub smtp_allow_plain: bool,

    /// Sender address of every email, e.g. "turnpost <games@example.org>".
    #[arg(
        long,
        env = "TURNPOST_MAIL_FROM",
        default_value = "turnpost <turnpost@localhost>",
        global = true
    )]
    pub mail_from: String,

    /// Public base URL of this server, used in links in emails [default: http://LISTEN]
    #[arg(long, env = "TURNPOST_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Whether anyone may sign up with POST /v1/accounts (operators can always create accounts).
    #[arg(long, env = "TURNPOST_OPEN_SIGNUP", default_value_t = true, action = Set, global = true)]
    pub open_signup: bool,

    /// Delivery attempts of one email before it is dead-lettered.
    #[arg(long, env = "TURNPOST_OUTBOX_MAX_ATTEMPTS", default_value_t = 10, global = true)]
    pub outbox_max_attempts: u32,

    /// Delay before the first retry of a failed email, in milliseconds; it doubles on each
    /// further failure.
    #[arg(long, env = "TURNPOST_OUTBOX_RETRY_BASE_MS", default_value_t = 30_000, global = true)]
    pub outbox_retry_base_ms: u64,

    /// Longest delay between two attempts of one email, in milliseconds.
    #[arg(long, env = "TURNPOST_OUTBOX_RETRY_MAX_MS", default_value_t = 3_600_000, global = true)]
    pub outbox_retry_max_ms: u64,

    /// How often the mail worker looks for due emails, in milliseconds (it also wakes at once
    /// when this process queues one).
    #[arg(long, env = "TURNPOST_OUTBOX_POLL_MS", default_value_t = 2_000, global = true)]
    pub outbox_poll_ms: u64,

    /// SMTP sessions delivering mail at once, each over its own reused connection.
    #[arg(
        long,
        env = "TURNPOST_OUTBOX_SESSIONS",
        default_value_t = 4,
        value_parser = value_parser!(u32).range(1..=64),
        global = true
    )]
    pub outbox_sessions: u32,

    /// How long a mail worker's claim on a queued email lasts, in milliseconds. The worker
    /// renews it while it sends; if the process dies, the email is due again this long after.
    #[arg(long, env = "TURNPOST_OUTBOX_LEASE_MS", default_value_t = 30_000, global = true)]
    pub outbox_lease_ms: u64,

    /// Threads composing game mail (turn cards and the like) in parallel, at low priority
    /// [default: the number of CPUs]
    #[arg(
        long,
        env = "TURNPOST_MAIL_COMPOSERS",
        value_parser = value_parser!(u32).range(1..=64),
        global = true
    )]
    pub mail_composers: Option<u32>,

    /// The mail side's bound on waiting, in milliseconds: once the oldest uncomposed game
    /// event, or the longest-due queued mail, has waited this long, one composer and one SMTP
    /// session at normal priority work on the oldest until it has waited less than half of
    /// this, however busy the machine is; `0`: no such bound (mail waits for idle CPU).
    #[arg(long, env = "TURNPOST_MAIL_CATCH_UP_MS", default_value_t = 10_000, global = true)]
    pub mail_catch_up_ms: u64,

    /// The SMTP relay supports SMTPUTF8 (RFC 6531), so addresses with non-ASCII characters
    /// can be delivered. Off: sign-up refuses such addresses (a relay without SMTPUTF8 cannot
    /// take them).
    #[arg(long, env = "TURNPOST_SMTP_UTF8", default_value_t = false, action = Set, global = true)]
    pub smtp_utf8: bool,

    /// Sign-up, sign-in and verify requests allowed per email address per 15 minutes (each
    /// endpoint counted apart).
    #[arg(long, env = "TURNPOST_RATE_LIMIT_PER_EMAIL", default_value_t = 10, global = true)]
    pub rate_limit_per_email: u32,

    /// Sign-up, sign-in and verify requests allowed per client IP address per 15 minutes (each
    /// endpoint counted apart).
    #[arg(long, env = "TURNPOST_RATE_LIMIT_PER_CLIENT", default_value_t = 60, global = true)]
    pub rate_limit_per_client: u32,

    /// Challenges one account may send per hour.
    #[arg(long, env = "TURNPOST_CHALLENGES_PER_HOUR", default_value_t = 30, global = true)]
    pub challenges_per_hour: u32,

    /// Challenges one account may receive per hour (from everyone together).
    #[arg(long, env = "TURNPOST_CHALLENGES_RECEIVED_PER_HOUR", default_value_t = 20, global = true)]
    pub challenges_received_per_hour: u32,

    /// Reverse proxies whose `X-Forwarded-For` header names the client, for rate limits: a
    /// comma-separated list of addresses and networks (`127.0.0.1,10.0.0.0/8`). Empty: the
    /// header is ignored and the TCP peer is the client.
    #[arg(long, env = "TURNPOST_TRUSTED_PROXIES", default_value = "", global = true)]
    pub trusted_proxies: TrustedProxies,

    /// The header the trusted proxies name the client in: `x-forwarded-for`, or `forwarded`
    /// (RFC 7239). Only that one is read.
    #[arg(long, env = "TURNPOST_PROXY_HEADER", default_value = "x-forwarded-for", global = true)]
    pub proxy_header: ProxyHeader,

    /// How long a request's body may take to arrive after its headers, in milliseconds; a
    /// slower one is answered 408 and its connection closed.
    #[arg(long, env = "TURNPOST_REQUEST_BODY_TIMEOUT_MS", default_value_t = 10_000, global = true)]
    pub request_body_timeout_ms: u64,

    /// How often this process looks for clocks that need a reminder, a timeout or a claim
    /// notice, and for digests that are due, in milliseconds. Every server process sweeps;
    /// locks make each finding happen once.
    #[arg(long, env = "TURNPOST_SWEEP_INTERVAL_MS", default_value_t = 60_000, global = true)]
    pub sweep_interval_ms: u64,

    /// How often this process looks for games where a built-in bot is to move, in
    /// milliseconds; 0 turns the bot worker off in this process (bots then never move here).
    #[arg(long, env = "TURNPOST_BOT_POLL_MS", default_value_t = 200, global = true)]
    pub bot_poll_ms: u64,

    /// Games against built-in bots one account may have at once (challenges waiting for a
    /// person and games being played, counted for every person seated); a challenge beyond it
    /// is refused. 0: nobody may challenge a bot.
    #[arg(long, env = "TURNPOST_BOT_GAMES_PER_ACCOUNT", default_value_t = 5, global = true)]
    pub bot_games_per_account: u32,

    /// Live streams (`GET /v1/stream`, `GET /v1/games/{id}/stream`) one account (or, for a
    /// spectator not signed in, one client address) may hold open at once; one more is
    /// refused with 429.
    #[arg(long, env = "TURNPOST_STREAMS_PER_ACCOUNT", default_value_t = 8, global = true)]
    pub streams_per_account: u32,

    /// Live streams this process holds open at once at most; one more is refused with 429.
    #[arg(long, env = "TURNPOST_STREAMS_PER_PROCESS", default_value_t = 20_000, global = true)]
    pub streams_per_process: u32,

    /// Hours the event log keeps an event after its mail is composed, so a stream client can
    /// resume (`Last-Event-ID`) after a night offline; older events are pruned once every
    /// consumer has passed them.
    #[arg(long, env = "TURNPOST_EVENT_RETENTION_HOURS", default_value_t = 48, global = true)]
    pub event_retention_hours: u32,

    /// Database connections in the pool.
    #[arg(long, env = "TURNPOST_DB_POOL_SIZE", default_value_t = 8, global = true)]
    pub db_pool_size: u32,

    /// Reply address of game mails, with `%{key}` in its local part where each player's key
    /// for the game goes (`games+%{key}@example.org`): replies to it play by email
    /// [default: TURNPOST_MAIL_FROM with +%{key} added to its local part]
    #[arg(long, env = "TURNPOST_REPLY_ADDRESS", global = true)]
    pub reply_address: Option<String>,

    /// Mailbox of replies to watch: imaps://user:password@host[:port]/MAILBOX; plain imap://
    /// only to a loopback host (or with --imap-allow-plain) [default: no mailbox; replies come
    /// in through `turnpost-server mail-in` only]
    #[arg(long, env = "TURNPOST_IMAP_URL", hide_env_values = true, global = true)]
    pub imap_url: Option<String>,

    /// Allow plain (unencrypted) imap:// to a non-loopback host. Never over a public network.
    #[arg(long, env = "TURNPOST_IMAP_ALLOW_PLAIN", default_value_t = false, global = true)]
    pub imap_allow_plain: bool,

    /// How often the IMAP mailbox is looked at when the server has no IDLE (and at most how
    /// long one IDLE lasts), in milliseconds.
    #[arg(long, env = "TURNPOST_IMAP_POLL_MS", default_value_t = 30_000, global = true)]
    pub imap_poll_ms: u64,

    /// Folder that handled replies are moved to (created if missing) [default: delete them]
    #[arg(long, env = "TURNPOST_IMAP_DONE_FOLDER", global = true)]
    pub imap_done_folder: Option<String>,

    /// Answers to mail commands (confirmations, refusals, help) one account gets per hour; past
    /// it commands still act, unanswered.
    #[arg(long, env = "TURNPOST_MAIL_ANSWERS_PER_HOUR", default_value_t = 30, global = true)]
    pub mail_answers_per_hour: u32,

    /// Serve this process's metrics at `GET /metrics` in the Prometheus text format (moves,
    /// requests, mail, bots, sweeps, database pool). Off: the path answers 404.
    #[arg(long, env = "TURNPOST_METRICS", default_value_t = false, action = Set, global = true)]
    pub metrics: bool,
    /// Log lines as plain text, or one JSON object per line (for journald or a log shipper).
    #[arg(
        long,
        env = "TURNPOST_LOG_FORMAT",
        value_enum,
        default_value_t = LogFormat::Text,
        global = true
    )]
    pub log_format: LogFormat,
    /// Address and port to take replies over LMTP on (RFC 2033), for an MTA delivering with
    /// `lmtp:inet:HOST:PORT`; keep it on loopback or a private network: whoever reaches it can
    /// hand in replies as the MTA would [default: off; replies come in through `mail-in` or
    /// IMAP]
    #[arg(long, env = "TURNPOST_LMTP_LISTEN", value_name = "ADDRESS", global = true)]
    pub lmtp_listen: Option<String>,

    /// File `mail-in` appends its log to (created mode 0600), where the MTA's pipe keeps only
    /// the first line of a command's output and may put it in a bounce [default: stderr]
    #[arg(long, env = "TURNPOST_MAIL_IN_LOG", value_name = "FILE", global = true)]
    pub mail_in_log: Option<PathBuf>,

    /// What a reply must prove about its sender before it may act: `none` (the reply key and
    /// the From address), or `dmarc`: also an `Authentication-Results` header written by
    /// TURNPOST_INBOUND_AUTHSERV_ID saying `dmarc=pass`, or `dkim=pass` for the From's domain.
    #[arg(long, env = "TURNPOST_INBOUND_REQUIRE_AUTH", default_value = "none", global = true)]
    pub inbound_require_auth: InboundAuth,

    /// The authserv-id of the mail server whose `Authentication-Results` headers are trusted
    /// (the receiving MTA's, e.g. `mx.example.org`); it must remove headers with this id that
    /// arrive from outside (RFC 8601, section 5). Needed by TURNPOST_INBOUND_REQUIRE_AUTH=dmarc.
    #[arg(long, env = "TURNPOST_INBOUND_AUTHSERV_ID", global = true)]
    pub inbound_authserv_id: Option<String>,

    /// Networks webhooks may reach although they are loopback, private (RFC 1918, ULA),
    /// link-local, CGNAT, multicast or this server's own address: a comma-separated list of
    /// addresses and networks (`10.0.0.0/8,fd00::/8`). Empty: only public addresses.
    #[arg(long, env = "TURNPOST_OUTBOUND_ALLOW", default_value = "", global = true)]
    pub outbound_allow: outbound_allow::OutboundAllow,

    /// Let webhooks use plain http:// URLs (otherwise https:// only), e.g. for an ntfy server
    /// on a private network.
    #[arg(
        long,
        env = "TURNPOST_OUTBOUND_ALLOW_HTTP",
        default_value_t = false,
        action = Set,
        global = true
    )]
    pub outbound_allow_http: bool,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// One line of text per event.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// What an inbound reply must prove about its sender (`TURNPOST_INBOUND_REQUIRE_AUTH`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum InboundAuth {
    /// The reply key and the From address only.
    #[default]
    None,
    /// Also a trusted `Authentication-Results` header: `dmarc=pass`, or `dkim=pass` for the
    /// From's domain.
    Dmarc,
}

impl std::str::FromStr for InboundAuth {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(Self::None),
            "dmarc" => Ok(Self::Dmarc),
            _ => Err(format!("`{text}`: expected none or dmarc")),
        }
    }
}

/// Where the data lives, resolved from `DATABASE_URL` and the data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseTarget {
    /// A PostgreSQL connection URL.
    Postgres(String),
    /// An SQLite database file.
    Sqlite(PathBuf),
}

/// A configuration value that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `DATABASE_URL` is neither postgres:// nor sqlite://.
    #[error(
        "database_url (DATABASE_URL) must start with postgres://, postgresql:// or sqlite:// (got {0})"
    )]
    DatabaseScheme(String),
    /// `SMTP_URL` cannot be used.
    #[error("smtp_url (SMTP_URL): {0}")]
    Smtp(String),
    /// `TURNPOST_PUBLIC_URL` is not an http(s) URL.
    #[error("public_url (TURNPOST_PUBLIC_URL) must be an http:// or https:// URL (got {0})")]
    PublicUrl(String),
    /// `TURNPOST_MAIL_FROM` is not a mailbox.
    #[error("mail_from (TURNPOST_MAIL_FROM) is not an email address: {0}")]
    MailFrom(String),
    /// `TURNPOST_REPLY_ADDRESS` (or the sender it defaults from) cannot be used.
    #[error("reply_address (TURNPOST_REPLY_ADDRESS): {0}")]
    Reply(String),
    /// `TURNPOST_IMAP_URL` cannot be used.
    #[error("{0}")]
    Imap(String),
    /// `TURNPOST_INBOUND_REQUIRE_AUTH` lacks what it needs.
    #[error("{0}")]
    InboundAuth(String),
    /// Some numeric setting is out of range.
    #[error("{0}")]
    Range(String),
}

impl Config {
    /// Settings for tests and embedding: everything at its default, listening on port 0 of
    /// 127.0.0.1.
    #[must_use]
    pub fn for_tests(data_dir: PathBuf) -> Self {
        Self {
            listen: "127.0.0.1:0".to_owned(),
            data_dir,
            database_url: None,
            smtp_url: None,
            smtp_allow_plain: false,
            mail_from: "turnpost <turnpost@localhost>".to_owned(),
            public_url: Some("http://127.0.0.1:8080".to_owned()),
            open_signup: true,
            outbox_max_attempts: 10,
            outbox_retry_base_ms: 100,
            outbox_retry_max_ms: 1_000,
            outbox_poll_ms: 50,
            outbox_sessions: 4,
            outbox_lease_ms: 30_000,
            mail_composers: None,
            // Tests share a busy machine with each other and with Chromium: a starved
            // low-priority mail thread is caught up within two seconds, well inside the time
            // a test waits for a mail.
            mail_catch_up_ms: 2_000,
            smtp_utf8: false,
            rate_limit_per_email: 1_000,
            rate_limit_per_client: 10_000,
            challenges_per_hour: 10_000,
            challenges_received_per_hour: 10_000,
            trusted_proxies: TrustedProxies::default(),
            proxy_header: ProxyHeader::default(),
            request_body_timeout_ms: 10_000,
            sweep_interval_ms: 100,
            bot_poll_ms: 50,
            bot_games_per_account: 5,
            streams_per_account: 8,
            streams_per_process: 20_000,
            event_retention_hours: 48,
            db_pool_size: 4,
            reply_address: None,
            imap_url: None,
            imap_allow_plain: false,
            imap_poll_ms: 200,
            imap_done_folder: None,
            mail_answers_per_hour: 1_000,
            log_format: LogFormat::Text,
            mail_in_log: None,
            lmtp_listen: None,
            metrics: false,
            inbound_require_auth: InboundAuth::None,
            inbound_authserv_id: None,
            outbound_allow: outbound_allow::OutboundAllow::default(),
            outbound_allow_http: false,
        }
    }

    /// Checks every value of its own that can be checked without touching the network (what
    /// mail in reads is checked by `crate::inbound::settings::check`).
    ///
    /// # Errors
    /// The first [`ConfigError`] found.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.database_target()?;
        if let Some(smtp) = &self.smtp_url {
            validate_smtp_url(smtp, self.smtp_allow_plain)?;
        }
        self.public_base_url()?;
        self.mail_from
            .parse::<lettre::message::Mailbox>()
            .map_err(|e| ConfigError::MailFrom(e.to_string()))?;
        if self.outbox_max_attempts == 0 {
            return Err(ConfigError::Range(
                "outbox_max_attempts (TURNPOST_OUTBOX_MAX_ATTEMPTS) must be at least 1".into(),
            ));
        }
        if !(1..=64).contains(&self.outbox_sessions) {
            return Err(ConfigError::Range(
                "outbox_sessions (TURNPOST_OUTBOX_SESSIONS) must be between 1 and 64".into(),
            ));
        }
        if self
            .mail_composers
            .is_some_and(|threads| !(1..=64).contains(&threads))
        {
            return Err(ConfigError::Range(
                "mail_composers (TURNPOST_MAIL_COMPOSERS) must be between 1 and 64".into(),
            ));
        }
        if self.request_body_timeout_ms == 0 {
            return Err(ConfigError::Range(
                "request_body_timeout_ms (TURNPOST_REQUEST_BODY_TIMEOUT_MS) must be at least 1"
                    .into(),
            ));
        }
        if self.outbox_lease_ms < 100 {
            return Err(ConfigError::Range(
                "outbox_lease_ms (TURNPOST_OUTBOX_LEASE_MS) must be at least 100".into(),
            ));
        }
        if self.rate_limit_per_email == 0
            || self.rate_limit_per_client == 0
            || self.challenges_per_hour == 0
            || self.challenges_received_per_hour == 0
        {
            return Err(ConfigError::Range("rate limits (rate_limit_per_email, rate_limit_per_client, challenges_per_hour, challenges_received_per_hour) must be at least 1".into()));
        }
        if self.db_pool_size == 0 {
            return Err(ConfigError::Range(
                "db_pool_size (TURNPOST_DB_POOL_SIZE) must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The database to use.
    ///
    /// # Errors
    /// [`ConfigError::DatabaseScheme`] for an unknown URL scheme.
    pub fn database_target(&self) -> Result<DatabaseTarget, ConfigError> {
        match &self.database_url {
            None => Ok(DatabaseTarget::Sqlite(self.data_dir.join("turnpost.db"))),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Ok(DatabaseTarget::Postgres(url.clone()))
            }
            Some(url) => match url
                .strip_prefix("sqlite://")
                .or_else(|| url.strip_prefix("sqlite:"))
            {
                Some(path) if !path.is_empty() => Ok(DatabaseTarget::Sqlite(PathBuf::from(path))),
                _ => Err(ConfigError::DatabaseScheme(redact_url(url))),
            },
        }
    }

    /// The public base URL without a trailing slash.
    ///
    /// # Errors
    /// [`ConfigError::PublicUrl`] if it is not http(s).
    pub fn public_base_url(&self) -> Result<String, ConfigError> {
        let raw = self
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen));
        let parsed = url::Url::parse(&raw).map_err(|_| ConfigError::PublicUrl(raw.clone()))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(ConfigError::PublicUrl(raw));
        }
        Ok(raw.trim_end_matches('/').to_owned())
    }

    /// The domain used in Message-IDs: the public URL's host.
    #[must_use]
    pub fn message_id_domain(&self) -> String {
        self.public_base_url()
            .ok()
            .and_then(|u| url::Url::parse(&u).ok())
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_else(|| "turnpost.invalid".to_owned())
    }

    /// Threads composing game mail: `mail_composers`, else one per CPU.
    #[must_use]
    pub fn composer_threads(&self) -> usize {
        self.mail_composers
            .and_then(|threads| usize::try_from(threads).ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
            .max(1)
    }

    /// The mail side's bound on waiting (`mail_catch_up_ms`; zero: none).
    #[must_use]
    pub fn mail_catch_up(&self) -> Duration {
        Duration::from_millis(self.mail_catch_up_ms)
    }

    /// Outbox retry timing.
    #[must_use]
    pub fn outbox_settings(&self) -> OutboxSettings {
        OutboxSettings {
            max_attempts: self.outbox_max_attempts,
            retry_base: Duration::from_millis(self.outbox_retry_base_ms),
            retry_max: Duration::from_millis(
                self.outbox_retry_max_ms.max(self.outbox_retry_base_ms),
            ),
            poll_interval: Duration::from_millis(self.outbox_poll_ms.max(10)),
            sessions: usize::try_from(self.outbox_sessions).unwrap_or(1).max(1),
            lease: Duration::from_millis(self.outbox_lease_ms.max(100)),
        }
    }
}

/// Retry timing of the outbox (read by the mail worker, `crate::mail`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxSettings {
    /// Attempts before a mail is dead-lettered.
    pub max_attempts: u32,
    /// Delay after the first failure; doubles each time.
    pub retry_base: Duration,
    /// Longest delay.
    pub retry_max: Duration,
    /// How often the worker looks for due rows.
    pub poll_interval: Duration,
    /// SMTP sessions sending at once, each over its own reused connection.
    pub sessions: usize,
    /// How long a claim on a row lasts unless renewed (the worker renews it while it sends);
    /// after a crash the row is due again this long after the last renewal.
    pub lease: Duration,
}

impl OutboxSettings {
    /// Delay before the next attempt after `failures` failed attempts (1-based).
    #[must_use]
    pub fn backoff(&self, failures: u32) -> Duration {
        let exponent = failures.saturating_sub(1).min(30);
        let delay = self.retry_base.saturating_mul(1u32 << exponent);
        delay.min(self.retry_max)
    }
}

/// Checks an `SMTP_URL`: smtps://, or smtp:// with `tls=required`, or plain smtp:// to loopback
/// (any host when `allow_plain`).
///
/// # Errors
/// [`ConfigError::Smtp`] saying what is wrong, with the password removed.
pub fn validate_smtp_url(raw: &str, allow_plain: bool) -> Result<(), ConfigError> {
    let url =
        url::Url::parse(raw).map_err(|e| ConfigError::Smtp(format!("{e}: {}", redact_url(raw))))?;
    let host = url
        .host_str()
        .ok_or_else(|| ConfigError::Smtp(format!("no host in {}", redact_url(raw))))?;
    match url.scheme() {
        "smtps" => Ok(()),
        "smtp" => {
            let tls_required = url
                .query_pairs()
                .any(|(k, v)| k == "tls" && v == "required");
            if tls_required || allow_plain || is_loopback_host(host) {
                Ok(())
            } else {
                Err(ConfigError::Smtp(format!(
                    "plain smtp:// is allowed only to a loopback host; use smtps:// or add ?tls=required ({})",
                    redact_url(raw)
                )))
            }
        }
        other => Err(ConfigError::Smtp(format!(
            "unknown scheme {other}:// (use smtps:// or smtp://)"
        ))),
    }
}

fn is_loopback_host(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A URL with its password replaced by `***`, for logs and error messages.
#[must_use]
pub fn redact_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(mut url) => {
            if url.password().is_some() {
                // Setting a password fails only for URLs that cannot have one.
                let _ = url.set_password(Some("***"));
            }
            url.to_string()
        }
        Err(_) => "<unparsable URL>".to_owned(),
    }
}

/// Describes the database for the startup line, without secrets.
#[must_use]
pub fn describe_database(target: &DatabaseTarget) -> String {
    match target {
        DatabaseTarget::Postgres(url) => format!("postgres ({})", redact_url(url)),
        DatabaseTarget::Sqlite(path) => format!("sqlite ({})", display_path(path)),
    }
}

fn display_path(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls() {
        assert!(validate_smtp_url("smtps://u:p@mail.example.org", false).is_ok());
        assert!(validate_smtp_url("smtp://mail.example.org:587?tls=required", false).is_ok());
        assert!(validate_smtp_url("smtp://127.0.0.1:2525", false).is_ok());
        assert!(validate_smtp_url("smtp://localhost:2525", false).is_ok());
        assert!(validate_smtp_url("smtp://[::1]:2525", false).is_ok());
        assert!(validate_smtp_url("smtp://mail.example.org", false).is_err());
        assert!(validate_smtp_url("smtp://mailpit:1025", true).is_ok());
        assert!(validate_smtp_url("http://mail.example.org", false).is_err());
    }

    #[test]
    fn secrets_are_redacted() {
        let shown = describe_database(&DatabaseTarget::Postgres(
            "postgres://u:hunter2@db/x".into(),
        ));
        assert!(!shown.contains("hunter2"), "{shown}");
        let err = validate_smtp_url("smtp://u:hunter2@mail.example.org", false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            !err.contains("hunter2") && err.contains("loopback"),
            "{err}"
        );
    }

    #[test]
    fn database_targets() {
        let mut config = Config::for_tests(PathBuf::from("/data"));
        assert_eq!(
            config.database_target().ok(),
            Some(DatabaseTarget::Sqlite(PathBuf::from("/data/turnpost.db")))
        );
        config.database_url = Some("sqlite://./x.db".into());
        assert_eq!(
            config.database_target().ok(),
            Some(DatabaseTarget::Sqlite(PathBuf::from("./x.db")))
        );
        config.database_url = Some("mysql://x".into());
        assert!(config.database_target().is_err());
    }
}
