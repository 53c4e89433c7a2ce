//! `/v1/games…`: challenges, reading, moving, ending. One handler per file.

pub mod accept;
pub mod board;
pub mod claim;
pub mod conditional;
pub mod create;
pub mod decline;
pub mod draw;
pub mod list;
pub mod moves;
pub mod play;
pub mod record;
pub mod rematch;
pub mod resign;
pub mod show;
