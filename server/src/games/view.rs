//! The API views of games, seats and moves.

use chrono::NaiveDateTime;
use turnpost_shared::api::{GameSummary, GameView, MoveView, SeatView};
use turnpost_shared::play::placings;
use turnpost_shared::render::{render_text, TextStyle};
use turnpost_shared::{AnyGame, Seat, Status};

use super::{
    dice, engine, shown_status, GameError, GameResult, GameStatus, GameWithSeats, ResultReason,
    LAST_MOVES,
};
use crate::db::games as q;
use crate::db::games::{Game, GameSeat, MoveRow};
use crate::db::{self, DbConnection, DbError};
use turnpost_shared::play::{DepartureText, TimeoutMode};
use turnpost_shared::render::{moves_to_mark, BoardView};

fn seat_u8(seat: i32) -> u8 {
    u8::try_from(seat).unwrap_or(0)
}

fn ply_u32(ply: i32) -> u32 {
    u32::try_from(ply).unwrap_or(0)
}

fn seat_name(engine: &AnyGame, seat: i32) -> String {
    Seat::new(seat_u8(seat)).map_or_else(|| format!("seat {seat}"), |s| engine.seat_name(s))
}

/// A played move as the API shows it.
#[must_use]
pub fn move_view(row: &MoveRow) -> MoveView {
    MoveView {
        ply: ply_u32(row.ply),
        seat: seat_u8(row.seat),
        notation: row.notation.clone(),
        played_at: db::rfc3339(row.played_at),
        automatic: row.account_id.is_none(),
        prepared: row.prepared,
    }
}

fn seat_view(
    seat: &GameSeat,
    player: &crate::db::accounts::Account,
    engine: &AnyGame,
    bot: Option<&str>,
) -> SeatView {
    SeatView {
        seat: seat_u8(seat.seat),
        seat_name: seat_name(engine, seat.seat),
        player: player.name.clone(),
        accepted: seat.accepted_at.is_some(),
        bank_seconds: seat.bank_seconds.and_then(|b| u64::try_from(b).ok()),
        played_by: bot.map(str::to_owned),
        open: false,
        rating: None,
        engine: player.engine,
    }
}

/// A seat of a challenge posted open that nobody took yet.
fn open_seat_view(seat: i32, engine: &AnyGame) -> SeatView {
    SeatView {
        seat: seat_u8(seat),
        seat_name: seat_name(engine, seat),
        player: turnpost_shared::api::OPEN_SEAT.to_owned(),
        accepted: false,
        bank_seconds: None,
        played_by: None,
        open: true,
        rating: None,
        engine: false,
    }
}

/// The seats of a game in turn order, the open seats nobody took yet among them.
fn seat_views(loaded: &GameWithSeats, engine: &AnyGame) -> Vec<SeatView> {
    let mut seats: Vec<SeatView> = loaded
        .seats
        .iter()
        .map(|(seat, account)| {
            let bot = loaded.stand_in(seat.seat).map(|bot| bot.name.as_str());
            seat_view(seat, account, engine, bot)
        })
        .chain(
            loaded
                .vacant_seats()
                .into_iter()
                .map(|seat| open_seat_view(seat, engine)),
        )
        .collect();
    seats.sort_by_key(|seat| seat.seat);
    seats
}

/// The seats whose players left, first to leave first: the seats `removed` from the board (in
/// the engine's order) and the seats bots play on, ordered by the ply each player left at
/// (departures from before that ply was kept come first, in the engine's order).
#[must_use]
pub fn left_in_order<'a>(
    removed: &[Seat],
    seats: impl IntoIterator<Item = &'a GameSeat>,
) -> Vec<Seat> {
    let seats: Vec<&GameSeat> = seats.into_iter().collect();
    let ply_of = |seat: Seat| {
        seats
            .iter()
            .find(|s| s.seat == super::seat_number(seat))
            .and_then(|s| s.left_ply)
    };
    let mut order: Vec<(i32, usize, Seat)> = removed
        .iter()
        .enumerate()
        .map(|(index, &seat)| (ply_of(seat).unwrap_or(-1), index, seat))
        .collect();
    for seat in seats.iter().filter(|s| s.played_by.is_some()) {
        if let Some(seat) = Seat::new(seat_u8(seat.seat)).filter(|s| !removed.contains(s)) {
            order.push((ply_of(seat).unwrap_or(i32::MAX), usize::MAX, seat));
        }
    }
    order.sort_unstable();
    order.into_iter().map(|(_, _, seat)| seat).collect()
}

