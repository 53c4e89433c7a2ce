//! turnpost-server: the HTTP API (actix-web), storage on PostgreSQL or SQLite (diesel), and mail
//! through a transactional outbox (lettre).
//!
//! `main.rs` only parses the command line; everything else is here so that tests and later
//! features can build an [`app::Application`] on port 0.
//!
//! Module map, top to bottom (a module imports only modules below it; the `layering` test and
//! the module-cycle check keep it so):
//! - start-up and channels: [`app`] (wires everything), [`cli`], `fallback` (answers that
//!   depend on whether a program or a person asks), [`routes`] (JSON under `/v1`), [`web`]
//!   (HTML pages), [`route_table`] (registers both), [`openapi`], [`auth`], [`blocking`]
//!   (storage work on the blocking pool), [`inbound`] (mail in), [`bots`], [`sweeps`];
//! - mail: [`notify`] decides every mail (game events, clock mail, answers to replies,
//!   account mail) and composes it ([`notify::compose`]); [`mail`] only delivers (outbox
//!   claims, SMTP, stored parts); [`background`] runs blocking work on low-priority threads;
//! - domain: [`games`] (the game service), [`accounts`], [`clocks`], [`notifications`]
//!   (preferences), [`play_link`], [`ratelimit`], [`validate`];
//! - below: [`mail_context`], [`state`], [`error`], [`transaction`], [`db`], [`config`].
//!
//! Seams for new features:
//! - a way to play (mail reply, web form, bot): call the game service in [`games`] with a
//!   [`games::Actor`]; every write runs in its one frame (lock, act, commit, wake the mail
//!   composer) and refusals are [`games::GameError`], mapped to HTTP only in [`error`];
//! - a route: a file in [`routes`] whose handler carries `#[utoipa::path(method, path = …)]`
//!   (the one place its method and path are written), and one line in [`routes::table`],
//!   which registers it with actix (HEAD with GET, wrong methods get 405) and in the OpenAPI
//!   document with the schemas of its bodies; a page is one line in [`web::table`], the same
//!   [`route_table::RouteTable`]; authenticate with the [`auth::Authenticated`] extractor;
//!   fail with [`ApiError`]; run storage work through [`blocking::with_conn`] (a pooled
//!   connection on the blocking pool);
//! - storage: tables in `migrations/{postgres,sqlite}` and [`db::schema`] (a test checks they
//!   agree), queries in a file under [`db`], each domain operation in one
//!   [`transaction::write`];
//! - mail: game writes record a [`games::GameEvent`] in their transaction (the game frame
//!   wakes the mail composer after commit), and [`notify::Composer`] composes its mail; other
//!   mail is decided and queued by a function of [`notify`] on the caller's connection inside
//!   that transaction, then `wake.notify_one()` after commit ([`mail_context::MailContext`]);
//!   what a mail says is composed by a pure function in [`notify::compose`]; the delivery
//!   worker ([`mail::OutboxWorker`]) only sends what is queued;
//! - tests: `server/tests/common` has `TestApp` (server on port 0 with its own database and SMTP
//!   sink), `TestDb` (fresh PostgreSQL or SQLite database, dropped after) and `both_backends!`.

mod access_log;
pub mod accounts;
pub mod app;
pub mod auth;
pub mod background;
pub mod blocking;
pub mod bots;
pub mod cli;
pub mod client_address;
pub mod clocks;
pub mod config;
pub mod connection_budget;
pub mod db;
pub mod error;
mod fallback;
pub mod games;
pub mod inbound;
mod json_object;
pub mod mail;
pub mod mail_context;
pub mod notify;
pub mod openapi;
pub mod play_link;
pub mod preferences;
pub mod private_files;
pub mod ratelimit;
pub mod reply_address;
pub mod request_body;
pub mod route_table;
pub mod routes;
pub mod secrets;
mod security_headers;
pub mod state;
pub mod sweeps;
pub mod transaction;
pub mod validate;
pub mod web;

pub use app::Application;
pub use config::Config;
pub use error::ApiError;
pub use state::AppState;
