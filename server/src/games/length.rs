//! The length rules on the server (issue 48): a move that makes a position stand for the third
//! time, or that reaches the variant's move limit, ends the game drawn, in the move's own
//! transaction. The rules are shared's ([`PositionHistory`]), so the server, the CLI and the
//! bots agree; the history comes from replaying the stored record once per request.

use turnpost_shared::play::{DepartureText, LengthEnding, PositionHistory};
use turnpost_shared::AnyGame;

use super::GameWithSeats;
use crate::db::games as q;
use crate::db::games::MoveRow;
use crate::db::{DbConnection, DbError};

/// A game's history as a request carries it on: the position after the lines taken in, and
/// how many of the request's new rows have been taken in.
#[derive(Debug)]
pub(super) struct Lengths {
    position: AnyGame,
    history: PositionHistory,
    taken: usize,
}

impl Lengths {
    /// The history of the moves stored before this request's (`loaded`'s game, whose rows at
    /// ply `first_new` and later are the request's own, not stored yet).
    fn load(
        conn: &mut DbConnection,
        loaded: &GameWithSeats,
        first_new: i32,
    ) -> Result<Self, DbError> {
        let game_id = loaded.game.id;
        let lines: Vec<String> = q::moves(conn, game_id)?
            .into_iter()
            .take_while(|row| row.ply < first_new)
            .map(|row| row.notation)
            .collect();
        let start = super::start_engine(&loaded.game)?;
        let corrupt = |e: &dyn std::fmt::Display| DbError::Corrupt(format!("game {game_id}: {e}"));
        // Positions that never recur need no replay: only the moves are counted.
        if !start.positions_recur() {
            let history = PositionHistory::of_record(&start, &lines).map_err(|e| corrupt(&e))?;
            return Ok(Self {
                position: start,
                history,
                taken: 0,
            });
        }
        let cached = super::engine(&loaded.game)?;
        let (position, history) = match PositionHistory::replay(&start, &lines) {
            Ok((position, history)) if position.position_text() == cached.position_text() => {
                (position, history)
            }
            // A position set up by hand (a puzzle, a test) is not what the record replays to:
            // its earlier positions are unknown, its moves are counted.
            _ => {
                let moves = lines
                    .iter()
                    .filter(|line| !DepartureText::is_departure(line))
                    .count();
                let moves = u32::try_from(moves).unwrap_or(u32::MAX);
                (
                    cached.clone(),
                    PositionHistory::from_position(&cached, moves),
                )
            }
        };
        Ok(Self {
            position,
            history,
            taken: 0,
        })
    }

    /// Takes in `rows` past those already taken in (each played from the position before it);
    /// answers the ending the game has reached, if any, unless `now` (the position after every
    /// row) is over by the rules.
    fn take(&mut self, rows: &[MoveRow], now: &AnyGame) -> Result<Option<LengthEnding>, DbError> {
        let recur = self.position.positions_recur();
        for row in rows.get(self.taken..).unwrap_or_default() {
            if recur {
                self.position = self
                    .position
                    .play_line(&row.notation)
                    .map(|(next, _)| next)
                    .map_err(|e| {
                        DbError::Corrupt(format!(
                            "game {}: move {} `{}`: {e}",
                            row.game_id, row.ply, row.notation
                        ))
                    })?;
                self.history.after_line(&row.notation, &self.position);
            } else {
                // Never replayed: the position only tells whether the rules ended the game.
                self.history.after_line(&row.notation, now);
            }
            self.taken += 1;
        }
        // A record stored before the rules may be past an ending already: it ends now, with the
        // first ending it reached.
        Ok(self.history.ending().filter(|_| !now.status().is_over()))
    }
}

/// The ending the length rules give the game after the request's rows `rows` (all of them,
/// first first) left it at `now`; `lengths` keeps the history between calls in one request (a
/// move and the conditional answers after it).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for a stored record that does not replay.
pub(super) fn ending(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    lengths: &mut Option<Lengths>,
    rows: &[MoveRow],
    now: &AnyGame,
) -> Result<Option<LengthEnding>, DbError> {
    let lengths = match lengths {
        Some(lengths) => lengths,
        None => {
            let first_new = rows.first().map_or(loaded.game.ply, |row| row.ply);
            lengths.insert(Lengths::load(conn, loaded, first_new)?)
        }
    };
    lengths.take(rows, now)
}

/// The history of `game`'s stored moves, for a bot that must know the draw by repetition;
/// `None` for kinds whose positions never recur (nothing to know, nothing replayed).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for unreadable stored options or position.
pub fn history(
    conn: &mut DbConnection,
    game: &crate::db::games::Game,
) -> Result<Option<PositionHistory>, DbError> {
    let start = super::start_engine(game)?;
    if !start.positions_recur() {
        return Ok(None);
    }
    let lines: Vec<String> = q::moves(conn, game.id)?
        .into_iter()
        .map(|row| row.notation)
        .collect();
    // A position set up by hand (see `Lengths::load`) has no history the bot could use.
    let cached = super::engine(game)?.position_text();
    Ok(PositionHistory::replay(&start, &lines)
        .ok()
        .filter(|(position, _)| position.position_text() == cached)
        .map(|(_, history)| history))
}
