//! Computer opponents (issue 16): Monte Carlo tree search over any [`crate::Game`], guided by
//! each game's [`BotPolicy`] (implemented next to each engine, in its `bot_policy.rs`).

mod choose;
mod level;
mod policy;
mod portable_math;
mod rng;
mod search;

pub use choose::{
    analyse_typed, analyse_typed_knowing, choose_typed_move, random_typed_move, BotChoice, BotError,
};
pub use level::{BadBotLevel, BotLevel};
pub use policy::{final_values, two_player_values, BotPolicy, SeatValues, MAX_SEATS};
pub use portable_math::{logistic, portable_exp};
pub use rng::SplitMix64;
