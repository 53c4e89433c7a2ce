//! Tournaments under `/v1/tournaments`: create, list, show, join, withdraw and start early.

pub mod create;
pub mod join;
pub mod list;
pub mod show;
pub mod start;
pub mod withdraw;
