//! The HTTP layer below `routes` and `web`: authentication extractors, storage work off the async
//! threads, challenges made within their hourly budgets, the one place domain errors become HTTP
//! answers, the application state, the route table that registers API routes and pages alike,
//! JSON object bodies and rate limits.

pub mod auth;
pub mod blocking;
pub mod body_follows;
pub mod budgeted_challenge;
pub mod budgeted_tournament;
pub mod error;
pub mod json_object;
pub mod page_size;
pub mod path_call;
pub mod ratelimit;
pub mod route_table;
pub mod state;
