//! Ending a game by the players: resignation and agreed draws.
//!
//! Resigning in a game of more than two seats ends it for everyone, as a shared win of the other
//! seats (the result line the engines use, `won 2 3`); the engines cannot drop a seat and play
//! on. Draw offers are for two-seat games; an offer stands until its maker moves again.

use turnpost_shared::{DrawAction, GameView};

use super::tx::{self, TxError};
use super::{notify, view, Loaded, ACTIVE, FINISHED};
use crate::accounts::MailContext;
use crate::db::games as q;
use crate::db::models::Account;
use crate::db::{self, DbConnection};
use crate::error::ApiError;

fn require_active(loaded: &Loaded) -> Result<(), ApiError> {
    if loaded.game.status == ACTIVE {
        Ok(())
    } else {
        Err(ApiError::Conflict {
            code: "not_active",
            message: format!(
                "game {} is {}, not being played",
                loaded.game.id,
                super::shown_status(&loaded.game, db::now())
            ),
        })
    }
}

/// Ends the game with `result` and `reason`, queues the game-over mails, answers the view.
fn finish(
    conn: &mut DbConnection,
    loaded: &mut Loaded,
    viewer: i64,
    result: String,
    reason: &str,
    ctx: &MailContext,
) -> Result<GameView, TxError> {
    let now = db::now();
    let mut state = loaded.game.state();
    state.status = FINISHED.to_owned();
    state.result = Some(result);
    state.result_reason = Some(reason.to_owned());
    state.to_move = None;
    state.draw_offered_by = None;
    state.finished_at = Some(now);
    state.last_activity_at = now;
    q::save(conn, loaded.game.id, &state)?;
    loaded.game.apply(state);
    notify::game_over(conn, ctx, loaded)?;
    view::view_of(conn, loaded, viewer)
}

/// Resigns `me`'s seat: the other seat (or all other seats) win.
///
/// # Errors
/// 404 unknown game, 403 `not_your_game`, 409 `not_active`.
pub fn resign(
    conn: &mut DbConnection,
    me: &Account,
    game_id: i64,
    ctx: &MailContext,
) -> Result<GameView, ApiError> {
    let view = tx::write(conn, |conn| {
        let mut loaded = Loaded::load(conn, game_id, true)?;
        let seat = loaded.require_seat(me.id)?;
        require_active(&loaded)?;
        let winners: Vec<String> = loaded
            .seats
            .iter()
            .map(|(s, _)| s.seat)
            .filter(|s| *s != seat)
            .map(|s| s.to_string())
            .collect();
        let result = format!("won {}", winners.join(" "));
        finish(conn, &mut loaded, me.id, result, "resignation", ctx)
    })?;
    ctx.wake.notify_one();
    Ok(view)
}

/// Offers, accepts or declines a draw.
///
/// # Errors
/// 404 unknown game, 403 `not_your_game`, 409 `not_active` / `no_draw_offer` /
/// `draw_offered` (the opponent's offer stands: accept it instead), 422 `draw_not_available`
/// in games of more than two seats.
pub fn draw(
    conn: &mut DbConnection,
    me: &Account,
    game_id: i64,
    action: DrawAction,
    ctx: &MailContext,
) -> Result<GameView, ApiError> {
    let view = tx::write(conn, |conn| -> Result<GameView, TxError> {
        let mut loaded = Loaded::load(conn, game_id, true)?;
        let seat = loaded.require_seat(me.id)?;
        require_active(&loaded)?;
        if loaded.seats.len() != 2 {
            return Err(ApiError::invalid(
                "draw_not_available",
                "draws by agreement are for two-player games",
            )
            .into());
        }
        let offered = loaded.game.draw_offered_by;
        let opponent_offered = offered.is_some_and(|s| s != seat);
        let no_offer = || ApiError::Conflict {
            code: "no_draw_offer",
            message: "your opponent has not offered a draw".into(),
        };
        match action {
            DrawAction::Offer if opponent_offered => Err(ApiError::Conflict {
                code: "draw_offered",
                message:
                    "your opponent already offers a draw: accept it with {\"action\":\"accept\"}"
                        .into(),
            }
            .into()),
            DrawAction::Offer => {
                if offered != Some(seat) {
                    let mut state = loaded.game.state();
                    state.draw_offered_by = Some(seat);
                    state.last_activity_at = db::now();
                    q::save(conn, game_id, &state)?;
                    loaded.game.apply(state);
                    notify::draw_offered(conn, ctx, &loaded, me)?;
                }
                view::view_of(conn, &loaded, me.id)
            }
            DrawAction::Accept if opponent_offered => {
                finish(conn, &mut loaded, me.id, "draw".into(), "agreement", ctx)
            }
            DrawAction::Decline if opponent_offered => {
                let mut state = loaded.game.state();
                state.draw_offered_by = None;
                state.last_activity_at = db::now();
                q::save(conn, game_id, &state)?;
                loaded.game.apply(state);
                view::view_of(conn, &loaded, me.id)
            }
            DrawAction::Accept | DrawAction::Decline => Err(no_offer().into()),
        }
    })?;
    ctx.wake.notify_one();
    Ok(view)
}
