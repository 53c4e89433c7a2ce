//! `turnpost engine bot`: the computer's move for a position, as canonical text.

use clap::Args;
use turnpost_shared::bot::{choose_move, BotLevel};

use super::engine_position::PositionArgs;
use crate::failure::Failure;
use crate::output::{print, print_json};

/// Which position, and how the bot thinks.
#[derive(Args, Debug)]
pub struct BotArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Strength 1 (instant) to 5 (up to a few seconds a move).
    #[arg(long, default_value = "3", value_name = "N")]
    pub level: BotLevel,
    /// The bot is deterministic: the same position, level and seed give the same move. This
    /// is the bot's own seed: a die game's `seed` option is never used to foresee rolls (the
    /// bot knows the roll of the turn in progress, as a player does).
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
}

/// Runs `turnpost engine bot`.
///
/// # Errors
/// See [`PositionArgs::game`]; exit 1 when the game is over; output errors.
pub fn run(args: &BotArgs, json: bool) -> Result<(), Failure> {
    let game = args.position.game()?;
    let mv = choose_move(&game, args.level, args.seed).map_err(Failure::refused)?;
    if json {
        print_json("move", &mv)?;
    } else {
        print(&format!("{mv}\n"))?;
    }
    Ok(())
}
