//! Tournaments under `/v1/tournaments`: create, list, show, join and withdraw.

pub mod create;
pub mod join;
pub mod list;
pub mod show;
pub mod withdraw;
