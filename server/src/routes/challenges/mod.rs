//! Open challenges under `/v1/challenges`: the list, and joining and leaving a seat.

pub mod join;
pub mod leave;
pub mod list;
