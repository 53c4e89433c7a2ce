//! Ending a game by the players or the clock: resignation, agreed draws, losses on time.
//!
//! Resigning in a game of more than two seats ends it for everyone, as a shared win of the other
//! seats (the result line the engines use, `won 2 3`); the engines cannot drop a seat and play
//! on. Draw offers are for two-seat games; an offer stands until its maker moves again.

use turnpost_shared::{DrawAction, GameView};

use super::{frame, notify, view, Actor, GameError, GameResult, GameStatus, Loaded, ResultReason};
use crate::accounts::MailContext;
use crate::db::games as q;
use crate::db::{self, DbConnection, DbError};
use turnpost_shared::TimeoutMode;

fn require_active(loaded: &Loaded) -> Result<(), GameError> {
    if loaded.game.status == GameStatus::Active {
        Ok(())
    } else {
        Err(GameError::NotActive {
            game_id: loaded.game.id,
            status: super::shown_status(&loaded.game, db::now()),
        })
    }
}

/// Ends the game with `result` and `reason`, queues the game-over mails, answers the view.
fn finish(
    conn: &mut DbConnection,
    loaded: &mut Loaded,
    viewer: i64,
    result: GameResult,
    reason: ResultReason,
    ctx: &MailContext,
) -> Result<GameView, GameError> {
    close(conn, loaded, result, reason, ctx)?;
    Ok(view::view_of(conn, loaded, viewer)?)
}

/// The result when `loser` drops out: every other seat wins.
fn others_win(loaded: &Loaded, loser: i32) -> GameResult {
    GameResult::won(
        loaded
            .seats
            .iter()
            .map(|(s, _)| s.seat)
            .filter(|s| *s != loser),
    )
}

/// Ends a locked, active game whose seat to move ran out of time: a loss on time for that
/// seat (every other seat wins, as with a resignation), and the game-over mails.
///
/// # Errors
/// Storage failures.
pub fn time_out(
    conn: &mut DbConnection,
    loaded: &mut Loaded,
    ctx: &MailContext,
) -> Result<(), DbError> {
    let Some(loser) = loaded.game.to_move else {
        return Ok(());
    };
    let result = others_win(loaded, loser);
    close(conn, loaded, result, ResultReason::Timeout, ctx)
}

/// Claims the win on time in a `claim` game whose seat to move is past its deadline.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `NotClaimable` (the deadline has not
/// passed, the game ends by itself on time, or it is your own turn); storage failures.
pub fn claim(
    conn: &mut DbConnection,
    ctx: &MailContext,
    actor: &Actor,
    game_id: i64,
) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, ctx, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.id;
        require_active(loaded)?;
        if !view::claimable(loaded, me, db::now()) {
            let game = &loaded.game;
            let why = if game.timeout_mode != TimeoutMode::Claim {
                "this game ends by itself when time runs out (timeout mode auto)".to_owned()
            } else if Some(seat) == game.to_move {
                "it is your turn; only the other players can claim".to_owned()
            } else {
                match game.deadline_at {
                    Some(deadline) => {
                        format!("the seat to move has time until {}", db::rfc3339(deadline))
                    }
                    None => "the clock is not running".to_owned(),
                }
            };
            return Err(GameError::NotClaimable { game_id, why });
        }
        let loser = loaded.game.to_move.unwrap_or_default();
        let result = others_win(loaded, loser);
        finish(conn, loaded, me, result, ResultReason::Timeout, ctx)
    })
}

/// Ends the game with `result` and `reason` and queues the game-over mails.
fn close(
    conn: &mut DbConnection,
    loaded: &mut Loaded,
    result: GameResult,
    reason: ResultReason,
    ctx: &MailContext,
) -> Result<(), DbError> {
    let now = db::now();
    let mut state = loaded.game.state();
    state.status = GameStatus::Finished;
    state.result = Some(result);
    state.result_reason = Some(reason);
    state.to_move = None;
    state.draw_offered_by = None;
    state.finished_at = Some(now);
    state.last_activity_at = now;
    crate::clocks::stop(&mut state);
    q::save(conn, loaded.game.id, &state)?;
    loaded.game.apply(state);
    notify::game_over(conn, ctx, loaded)?;
    Ok(())
}

/// Resigns `me`'s seat: the other seat (or all other seats) win.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`; storage failures.
pub fn resign(
    conn: &mut DbConnection,
    ctx: &MailContext,
    actor: &Actor,
    game_id: i64,
) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, ctx, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.id;
        require_active(loaded)?;
        let result = others_win(loaded, seat);
        finish(conn, loaded, me, result, ResultReason::Resignation, ctx)
    })
}

/// Offers, accepts or declines a draw.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `NoDrawOffer`, `DrawOffered` (the
/// opponent's offer stands: accept it instead), `DrawNotAvailable` in games of more than two
/// seats; storage failures.
pub fn draw(
    conn: &mut DbConnection,
    ctx: &MailContext,
    actor: &Actor,
    game_id: i64,
    action: DrawAction,
) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, ctx, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.clone();
        require_active(loaded)?;
        if loaded.seats.len() != 2 {
            return Err(GameError::DrawNotAvailable);
        }
        let offered = loaded.game.draw_offered_by;
        let opponent_offered = offered.is_some_and(|s| s != seat);
        match action {
            DrawAction::Offer if opponent_offered => Err(GameError::DrawOffered),
            DrawAction::Offer => {
                if offered != Some(seat) {
                    let mut state = loaded.game.state();
                    state.draw_offered_by = Some(seat);
                    state.last_activity_at = db::now();
                    q::save(conn, game_id, &state)?;
                    loaded.game.apply(state);
                    notify::draw_offered(conn, ctx, loaded, &me)?;
                }
                Ok(view::view_of(conn, loaded, me.id)?)
            }
            DrawAction::Accept if opponent_offered => finish(
                conn,
                loaded,
                me.id,
                GameResult::draw(),
                ResultReason::Agreement,
                ctx,
            ),
            DrawAction::Decline if opponent_offered => {
                let mut state = loaded.game.state();
                state.draw_offered_by = None;
                state.last_activity_at = db::now();
                q::save(conn, game_id, &state)?;
                loaded.game.apply(state);
                Ok(view::view_of(conn, loaded, me.id)?)
            }
            DrawAction::Accept | DrawAction::Decline => Err(GameError::NoDrawOffer),
        }
    })
}
