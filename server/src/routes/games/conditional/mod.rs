//! `/v1/games/{id}/conditional`: the caller's conditional moves (read, set, clear). One
//! handler per file.

pub mod clear;
pub mod set;
pub mod show;