/// The seats whose players left (first to leave first: [`left_in_order`]) and, once the game
/// is over, every seat's place. The places come from the stored result, so an agreed draw and
/// a two-seat game ended by a resignation (whose position keeps no departure) rank too. A seat
/// a bot played on ranks as a seat that left, when its player left, whatever the bot did.
#[must_use]
pub fn departures<'a>(
    game: &Game,
    seats: impl IntoIterator<Item = &'a GameSeat>,
    position: Option<&AnyGame>,
) -> (Vec<u8>, Option<Vec<u8>>) {
    let seats: Vec<&GameSeat> = seats.into_iter().collect();
    let seat_count = seats.len();
    let removed: Vec<Seat> = position.map(AnyGame::departed).unwrap_or_default();
    let departed = left_in_order(&removed, seats.iter().copied());
    let over = game
        .result
        .as_ref()
        .filter(|_| game.status == GameStatus::Finished)
        .map(status_of);
    let places = over.and_then(|status| {
        placings(
            u8::try_from(seat_count).unwrap_or(u8::MAX),
            &status,
            &departed,
        )
    });
    (departed.iter().map(|s| s.number()).collect(), places)
}

/// The engine status a stored result means.
fn status_of(result: &GameResult) -> Status {
    if result.is_draw() {
        Status::Draw
    } else {
        Status::Won {
            winners: result
                .winners()
                .iter()
                .filter_map(|&seat| Seat::new(seat_u8(seat)))
                .collect(),
        }
    }
}

/// Whether `viewer`'s seat may claim a win on time now: a `claim` game whose seat to move is
/// past its deadline, and the viewer is another seat still playing.
#[must_use]
pub fn claimable(loaded: &GameWithSeats, viewer: i64, now: NaiveDateTime) -> bool {
    let game = &loaded.game;
    let viewer_seat = loaded.seat_of(viewer);
    game.status == GameStatus::Active
        && game.timeout_mode == TimeoutMode::Claim
        && viewer_seat.is_some()
        && viewer_seat != game.to_move
        && game.deadline_at.is_some_and(|deadline| deadline <= now)
        && !viewer_seat.is_some_and(|seat| {
            loaded.stand_in(seat).is_some() || loaded.departed().unwrap_or_default().contains(&seat)
        })
}

/// The full view of a game for `viewer`; `last` are its most recent moves.
#[must_use]
pub fn game_view(
    loaded: &GameWithSeats,
    engine: &AnyGame,
    last: &[MoveRow],
    viewer: i64,
    now: NaiveDateTime,
) -> GameView {
    let game = &loaded.game;
    let status = shown_status(game, now);
    let expired = status == GameStatus::Cancelled && game.status != GameStatus::Cancelled;
    let your_seat = loaded.seat_of(viewer);
    // A player whose seat a bot plays on has no turns any more.
    let your_turn = status == GameStatus::Active
        && your_seat.is_some_and(|seat| loaded.stand_in(seat).is_none())
        && your_seat == game.to_move;
    let (departed, placings) = departures(game, loaded.seats.iter().map(|(s, _)| s), Some(engine));
    let options = super::stored_options(game).unwrap_or_default();
    GameView {
        id: game.id,
        kind: game.kind,
        options: dice::shown_options(game, &engine.options())
            .iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
        seed_sha256: dice::commitment(&options),
        clock: Some(crate::clocks::spec_of(game.clock.as_deref()).to_string()),
        timeout: game.timeout_mode,
        on_leave: game.on_leave,
        deadline: if status == GameStatus::Active {
            game.deadline_at.map(db::rfc3339)
        } else {
            None
        },
        claimable: claimable(loaded, viewer, now),
        seats: seat_views(loaded, engine),
        status,
        result: game.result.clone(),
        result_reason: if expired {
            Some(ResultReason::Expired)
        } else {
            game.result_reason
        },
        ply: ply_u32(game.ply),
        to_move: if status == GameStatus::Active {
            game.to_move.map(seat_u8)
        } else {
            None
        },
        your_seat: your_seat.map(seat_u8),
        your_turn,
        draw_offered_by: game.draw_offered_by.map(seat_u8),
        draw_accepted_by: game
            .draw_accepted_by
            .iter()
            .flat_map(db::SeatSet::iter)
            .map(seat_u8)
            .collect(),
        position: game.position.clone(),
        board: render_text(&marked_board(engine, last), TextStyle::Marked),
        last_moves: last.iter().map(move_view).collect(),
        legal_moves: your_turn.then(|| engine.legal_moves()),
        created_at: db::rfc3339(game.created_at),
        expires_at: (status == GameStatus::Invited).then(|| db::rfc3339(super::expires_at(game))),
        started_at: game.started_at.map(db::rfc3339),
        finished_at: game.finished_at.map(db::rfc3339),
        last_activity_at: db::rfc3339(game.last_activity_at),
        departed,
        placings,
        rated: game.rated,
        rating_changes: None,
    }
}

