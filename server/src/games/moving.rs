//! `POST /v1/games/{id}/moves`: one transaction locks the game, checks seat and ply, resolves
//! the move with the engine, appends it, plays any forced moves that follow (the engine says
//! which: a `pass` with no other move), updates the cached position and status, and queues the
//! mails. Commit, then answer.

use turnpost_shared::api::{GameView, MessageAction, PlayMoveRequest};
use turnpost_shared::play::TimeoutMode;
use turnpost_shared::AnyGame;

use super::conditional;
use super::event::{self as events, GameEvent};
use super::messages;
use super::played_move::{advance, Played};
use super::{forced, frame, view, Actor, GameError, GameStatus, GameWithSeats};
use crate::db::games as q;
use crate::db::games::MoveRow;
use crate::db::{self, move_write, DbConnection, DbError};

/// The current game for `viewer`, boxed for an error that carries it.
fn current_view(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    viewer: i64,
) -> Result<Box<GameView>, DbError> {
    Ok(Box::new(view::view_of(conn, loaded, viewer)?))
}

/// Whether `text` means the stored move `stored` in the position it was played in.
fn same_move(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    stored: &MoveRow,
    text: &str,
) -> Result<bool, DbError> {
    if stored.notation.eq_ignore_ascii_case(text.trim()) {
        return Ok(true);
    }
    // Another spelling: replay the record to that ply and resolve the text there.
    let options = super::stored_options(&loaded.game)?;
    let kind = loaded.game.kind;
    let earlier: Vec<String> = q::moves(conn, loaded.game.id)?
        .into_iter()
        .take_while(|m| m.ply < stored.ply)
        .map(|m| m.notation)
        .collect();
    let position = AnyGame::new(kind, &options)
        .map_err(|e| DbError::Corrupt(format!("game {}: {e}", loaded.game.id)))?
        .replay(&earlier)
        .map_err(|e| DbError::Corrupt(format!("game {}: {e}", loaded.game.id)))?;
    Ok(position
        .canonical_move(text)
        .is_ok_and(|canonical| canonical == stored.notation))
}

