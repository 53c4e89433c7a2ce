//! Ending a game, or a seat's part in it, by the players or the clock: resignation, agreed
//! draws, losses on time. Resigning, running out of time (`auto`) and a claim against a seat
//! take one path, the engine's `leave`: with two seats playing the game ends and the other seat
//! wins (as it always did); with three or more, in games that play on without a seat (Chinese
//! Checkers), the departure is stored as a record line (`resign 2`, `timeout 2`, `claim 2`) at
//! its ply in `moves`, the next seat gets its turn and clock, and the others one mail. With the
//! challenge option `on-leave=bot`, a server bot takes the seat over instead and plays it on
//! with its pegs (record line `resign 2 bot`); the player who left is ranked as a seat that left.
//!
//! A draw offer is agreed once every other seat still playing has accepted it (the
//! acceptances are stored with the offer; one decline ends it); an offer stands until its
//! maker moves again, and lapses when any seat leaves.

use chrono::NaiveDateTime;
use turnpost_shared::api::{DrawAction, GameView, MessageAction};
use turnpost_shared::play::{Departure, OnLeave};
use turnpost_shared::{AnyGame, Seat};

use super::event::{self as events, GameEvent};
use super::messages;
use super::{frame, view, Actor, GameError, GameResult, GameStatus, GameWithSeats, ResultReason};
use crate::db::accounts::{self, Account};
use crate::db::games::{self as q, MoveRow};
use crate::db::{self, DbConnection, DbError, SeatSet};
use turnpost_shared::play::TimeoutMode;

fn require_active(loaded: &GameWithSeats) -> Result<(), GameError> {
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
    loaded: &mut GameWithSeats,
    viewer: i64,
    result: GameResult,
    reason: ResultReason,
) -> Result<GameView, GameError> {
    close(conn, loaded, result, reason)?;
    Ok(view::view_of(conn, loaded, viewer)?)
}

/// `seat` leaves a locked, active game (`how`); the engine's `leave` decides what follows.
/// With two seats the game ends with the engine's result (the other seat wins) and the
/// reason, as it always did, with no record line. Otherwise the engine's departure line is stored
/// at the game's ply and the cached position, ply and seat to move follow; if one seat
/// remains the game is over, else the seat now to move gets its clock and turn card and the
/// other seats still playing one mail. In an `on-leave=bot` game a bot may take the seat over
/// instead ([`stand_in_for`], [`take_over`]).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] if the engine refuses the departure (the callers
/// check the seat is playing and the game active first, so this is a bug).
fn leave(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    seat: i32,
    how: Departure,
) -> Result<(), DbError> {
    let game_id = loaded.game.id;
    let reason = match how {
        Departure::Resign => ResultReason::Resignation,
        Departure::Timeout | Departure::Claim => ResultReason::Timeout,
    };
    let refused = |why: String| DbError::Corrupt(format!("game {game_id}: seat {seat}: {why}"));
    let leaving = u8::try_from(seat)
        .ok()
        .and_then(Seat::new)
        .ok_or_else(|| refused("not a seat number".to_owned()))?;
    let engine = super::engine(&loaded.game)?;
    if let Some(bot) = stand_in_for(conn, loaded, seat, &engine)? {
        let (_, line) = engine
            .take_over(leaving, how)
            .map_err(|e| refused(e.to_string()))?;
        return take_over(conn, loaded, seat, how, line, &bot);
    }
    let (position, line) = engine
        .leave(leaving, how)
        .map_err(|e| refused(e.to_string()))?;
    if loaded.seats.len() <= 2 {
        // The engine's result (the other seat won) ends the game; the record keeps no line.
        let (_, result, _) = super::status_columns(&position.status());
        let result = result.ok_or_else(|| refused("the game goes on".to_owned()))?;
        return close(conn, loaded, result, reason);
    }
    let now = db::now();
    let ply = seat_left(conn, loaded, seat, line, None, now)?;
    let (position, next_ply) = super::forced::play_forced(conn, game_id, position, ply + 1, now)?;
    let (status, result, to_move) = super::status_columns(&position.status());
    let turn_passed = to_move != loaded.game.to_move;
    let mut state = loaded.game.state();
    state.ply = next_ply;
    state.position = position.position_text();
    state.status = status;
    state.result = result;
    state.to_move = to_move;
    state.clear_draw_offer();
    state.last_activity_at = now;
    if status == GameStatus::Finished {
        state.result_reason = Some(reason);
        state.finished_at = Some(now);
        super::clock::stop(&mut state);
        loaded.save(conn, state)?;
        super::rating_update::rate_ended(conn, loaded)?;
        return events::record(conn, loaded, GameEvent::GameOver);
    }
    if turn_passed {
        super::clock::after_move(conn, loaded, seat, &mut state, now)?;
    }
    loaded.save_and_record(
        conn,
        state,
        GameEvent::Left {
            seat,
            how,
            turn_passed,
        },
    )
}

