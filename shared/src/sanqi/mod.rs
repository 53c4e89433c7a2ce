//! SanQi (L. Lynn Smith, 2003): three neutral colours on a hexagonal board; First wants a
//! circle or a triangle of one colour, Second a line or a triangle. See `RULES.md`.

mod board;
mod bot_policy;
mod cell;
mod colour;
mod game_impl;
mod geometry;
mod illegal;
mod move_text;
mod moves;
mod patterns;
mod position_text;
mod resolve;
mod shape;
mod view;

#[cfg(test)]
mod tests;

pub use board::SanQi;
pub use cell::Cell as SanQiCell;
pub use colour::Colour as SanQiColour;
pub use illegal::SanQiIllegal;
pub use move_text::SanQiMoveText;
pub use moves::SanQiMove;