/// Plays a move for `actor`. An identical retry of a recorded move answers like the first
/// time.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `LeftGame` (the player left; a bot may play the
/// seat on), `NotYourTurn`; `StalePly`, `MoveTaken`,
/// `NotStarted`, `GameOver` (with the current game; also when the mover's time ran out in an
/// `auto` game, which ends it on time, committed); `Illegal` with the engine's error;
/// `BadMessage` for a message too long (nothing played); storage failures.
pub fn play(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    request: &PlayMoveRequest,
) -> Result<GameView, GameError> {
    // A refused message plays nothing: it is read before the game is.
    let message = messages::cleaned(request.message.as_deref())?;
    let outcome = frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.id;
        // Who plays: the seat's player, or the bot playing the seat on for a player who left.
        let mover = actor.account_id();
        let ply = i32::try_from(request.ply).unwrap_or(i32::MAX);
        let current = loaded.game.ply;
        if ply < current {
            if let Some(stored) = q::move_at(conn, game_id, ply)? {
                if stored.seat == seat
                    && stored.account_id == Some(mover)
                    && same_move(conn, loaded, &stored, &request.notation)?
                {
                    return Ok(Outcome::Played(current_view(conn, loaded, me)?, None));
                }
            }
            return Err(GameError::MoveTaken {
                current,
                asked: ply,
                game: current_view(conn, loaded, me)?,
            });
        }
        if ply > current {
            return Err(GameError::StalePly {
                current,
                asked: ply,
                game: current_view(conn, loaded, me)?,
            });
        }
        match loaded.game.status {
            GameStatus::Active => {}
            GameStatus::Invited => {
                return Err(GameError::NotStarted {
                    game_id,
                    game: current_view(conn, loaded, me)?,
                })
            }
            other @ (GameStatus::Finished | GameStatus::Cancelled) => {
                return Err(GameError::GameOver {
                    message: format!("game {game_id} is {other}"),
                    game: current_view(conn, loaded, me)?,
                })
            }
        }
        // The sweeper runs every so often; a deadline is exact all the same.
        if let Some(deadline) = loaded
            .game
            .deadline_at
            .filter(|d| loaded.game.timeout_mode == TimeoutMode::Auto && *d <= db::now())
        {
            let late = loaded.game.to_move.unwrap_or_default();
            super::ending::time_out(conn, loaded)?;
            if loaded.game.status == GameStatus::Active {
                return Ok(Outcome::TimedOut {
                    message: format!(
                        "seat {late} ran out of time at {} and left game {game_id}, which goes \
                         on at ply {}; seat {} to move",
                        db::rfc3339(deadline),
                        loaded.game.ply,
                        loaded.game.to_move.unwrap_or_default()
                    ),
                    game: current_view(conn, loaded, me)?,
                    over: false,
                });
            }
            return Ok(Outcome::TimedOut {
                message: format!(
                    "seat {late} ran out of time at {}; game {game_id} ended on time",
                    db::rfc3339(deadline)
                ),
                game: current_view(conn, loaded, me)?,
                over: true,
            });
        }
        loaded.require_playing(seat, actor)?;
        if loaded.game.to_move != Some(seat) {
            return Err(GameError::NotYourTurn {
                to_move: loaded.game.to_move.unwrap_or_default(),
                seat,
            });
        }
        let engine = super::engine(&loaded.game)?;
        let (after, canonical) = engine.play(&request.notation).map_err(GameError::Illegal)?;
        let now = db::now();
        let (position, next_ply, forced) = forced::forced_rows(game_id, after, ply + 1, now);
        let mut rows = vec![MoveRow {
            game_id,
            ply,
            seat,
            account_id: Some(mover),
            notation: canonical.clone(),
            played_at: now,
            prepared: false,
        }];
        rows.extend(forced);
        let mut played = Played {
            position,
            rows,
            state: loaded.game.state(),
            now,
            lengths: None,
        };
        advance(conn, loaded, seat, &mut played, next_ply)?;
        // The opponent's conditional answers come in this same transaction.
        conditional::answer(conn, loaded, &engine, (seat, ply, &canonical), &mut played)?;
        let Played {
            position,
            rows: played,
            state,
            now,
            ..
        } = played;
        let event = if state.status == GameStatus::Finished {
            GameEvent::GameOver
        } else {
            GameEvent::Turn
        };
        let last = move_write::write_move(
            conn,
            game_id,
            &played,
            &state,
            &events::to_record(loaded, event),
            super::LAST_MOVES,
        )?;
        messages::record(
            conn,
            loaded,
            (seat, mover),
            ply,
            MessageAction::Move,
            message.as_deref(),
        )?;
        if state.status == GameStatus::Finished {
            // After the moves are written: whether every seat moved decides an abort.
            super::rating_update::rate_ended(conn, loaded)?;
        }
        let mut shown = view::game_view(loaded, &position, &last, me, now);
        super::rating::annotate(conn, loaded, &mut shown, me)?;
        Ok(Outcome::Played(Box::new(shown), Some(loaded.game.kind)))
    })?;
    match outcome {
        Outcome::Played(view, recorded) => {
            if let Some(kind) = recorded {
                crate::metrics::move_played(kind.name());
            }
            tracing::info!(
                game = game_id,
                moves = view.ply,
                to_move = view.to_move,
                status = %view.status,
                "move played"
            );
            Ok(*view)
        }
        Outcome::TimedOut {
            message,
            game,
            over,
        } => {
            if over {
                tracing::info!(game = game_id, "move too late: the game ended on time");
                Err(GameError::GameOver { message, game })
            } else {
                tracing::info!(game = game_id, "move too late: the seat left on time");
                Err(GameError::LeftOnTime { message, game })
            }
        }
    }
}

/// What a move request did, committed either way.
enum Outcome {
    /// The move was played (or was already played by this same request), with the game's kind
    /// when this request recorded it (for the moves counter; a retry is not counted again).
    Played(Box<GameView>, Option<turnpost_shared::GameKind>),
    /// The deadline had passed in an `auto` game: the seat to move left on time instead.
    TimedOut {
        /// Why.
        message: String,
        /// The game as it stands.
        game: Box<GameView>,
        /// Whether that ended the game (two seats were playing) or it goes on without the
        /// seat (three or more).
        over: bool,
    },
}