/// The bots that may play a seat on, in the order they are asked: `bot-3` (level 3, the level
/// of the plain `bot`), then the others, nearest level first.
const STAND_INS: [&str; 6] = ["bot-3", "bot", "bot-2", "bot-4", "bot-1", "bot-5"];

/// The bot that takes `seat` over when its player leaves, if one does: the game says
/// `on-leave=bot`, three or more seats are still on the board, the seat is a person's (not a
/// bot's, nor already played on by one), and another seat is still played by a person (a game
/// of bots only is played for nobody: then the seat leaves the board). The first of
/// [`STAND_INS`] with no part in the game plays it.
///
/// # Errors
/// Storage failures.
fn stand_in_for(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    seat: i32,
    engine: &AnyGame,
) -> Result<Option<Account>, DbError> {
    if loaded.game.on_leave != OnLeave::Bot {
        return Ok(None);
    }
    let removed = loaded.departed()?;
    let playing = loaded.seats.len().saturating_sub(removed.len());
    let by_person = |s: i32| {
        !removed.contains(&s)
            && loaded.stand_in(s).is_none()
            && loaded.player_at(s).is_some_and(|a| !a.is_bot())
    };
    let others = loaded
        .seats
        .iter()
        .any(|(other, _)| other.seat != seat && by_person(other.seat));
    if playing < 3 || !by_person(seat) || !others || engine.status().is_over() {
        return Ok(None);
    }
    let taken: Vec<i64> = loaded
        .seats
        .iter()
        .map(|(_, account)| account.id)
        .chain(loaded.stand_ins.iter().map(|(_, bot)| bot.id))
        .collect();
    for name in STAND_INS {
        if let Some(bot) = accounts::by_name_key(conn, name)? {
            if bot.is_bot() && !taken.contains(&bot.id) {
                return Ok(Some(bot));
            }
        }
    }
    Ok(None)
}

/// `seat`'s player leaves (`how`) and `bot` plays the seat on with its pegs: the record line
/// (`resign 2 bot`) at the game's ply, the seat marked as played by the bot, a fresh clock for
/// the seat (it may be to move, with its time run out), a standing draw offer lapses, and the
/// other players still playing get one mail.
///
/// # Errors
/// Storage failures.
fn take_over(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    seat: i32,
    how: Departure,
    line: String,
    bot: &Account,
) -> Result<(), DbError> {
    let now = db::now();
    let ply = seat_left(conn, loaded, seat, line, Some(bot), now)?;
    let mut state = loaded.game.state();
    state.ply = ply + 1;
    state.clear_draw_offer();
    state.last_activity_at = now;
    super::clock::fresh_seat_clock(conn, loaded, seat, &mut state, now)?;
    loaded.save_and_record(
        conn,
        state,
        GameEvent::TakenOver {
            seat,
            how,
            bot: bot.id,
        },
    )
}

