//! `GET /v1/games/{id}/record`: the game as a plain-text [`GameRecord`].

use turnpost_shared::GameRecord;

use super::{dice, shown_status, stored_options, GameError, GameStatus, GameWithSeats};
use crate::db::games as q;
use crate::db::games::MoveRow;
use crate::db::{self, DbConnection};

/// The record of a game: header (kind, options, the seed's commitment, players and the bots
/// that played seats on, dates, result; the seed and placings once over) and moves (with the
/// departure lines of seats that left, at their ply: `resign 2`, or `resign 2 bot` when a bot
/// took the seat over).
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn record(conn: &mut DbConnection, game_id: i64) -> Result<GameRecord, GameError> {
    let loaded = GameWithSeats::load(conn, game_id, false)?;
    let moves = q::moves(conn, game_id)?;
    record_of(&loaded, &moves)
}

/// The record of a game already read with its moves (see [`record`]).
///
/// # Errors
/// Storage failures (stored options the engine cannot read).
pub fn record_of(loaded: &GameWithSeats, moves: &[MoveRow]) -> Result<GameRecord, GameError> {
    let game = &loaded.game;
    let options = stored_options(game)?;
    let mut headers = vec![
        ("Game".to_owned(), game.id.to_string()),
        ("Kind".to_owned(), game.kind.to_string()),
        (
            "Options".to_owned(),
            dice::shown_options(game, &options).to_string(),
        ),
    ];
    // The commitment from the start; the seed itself once the game is finished.
    if let Some(commitment) = dice::commitment(&options) {
        headers.push(("Seed-SHA256".to_owned(), commitment));
    }
    if let Some(seed) = options
        .get(dice::SEED)
        .filter(|_| dice::seed_revealed(game))
    {
        headers.push(("Seed".to_owned(), seed.to_owned()));
    }
    for (seat, account) in &loaded.seats {
        headers.push((format!("Seat{}", seat.seat), account.name.clone()));
        // The bot that played the seat on after its player left (`on-leave=bot`); the
        // `... bot` line among the moves says when.
        if let Some(bot) = loaded.stand_in(seat.seat) {
            headers.push((format!("Seat{}-Bot", seat.seat), bot.name.clone()));
        }
    }
    if let Some(clock) = &game.clock {
        headers.push(("Clock".to_owned(), clock.clone()));
    }
    headers.push(("Created".to_owned(), db::rfc3339(game.created_at)));
    if let Some(at) = game.started_at {
        headers.push(("Started".to_owned(), db::rfc3339(at)));
    }
    if let Some(at) = game.finished_at {
        headers.push(("Finished".to_owned(), db::rfc3339(at)));
    }
    let status = shown_status(game, db::now());
    let result = match (&game.result, status) {
        (Some(result), _) => result.to_string(),
        (None, GameStatus::Active) => format!("ongoing {}", game.to_move.unwrap_or_default()),
        (None, other) => other.to_string(),
    };
    headers.push(("Result".to_owned(), result));
    if let Some(reason) = game.result_reason {
        headers.push(("Termination".to_owned(), reason.to_string()));
    }
    if let Some(outcome) = outcome(loaded) {
        headers.push(("Outcome".to_owned(), outcome));
    }
    // Every seat's final place, in seat order ("1 3 2"), once the game is over.
    let position = super::engine(game).ok();
    if let (_, Some(places)) =
        super::view::departures(game, loaded.seats.iter().map(|(s, _)| s), position.as_ref())
    {
        let places: Vec<String> = places.iter().map(ToString::to_string).collect();
        headers.push(("Placings".to_owned(), places.join(" ")));
    }
    Ok(GameRecord {
        headers,
        moves: moves.iter().map(|m| m.notation.clone()).collect(),
    })
}

/// The result for people, naming players: "anna won by resignation", "draw by agreement".
fn outcome(loaded: &GameWithSeats) -> Option<String> {
    let result = loaded.game.result.as_ref()?;
    let how = loaded
        .game
        .result_reason
        .map_or("", super::ResultReason::after_result);
    if result.is_draw() {
        return Some(format!("draw{how}"));
    }
    let names: Vec<String> = result
        .winners()
        .iter()
        .map(|seat| loaded.playing_name(*seat))
        .collect();
    Some(format!("{} won{how}", names.join(" and ")))
}
