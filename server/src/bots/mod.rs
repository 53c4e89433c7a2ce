//! Built-in bots as players: the accounts `bot-1` … `bot-5` and `bot` (level 3), made by a
//! migration, hold seats like anyone; a worker in every server process plays their moves
//! through the game service.
//!
//! - A challenge seats bots as accepted at once (`games::challenge`); one with bots only is
//!   refused.
//! - The [`BotWorker`] polls for games whose seat to move is a bot and shares them out to
//!   lanes by level (`lane`: quick levels never wait behind deep searches), each with its
//!   own low-priority threads (as many in all as the machine has cores, at least one per
//!   lane). A lane's threads take moves round-robin across the accounts that made the games,
//!   each account's longest-waiting game first (`fair_queue`), so one account's many games
//!   do not hold up another's. A thread claims the (game, ply) (a row in `bot_claims` with a
//!   unique key, so with several processes each move is computed once; a claim older than
//!   [`CLAIM_EXPIRY`] is taken over), computes the move outside any transaction, then plays it
//!   with the ply it was computed for: a stale ply means the game moved on, and the move is
//!   dropped.
//! - One account may have only so many bot games at once (`TURNPOST_BOT_GAMES_PER_ACCOUNT`,
//!   checked when a challenge is made, `games::challenge`).
//! - Bots never resign or offer draws. A draw offer is accepted only when the bot's own
//!   evaluation of its chances is below [`DRAW_ACCEPT_BELOW`] (a quick level-1 search), and
//!   declined otherwise.

/// The names of the built-in bot accounts, as the migration creates them.
pub const BOT_NAMES: [&str; 6] = ["bot-1", "bot-2", "bot-3", "bot-4", "bot-5", "bot"];

/// Whether `name_key` (a lower-cased account name) is a built-in bot's.
#[must_use]
pub fn is_bot_name(name_key: &str) -> bool {
    BOT_NAMES.contains(&name_key)
}

mod claim;
mod fair_queue;
mod lane;
mod worker;

pub use claim::{try_claim, CLAIM_EXPIRY};
pub use worker::{move_seed, BotWorker, DRAW_ACCEPT_BELOW};
