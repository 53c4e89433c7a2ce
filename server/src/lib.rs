//! turnpost-server: the HTTP API (actix-web), storage on PostgreSQL or SQLite (diesel), and mail
//! through a transactional outbox (lettre).
//!
//! `main.rs` only parses the command line; everything else is here so that tests and later
//! features can build an [`app::Application`] on port 0.
//!
//! Seams for new features:
//! - a route: a file in [`routes`], registered in [`routes::configure`] with
//!   [`routes::resource`] (wrong methods get 405); authenticate with the
//!   [`auth::Authenticated`] extractor; fail with [`ApiError`]; run storage work through
//!   `routes::with_conn` (a pooled connection on the blocking pool);
//! - storage: tables in `migrations/{postgres,sqlite}` and [`db::schema`] (a test checks they
//!   agree), queries in a file under [`db`], each domain operation in one
//!   [`transaction::write`];
//! - mail: [`mail::enqueue`] on the caller's connection inside that transaction, then
//!   `wake.notify_one()` after commit ([`accounts::MailContext`]); what a mail says is composed
//!   by a pure function in [`mail::compose`] (game mails) or [`mail::templates`] (sign-in codes);
//!   game events gather the composers' inputs in [`games::notify`];
//! - tests: `server/tests/common` has `TestApp` (server on port 0 with its own database and SMTP
//!   sink), `TestDb` (fresh PostgreSQL or SQLite database, dropped after) and `both_backends!`.

mod access_log;
pub mod accounts;
pub mod app;
pub mod auth;
pub mod cli;
pub mod clocks;
pub mod config;
pub mod db;
pub mod error;
pub mod games;
pub mod mail;
pub mod notifications;
pub mod openapi;
pub mod ratelimit;
pub mod routes;
pub mod secrets;
pub mod sweeps;
pub mod transaction;
pub mod validate;

pub use app::Application;
pub use config::Config;
pub use error::ApiError;
