//! turnpost-server: the HTTP API (actix-web), storage on PostgreSQL or SQLite (diesel), and mail
//! through a transactional outbox (lettre).
//!
//! `main.rs` only parses the command line; everything else is here so that tests and later
//! features can build an [`app::Application`] on port 0.

pub mod accounts;
pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod db;
pub mod error;
pub mod games;
pub mod jobs;
pub mod mail;
pub mod openapi;
pub mod ratelimit;
pub mod routes;
pub mod secrets;
pub mod validate;

pub use app::Application;
pub use config::Config;
pub use error::ApiError;
