//! turnpost-server: the HTTP API (actix-web), storage on PostgreSQL or SQLite (diesel), and mail
//! through a transactional outbox (lettre).
//!
//! `main.rs` only parses the command line; everything else is here so that tests and later
//! features can build an [`app::Application`] on port 0.
//!
//! Module map, top to bottom. A module imports only modules below it: no two files, and no two
//! sibling folders, import each other (`tests/tests/module_cycles.rs` checks it), and nothing
//! below the HTTP layer names an HTTP type (`server/tests/layering.rs`).
//! - start-up and operators: [`cli`] (the command tree and the operator's commands: `check`,
//!   `backup`, `copy-to` SQLite → PostgreSQL, `ratings rebuild`, and the database opened by
//!   commands that must never create one), [`app`] (wires everything: the database, the
//!   workers, the HTTP server and its per-request wrappers — access log, request metrics,
//!   security headers, request bodies, the connection budget, the OpenAPI document, answers
//!   that depend on whether a program or a person asks);
//! - the channels: [`routes`] (JSON under `/v1`, the live streams among them), [`web`] (HTML
//!   pages), [`live`] (the event log read for the streams: the open streams, the log's reader);
//! - [`http`]: the HTTP layer below them — authentication extractors, storage work on the
//!   blocking pool, every domain error → HTTP answer in one place, the application state, the
//!   route table (API routes and pages alike: HEAD with GET, 405 with `Allow`), JSON object
//!   bodies, rate limits;
//! - channels and workers: [`inbound`] (mail in; [`lmtp`] its listener for an MTA), [`bots`], [`sweeps`] (reminders, timeouts,
//!   digests), [`tournaments`] (entries, rounds, standings), [`ratings`] (after each rated
//!   game), [`accounts`] (sign-up, codes, tokens), [`browser_sessions`] (what a session cookie
//!   stands for);
//! - mail decisions: [`notify`] decides every mail (game events, clock mail, answers to mail
//!   replies, account mail) and composes it ([`notify::compose`]) on its composer threads;
//! - the game service: [`games`] (every operation on a game, one frame each; the turn clock and
//!   vacations), [`play_link`];
//! - below it: [`mail`] (delivery only: outbox claims, SMTP, stored parts), [`reply_address`]
//!   (reply-address templates and signed keys, written by `notify`, read by `inbound`),
//!   [`mail_context`], [`preferences`] (mail preferences and unsubscribe), [`clocks`]
//!   (deadline maths), `pairing` (tournament pairings and standings, pure), [`validate`],
//!   [`worker_threads`] (the workers' low-priority threads and the mail side's catch-up
//!   thread), [`db`] (tables, queries, and the transactions every domain operation runs in),
//!   [`secrets`], [`private_files`], [`config`] (settings from flags, environment and the TOML
//!   file; the client's address behind trusted proxies), [`metrics`] (this process's Prometheus
//!   counters, recorded from every layer).
//!
//! Seams for new features:
//! - a way to play (mail reply, web form, bot): call the game service in [`games`] with a
//!   [`games::Actor`]; every write runs in its one frame (lock, act, commit, wake the mail
//!   composer) and refusals are [`games::GameError`], mapped to HTTP only in [`http::error`];
//! - a route: a file in [`routes`] whose handler carries `#[utoipa::path(method, path = …)]`
//!   (the one place its method and path are written), and one line in [`routes::table`],
//!   which registers it with actix (HEAD with GET, wrong methods get 405) and in the OpenAPI
//!   document with the schemas of its bodies; a page is one line in [`web::table`], the same
//!   [`http::route_table::RouteTable`]; authenticate with the [`http::auth::Authenticated`]
//!   extractor; fail with [`ApiError`]; run storage work through [`http::blocking::with_conn`]
//!   (a pooled connection on the blocking pool);
//! - storage: tables in `migrations/{postgres,sqlite}` and [`db::schema`] (a test checks they
//!   agree), queries in a file under [`db`], each domain operation in one
//!   [`db::transaction::write_with`] (game writes in the game service's frame);
//! - events: game writes record a [`games::GameEvent`] in their transaction: a row of the event
//!   log (`game_events`), which stays after its mail is composed. Who is told of an event is
//!   one function, [`games::audience`]; every channel asks it. Each consumer reads the log from
//!   its own position ([`db::events::read_after`]; the mail composer marks each event composed),
//!   woken after every commit by the commit bell ([`db::commit_bell`], carried between
//!   PostgreSQL processes by `LISTEN`/`NOTIFY`, [`worker_threads::commit_listener`]). A new
//!   channel is a consumer: [`live`] (the streams) is one, `sweeps::RoundEnds` another;
//! - mail: [`notify::Composer`] composes each logged event's mail; other
//!   mail is decided and queued by a function of [`notify`] on the caller's connection inside
//!   that transaction, then `wake.notify_one()` after commit ([`mail_context::MailContext`]);
//!   what a mail says is composed by a pure function in [`notify::compose`]; the delivery
//!   worker ([`mail::OutboxWorker`]) only sends what is queued;
//! - tests: `server/tests/common` has `TestApp` (server on port 0 with its own database and SMTP
//!   sink), `TestDb` (fresh PostgreSQL or SQLite database, dropped after) and `both_backends!`.

pub mod accounts;
pub mod app;
pub mod bots;
pub mod browser_sessions;
pub mod cli;
pub mod clocks;
pub mod config;
pub mod db;
pub mod games;
pub mod http;
pub mod inbound;
pub mod live;
pub mod lmtp;
pub mod mail;
pub mod mail_context;
pub mod metrics;
pub mod notify;
mod pairing;
pub mod play_link;
pub mod preferences;
pub mod private_files;
pub mod push;
pub mod ratings;
pub mod reply_address;
pub mod routes;
pub mod secrets;
pub mod sweeps;
pub mod tournaments;
pub mod validate;
pub mod web;
pub mod webhooks;
pub mod worker_threads;

pub use app::Application;
pub use config::Config;
pub use http::error::ApiError;
pub use http::state::AppState;
pub use pairing::{
    check_record, pair_round, points_per_game, round_count, standings, Entrant, Format, HalfPoints,
    Pairing, PairingError, QuarterPoints, Standing, TournamentGame, TABLE_SEATS,
};