/// Records, in the database and in `loaded`, that `seat`'s player left with `line`, the
/// game's next move (played `now`; the first leaving counts) and, with `bot`, that the bot
/// plays the seat on. Answers the move's ply.
///
/// # Errors
/// Storage failures.
fn seat_left(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    seat: i32,
    line: String,
    bot: Option<&Account>,
    now: NaiveDateTime,
) -> Result<i32, DbError> {
    let ply = loaded.game.ply;
    let departure = MoveRow {
        game_id: loaded.game.id,
        ply,
        seat,
        account_id: loaded.player_at(seat).map(|a| a.id),
        notation: line,
        played_at: now,
        prepared: false,
    };
    q::insert_move(conn, &departure)?;
    q::seat_left(conn, loaded.game.id, seat, ply, bot.map(|b| b.id))?;
    for (s, _) in &mut loaded.seats {
        if s.seat == seat {
            s.left_ply.get_or_insert(ply);
            if let Some(bot) = bot {
                s.played_by = Some(bot.id);
            }
        }
    }
    if let Some(bot) = bot {
        loaded.stand_ins.push((seat, bot.clone()));
    }
    Ok(ply)
}

/// The seat to move in a locked, active game ran out of time: it leaves on time (in a
/// two-seat game the other seat wins), with the mails that go with it.
///
/// # Errors
/// Storage failures.
pub fn time_out(conn: &mut DbConnection, loaded: &mut GameWithSeats) -> Result<(), DbError> {
    let Some(late) = loaded.game.to_move else {
        return Ok(());
    };
    leave(conn, loaded, late, Departure::Timeout)
}

/// Claims the win on time in a `claim` game whose seat to move is past its deadline.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `NotClaimable` (the deadline has not
/// passed, the game ends by itself on time, or it is your own turn); storage failures.
pub fn claim(conn: &mut DbConnection, actor: &Actor, game_id: i64) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.id;
        require_active(loaded)?;
        loaded.require_playing(seat, actor)?;
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
        let late = loaded.game.to_move.unwrap_or_default();
        leave(conn, loaded, late, Departure::Claim)?;
        Ok(view::view_of(conn, loaded, me)?)
    })
}

/// Ends the game with `result` and `reason` and queues the game-over mails.
fn close(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    result: GameResult,
    reason: ResultReason,
) -> Result<(), DbError> {
    let now = db::now();
    let mut state = loaded.game.state();
    state.status = GameStatus::Finished;
    state.result = Some(result);
    state.result_reason = Some(reason);
    state.to_move = None;
    state.clear_draw_offer();
    state.finished_at = Some(now);
    state.last_activity_at = now;
    super::clock::stop(&mut state);
    loaded.save(conn, state)?;
    super::rating_update::rate_ended(conn, loaded)?;
    events::record(conn, loaded, GameEvent::GameOver)?;
    Ok(())
}

/// Resigns `actor`'s seat: in a two-seat game the other seat wins; with three or more seats
/// playing, the seat leaves and the game goes on without it.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `LeftGame` (the seat has already
/// left); `BadMessage` for a `message` too long (nothing done); storage failures.
pub fn resign(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    message: Option<&str>,
) -> Result<GameView, GameError> {
    as_playing_seat(conn, actor, game_id, message, |conn, loaded, playing| {
        playing.say(conn, loaded, MessageAction::Resign)?;
        leave(conn, loaded, playing.seat, Departure::Resign)?;
        Ok(view::view_of(conn, loaded, playing.me.id)?)
    })
}

/// A seat that still plays in an active game, taking an action with an optional word for
/// the others.
struct PlayingSeat {
    seat: i32,
    me: Account,
    /// The account that acts (for a seat it may act for).
    by: i64,
    message: Option<String>,
}

impl PlayingSeat {
    /// Stores the word (if any) as said with `action` at the game's ply, in the action's
    /// transaction.
    fn say(
        &self,
        conn: &mut DbConnection,
        loaded: &GameWithSeats,
        action: MessageAction,
    ) -> Result<(), DbError> {
        let by = (self.seat, self.by);
        let text = self.message.as_deref();
        messages::record(conn, loaded, by, loaded.game.ply, action, text)
    }
}

