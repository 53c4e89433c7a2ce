//! turnpost-server: the HTTP API (actix-web), storage on PostgreSQL or SQLite (diesel), and mail
//! through a transactional outbox (lettre).
//!
//! `main.rs` only parses the command line; everything else is here so that tests and later
//! features can build an [`app::Application`] on port 0.
//!
//! Seams for new features:
//! - a way to play (mail reply, web form, bot): call the game service in [`games`] with a
//!   [`games::Actor`]; every write runs in its one frame (lock, act, commit, wake the mail
//!   worker) and refusals are [`games::GameError`], mapped to HTTP only in [`error`];
//! - a route: a file in [`routes`] whose handler carries `#[utoipa::path(method, path = …)]`
//!   (the one place its method and path are written), and one line in [`routes::table`],
//!   which registers it with actix (wrong methods get 405) and in the OpenAPI document;
//!   authenticate with the
//!   [`auth::Authenticated`] extractor; fail with [`ApiError`]; run storage work through
//!   `routes::with_conn` (a pooled connection on the blocking pool);
//! - storage: tables in `migrations/{postgres,sqlite}` and [`db::schema`] (a test checks they
//!   agree), queries in a file under [`db`], each domain operation in one
//!   [`transaction::write`];
//! - mail: game writes record a [`notices::GameEvent`] in their transaction (the game frame
//!   wakes the mail worker after commit), and the worker composes its mail;
//!   other mail goes through [`mail::enqueue`] on the caller's connection inside that
//!   transaction, then `wake.notify_one()` after commit ([`accounts::MailContext`]); who gets
//!   which game mail is decided in [`notices`]; what a mail says is composed by a pure function
//!   in [`mail::compose`] (game mails) or [`mail::templates`] (sign-in codes);
//! - tests: `server/tests/common` has `TestApp` (server on port 0 with its own database and SMTP
//!   sink), `TestDb` (fresh PostgreSQL or SQLite database, dropped after) and `both_backends!`.

mod access_log;
pub mod accounts;
pub mod app;
pub mod auth;
pub mod bots;
pub mod cli;
pub mod client_address;
pub mod clocks;
pub mod config;
pub mod connection_budget;
pub mod db;
pub mod error;
pub mod games;
pub mod inbound;
pub mod mail;
pub mod notices;
pub mod notifications;
pub mod openapi;
pub mod play_link;
pub mod private_files;
pub mod ratelimit;
pub mod request_body;
pub mod routes;
pub mod secrets;
pub mod state;
pub mod sweeps;
pub mod transaction;
pub mod validate;
pub mod web;

pub use app::Application;
pub use config::Config;
pub use error::ApiError;
pub use state::AppState;