/// Loads a game and builds its view for `viewer` (inside the caller's transaction).
///
/// # Errors
/// [`GameError::NotFound`] for an unknown game; storage failures.
pub fn load_view(
    conn: &mut DbConnection,
    game_id: i64,
    viewer: i64,
) -> Result<GameView, GameError> {
    let loaded = GameWithSeats::load(conn, game_id, false)?;
    Ok(view_of(conn, &loaded, viewer)?)
}

/// The view of an already loaded game (reads its last moves).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn view_of(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    viewer: i64,
) -> Result<GameView, DbError> {
    let engine = engine(&loaded.game)?;
    let last = q::last_moves(conn, loaded.game.id, LAST_MOVES)?;
    let mut view = game_view(loaded, &engine, &last, viewer, db::now());
    super::rating::annotate(conn, loaded, &mut view, viewer)?;
    Ok(view)
}

/// A listing entry; `seats` are the game's seats with player names, in turn order; `bots` the
/// names of the bots that play seats on (account id, name).
#[must_use]
pub fn summary(
    game: &Game,
    seats: &[(GameSeat, String)],
    bots: &[(i64, String)],
    viewer: i64,
    now: NaiveDateTime,
) -> GameSummary {
    let status = shown_status(game, now);
    // A player whose seat a bot plays on has no turns any more.
    let your_seat = seats
        .iter()
        .find(|(s, _)| s.account_id == viewer && s.played_by.is_none())
        .map(|(s, _)| s.seat);
    let bot_name = |seat: &GameSeat| {
        seat.played_by.and_then(|id| {
            bots.iter()
                .find(|(bot, _)| *bot == id)
                .map(|(_, name)| name.clone())
        })
    };
    let options = super::stored_options(game).unwrap_or_default();
    let engine = AnyGame::new(game.kind, &options).ok();
    let position = super::engine(game).ok();
    let (departed, placings) = departures(game, seats.iter().map(|(s, _)| s), position.as_ref());
    GameSummary {
        id: game.id,
        kind: game.kind,
        status,
        seats: seats
            .iter()
            .map(|(seat, name)| SeatView {
                seat: seat_u8(seat.seat),
                seat_name: engine.as_ref().map_or_else(
                    || format!("seat {}", seat.seat),
                    |e| seat_name(e, seat.seat),
                ),
                player: name.clone(),
                accepted: seat.accepted_at.is_some(),
                bank_seconds: seat.bank_seconds.and_then(|b| u64::try_from(b).ok()),
                played_by: bot_name(seat),
                open: false,
                rating: None,
                // Listings carry names only; the game's own view says which are engines.
                engine: false,
            })
            .collect(),
        ply: ply_u32(game.ply),
        to_move: if status == GameStatus::Active {
            game.to_move.map(seat_u8)
        } else {
            None
        },
        your_turn: status == GameStatus::Active && your_seat.is_some() && your_seat == game.to_move,
        deadline: if status == GameStatus::Active {
            game.deadline_at.map(db::rfc3339)
        } else {
            None
        },
        result: game.result.clone(),
        last_activity_at: db::rfc3339(game.last_activity_at),
        departed,
        placings,
        challenger: seats
            .iter()
            .find(|(seat, _)| seat.account_id == game.created_by)
            .map(|(_, name)| name.clone()),
    }
}

/// The board with the moves since the seat to move last moved marked in their movers'
/// colours (`moves_to_mark`: the rule of every surface).
fn marked_board(engine: &AnyGame, last: &[MoveRow]) -> BoardView {
    engine.board_view_with_moves(
        moves_to_mark(last, engine.seat_count())
            .iter()
            .filter_map(|mv| {
                let seat = Seat::new(u8::try_from(mv.seat).ok()?)?;
                (!DepartureText::is_departure(&mv.notation)).then_some((seat, mv.notation.as_str()))
            }),
    )
}
