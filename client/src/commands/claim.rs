//! `turnpost claim ID`: claim a win on time.

use turnpost_shared::api::GameView;

use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost claim ID`: in a game with timeout mode `claim` whose player to move is past
/// the deadline, ends it as a loss on time for that player, and shows the finished game.
///
/// # Errors
/// A refusal (exit 1) with the server's reason when there is nothing to claim (the deadline
/// has not passed, the game ends by itself on time, it is your turn); network failures.
pub fn run(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let game: GameView = session.client.post_empty(&format!("/games/{id}/claim"))?;
    if json {
        return Ok(print_json("game", &game)?);
    }
    Ok(print(&format!(
        "Claimed the win on time in game #{}.\n\n{}",
        game.id,
        describe(&game)
    ))?)
}
