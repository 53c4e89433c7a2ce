//! Kefren (João Pedro Neto, 2001): stones twirl around friendly pivots. The rules for
//! players are in `PLAYING.md`, the implementation's decisions in `RULES.md`.

mod board;
mod bot_policy;
mod cell;
mod game_impl;
mod illegal;
mod move_text;
mod moves;
mod position_text;
mod resolve;
mod twirl;
mod view;

pub use board::Kefren;
pub use cell::Cell as KefrenCell;
pub use illegal::KefrenIllegal;
pub use move_text::KefrenMoveText;
pub use moves::KefrenMove;
