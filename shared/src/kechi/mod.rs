//! Kechi (Michael Marcus, 1999): stones split a total of steps along a criss-cross board, and
//! every cell a stone leaves is closed for good. See `RULES.md`.

mod bits;
mod board;
mod bot_policy;
mod cell;
mod game_impl;
mod generate;
mod geometry;
mod illegal;
mod move_text;
mod position_text;
mod resolve;
mod rules;
mod turn;
mod view;

pub use board::Kechi;
pub use cell::Cell as KechiCell;
pub use illegal::KechiIllegal;
pub use move_text::KechiMoveText;
pub use turn::{KechiTurn, StoneMove as KechiStoneMove};