/// Runs `act` on the locked game `game_id` for `actor`'s seat once the game is active and
/// the seat still plays in it; `message` is checked first (one too long: nothing done).
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `LeftGame`, `BadMessage`; `act`'s.
fn as_playing_seat<T>(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    message: Option<&str>,
    act: impl FnOnce(&mut DbConnection, &mut GameWithSeats, PlayingSeat) -> Result<T, GameError>,
) -> Result<T, GameError> {
    let message = messages::cleaned(message)?;
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.clone();
        require_active(loaded)?;
        loaded.require_playing(seat, actor)?;
        let by = actor.account_id();
        act(
            conn,
            loaded,
            PlayingSeat {
                seat,
                me,
                by,
                message,
            },
        )
    })
}

/// The seats that accepted the standing draw offer.
fn acceptances(loaded: &GameWithSeats) -> SeatSet {
    loaded.game.draw_accepted_by.clone().unwrap_or_default()
}

/// Offers, accepts or declines a draw. An offer is agreed once every other seat still
/// playing has accepted it (in a two-seat game: the opponent); one decline ends it.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotActive`, `NoDrawOffer`, `DrawOffered` (another
/// seat's offer stands: accept it instead), `LeftGame`; `BadMessage` for a `message` too long
/// (nothing done); storage failures.
pub fn draw(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    action: DrawAction,
    message: Option<&str>,
) -> Result<GameView, GameError> {
    as_playing_seat(conn, actor, game_id, message, |conn, loaded, playing| {
        let seat = playing.seat;
        let offered = loaded.game.draw_offered_by;
        let other_offered = offered.is_some_and(|s| s != seat);
        // Stored with the action (a refused one rolls it back); a repeated offer sends nothing.
        let said = match action {
            DrawAction::Offer if offered != Some(seat) => Some(MessageAction::DrawOffer),
            DrawAction::Offer => None,
            DrawAction::Accept => Some(MessageAction::DrawAccept),
            DrawAction::Decline => Some(MessageAction::DrawDecline),
        };
        if let Some(said) = said {
            playing.say(conn, loaded, said)?;
        }
        let me = playing.me;
        match action {
            DrawAction::Offer if other_offered => Err(GameError::DrawOffered { game_id }),
            DrawAction::Offer => {
                if offered != Some(seat) {
                    let mut state = loaded.game.state();
                    state.draw_offered_by = Some(seat);
                    state.draw_accepted_by = None;
                    state.last_activity_at = db::now();
                    loaded.save_and_record(conn, state, GameEvent::DrawOffered { by: me.id })?;
                }
                Ok(view::view_of(conn, loaded, me.id)?)
            }
            DrawAction::Accept if other_offered => {
                let mut accepted = acceptances(loaded);
                accepted.insert(seat);
                let left = loaded.departed()?;
                let agreed = loaded
                    .seats
                    .iter()
                    .map(|(s, _)| s.seat)
                    .filter(|s| !left.contains(s) && Some(*s) != offered)
                    .all(|s| accepted.contains(s));
                if agreed {
                    return finish(
                        conn,
                        loaded,
                        me.id,
                        GameResult::draw(),
                        ResultReason::Agreement,
                    );
                }
                let mut state = loaded.game.state();
                state.draw_accepted_by = Some(accepted);
                state.last_activity_at = db::now();
                loaded.save(conn, state)?;
                Ok(view::view_of(conn, loaded, me.id)?)
            }
            DrawAction::Decline if other_offered => {
                let mut state = loaded.game.state();
                state.clear_draw_offer();
                state.last_activity_at = db::now();
                loaded.save_and_record(conn, state, GameEvent::DrawDeclined { by: me.id })?;
                Ok(view::view_of(conn, loaded, me.id)?)
            }
            DrawAction::Accept | DrawAction::Decline => Err(GameError::NoDrawOffer),
        }
    })
}
