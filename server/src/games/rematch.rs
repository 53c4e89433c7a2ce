//! Rematch: after a game ends, any of its players challenges the same players again to the
//! same kind, options and clock, with the seats rotated (seat 1's player moves to the last
//! seat, everyone else up one). It is an ordinary challenge the others accept as usual; a
//! game has one rematch, so asking again answers that one.

use turnpost_shared::api::{CreateGameRequest, GameView, OptionValue};

use super::challenge::{self, Challenge};
use super::{dice, frame, shown_status, view, Actor, GameError, GameStatus, GameWithSeats};
use crate::db::{self, rematches, DbConnection};

/// What a rematch of a game comes to.
#[derive(Debug)]
pub enum Rematch {
    /// The game's rematch was made before: the challenge as the caller sees it.
    Made(Box<GameView>),
    /// The challenge to make, checked ([`make`] it once the channel charged its limits).
    ToMake(Box<Challenge>),
}

/// Checks a rematch of finished game `game_id` for the actor, one of its players.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotFinished`; what [`challenge::check`] refuses
/// (a player who went away since: `UnknownPlayer`); storage failures.
pub fn check(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    bot_games_cap: challenge::BotGamesCap,
) -> Result<Rematch, GameError> {
    let request = frame::read(conn, |conn| {
        let loaded = GameWithSeats::load(conn, game_id, false)?;
        loaded.require_seat(actor)?;
        let status = shown_status(&loaded.game, db::now());
        if status != GameStatus::Finished {
            return Err(GameError::NotFinished { game_id, status });
        }
        if let Some(rematch) = rematches::of_game(conn, game_id)? {
            let view = view::load_view(conn, rematch, actor.account_id())?;
            return Ok(Err(view));
        }
        Ok(Ok(request_of(&loaded)?))
    })?;
    match request {
        Err(view) => Ok(Rematch::Made(Box::new(view))),
        Ok(request) => {
            let mut checked = challenge::check(conn, actor, &request, bot_games_cap)?;
            checked.rematch_of(game_id);
            Ok(Rematch::ToMake(Box::new(checked)))
        }
    }
}

/// The challenge of a rematch of `loaded`: same kind, options (without the drawn dice seed:
/// the rematch draws its own), clock and rules on time and on leaving, seats rotated.
fn request_of(loaded: &GameWithSeats) -> Result<CreateGameRequest, GameError> {
    let game = &loaded.game;
    let options = dice::without_seed(&super::stored_options(game)?);
    let mut seats: Vec<String> = loaded.seats.iter().map(|(_, a)| a.name.clone()).collect();
    seats.rotate_left(1);
    Ok(CreateGameRequest {
        kind: game.kind,
        options: options
            .iter()
            .map(|(key, value)| (key.to_owned(), OptionValue::Text(value.to_owned())))
            .collect(),
        seats,
        clock: game.clock.clone(),
        timeout: Some(game.timeout_mode),
        on_leave: Some(game.on_leave),
        rated: Some(game.rated),
    })
}

/// Makes a checked rematch; when another player's rematch of the same game was made first,
/// answers that one.
///
/// # Errors
/// What [`challenge::create`] refuses; storage failures.
pub fn make(
    conn: &mut DbConnection,
    actor: &Actor,
    checked: &Challenge,
    game_id: i64,
) -> Result<GameView, GameError> {
    match challenge::create(conn, actor, checked) {
        Err(GameError::Conflict) => frame::read(conn, |conn| {
            let rematch = rematches::of_game(conn, game_id)?.ok_or(GameError::Conflict)?;
            view::load_view(conn, rematch, actor.account_id())
        }),
        made => made,
    }
}
