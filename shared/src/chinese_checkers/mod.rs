//! Chinese Checkers for 2, 3, 4 and 6 players, with multi-set play, inert pegs, long jumps and
//! the anti-spoiling rules (Masters Games rules, pbmserv notation). See `RULES.md`.

mod board;
mod bot_policy;
mod fast;
mod game_impl;
mod hole;
mod illegal;
mod left;
mod move_text;
mod moves;
mod points;
mod position_text;
mod resolve;
mod variant;
mod view;
mod win;

pub use board::ChineseCheckers;
pub use hole::Hole as ChineseCheckersHole;
pub use illegal::ChineseCheckersIllegal;
pub use move_text::ChineseCheckersMoveText;
pub use moves::ChineseCheckersMove;
