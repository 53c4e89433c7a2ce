//! Conditional moves (`/v1/games/{id}/conditional`, `turnpost if`, `if … then …` in a mail
//! reply, the game page's move form): a tree of answers per seat of a two-player game, private
//! to its player, checked by the engine when set ([`ConditionalTree::build`]).
//!
//! The tree is played in the opponent's move's own transaction ([`answer`], called by
//! [`super::moving::play`] with the game locked): a move a line expects brings the owner's
//! answer at once (and the next, should a forced pass hand the turn back), and the tree below
//! it stays; any other move drops the tree, and the owner's next turn card says so. Edits lock
//! the game too and carry the ply they were made for, so an edit racing the opponent's move
//! either comes first (and may be played) or is refused as stale: never played twice, never
//! an answer to a position the player did not see.

use chrono::NaiveDateTime;
use turnpost_shared::api::ConditionalMoves;
use turnpost_shared::play::{ConditionalTree, Followed};
use turnpost_shared::{AnyGame, Seat};

use super::played_move::Played;
use super::{frame, view, Actor, GameError, GameStatus, GameWithSeats};
use crate::db::conditional::{self as q, ConditionalRow};
use crate::db::games::MoveRow;
use crate::db::{DbConnection, DbError};

/// How an edit combines with the lines already set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The lines given replace them (`PUT`).
    Replace,
    /// The lines given are added to them (`turnpost if`, mail, the web form).
    Add,
}

/// The caller's conditional moves in `game_id` as they stand.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`; storage failures.
pub fn get(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
) -> Result<ConditionalMoves, GameError> {
    frame::read(conn, |conn| {
        let loaded = GameWithSeats::load(conn, game_id, false)?;
        let (seat, _) = loaded.require_seat(actor)?;
        let row = q::find(conn, game_id, seat)?;
        Ok(shown(&loaded, row.as_ref())?)
    })
}

/// Sets (or adds to) the caller's conditional moves, `request.ply` being the ply they were
/// written for; lines that are empty after an [`Edit::Replace`] clear them.
///
/// # Errors
/// [`GameError::StalePly`] (with the game) when the game is at another ply; `NotFound`,
/// `NotYourGame`, `LeftGame`, `NotActive`; [`GameError::BadConditional`] for a game that is
/// not for two players, with dice rolled each turn, or a line the engine refuses (naming the
/// line, the move and the engine's reason); storage failures.
pub fn set(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    request: &ConditionalMoves,
    edit: Edit,
) -> Result<ConditionalMoves, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.id;
        let current = loaded.game.ply;
        let asked = i32::try_from(request.ply).unwrap_or(i32::MAX);
        if asked != current {
            return Err(GameError::StalePly {
                current,
                asked,
                game: Box::new(view::view_of(conn, loaded, me)?),
            });
        }
        let row = q::find(conn, game_id, seat)?;
        let mut lines = match edit {
            Edit::Add => shown(loaded, row.as_ref())?.lines,
            Edit::Replace => Vec::new(),
        };
        lines.extend(request.lines.iter().cloned());
        let tree = if lines.is_empty() {
            ConditionalTree::default()
        } else {
            check_game(loaded)?;
            loaded.require_playing(seat, actor)?;
            let owner = seat_of(seat)?;
            ConditionalTree::build(&super::player_view(&loaded.game)?, owner, &lines)
                .map_err(|e| GameError::BadConditional(e.to_string()))?
        };
        let row = stored(loaded, seat, &tree, row, crate::db::now())?;
        q::save(conn, &row)?;
        Ok(shown(loaded, Some(&row))?)
    })
}

/// Clears the caller's conditional moves in `game_id`.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`; storage failures.
pub fn clear(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
) -> Result<ConditionalMoves, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, _) = loaded.require_seat(actor)?;
        let row = q::find(conn, game_id, seat)?;
        if row.is_some() {
            let row = stored(
                loaded,
                seat,
                &ConditionalTree::default(),
                row,
                crate::db::now(),
            )?;
            q::save(conn, &row)?;
        }
        Ok(shown(loaded, None)?)
    })
}

/// Why a game takes no conditional moves, if it does not.
fn check_game(loaded: &GameWithSeats) -> Result<(), GameError> {
    let game_id = loaded.game.id;
    if loaded.game.status != GameStatus::Active {
        return Err(GameError::NotActive {
            game_id,
            status: loaded.game.status,
        });
    }
    if loaded.seats.len() != 2 {
        return Err(GameError::BadConditional(format!(
            "conditional moves are for two-player games; game {game_id} has {} seats",
            loaded.seats.len()
        )));
    }
    let options = super::stored_options(&loaded.game)?;
    if options.get("total") == Some("die") {
        // The rolls of the turns ahead are secret: no line past the current roll can be
        // checked, nor answered fairly.
        return Err(GameError::BadConditional(format!(
            "conditional moves need the turns ahead to be known; game {game_id} rolls a die \
             for each turn (total=die)"
        )));
    }
    Ok(())
}

fn seat_of(seat: i32) -> Result<Seat, DbError> {
    u8::try_from(seat)
        .ok()
        .and_then(Seat::new)
        .ok_or_else(|| DbError::Corrupt(format!("seat {seat}")))
}

/// The lines of a row as the API shows them: none unless they start at the game's ply in a
/// game being played.
fn shown(
    loaded: &GameWithSeats,
    row: Option<&ConditionalRow>,
) -> Result<ConditionalMoves, DbError> {
    let lines = match row {
        Some(row) if row.ply == loaded.game.ply && loaded.game.status == GameStatus::Active => {
            decode(row)?
        }
        _ => Vec::new(),
    };
    Ok(ConditionalMoves {
        ply: u32::try_from(loaded.game.ply).unwrap_or(0),
        lines,
    })
}

fn decode(row: &ConditionalRow) -> Result<Vec<Vec<String>>, DbError> {
    serde_json::from_str(&row.lines).map_err(|e| {
        DbError::Corrupt(format!(
            "game {} seat {}: stored conditional moves: {e}",
            row.game_id, row.seat
        ))
    })
}

/// The row that stores `tree` for `seat` at the game's ply, keeping the last drop of `old`.
fn stored(
    loaded: &GameWithSeats,
    seat: i32,
    tree: &ConditionalTree,
    old: Option<ConditionalRow>,
    now: NaiveDateTime,
) -> Result<ConditionalRow, DbError> {
    let lines = serde_json::to_string(&tree.lines())
        .map_err(|e| DbError::Corrupt(format!("conditional moves: {e}")))?;
    let (dropped_ply, dropped_move) = old.map_or((None, None), |o| (o.dropped_ply, o.dropped_move));
    Ok(ConditionalRow {
        game_id: loaded.game.id,
        seat,
        ply: loaded.game.ply,
        lines,
        updated_at: now,
        dropped_ply,
        dropped_move,
    })
}

/// After `mover` played `notation` (canonical) at ply `ply` from `before`, and `played` holds
/// the game after it (applied to `loaded`): plays the other seat's conditional answers the move
/// brings, adding to `played`; keeps the tree below them, or drops the tree (noting it for its
/// owner's next turn card) when the move was not expected.
///
/// # Errors
/// Storage failures.
pub(super) fn answer(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    before: &AnyGame,
    (mover, ply, notation): (i32, i32, &str),
    played: &mut Played,
) -> Result<(), GameError> {
    let now = played.now;
    if loaded.seats.len() != 2 {
        return Ok(());
    }
    let Some((owner, owner_account)) = loaded
        .seats
        .iter()
        .find(|(seat, _)| seat.seat != mover)
        .map(|(seat, account)| (seat.seat, account.id))
    else {
        return Ok(());
    };
    let Some(row) = q::find(conn, loaded.game.id, owner)? else {
        return Ok(());
    };
    let lines = decode(&row)?;
    if row.ply != ply || lines.is_empty() {
        return Ok(());
    }
    // The stored lines were checked at this very ply; rebuilt from the position before the
    // move, they are the same tree.
    let tree = replay_before(loaded, ply, before, owner, &lines).unwrap_or_default();
    let mut tree = match tree.follow(notation) {
        Followed::Expected(below) => below,
        Followed::Unexpected => return drop_tree(conn, loaded, row, owner, notation, now),
    };
    loop {
        // A game the length rules ended is over although its position is not.
        let ongoing = played.position.status().to_move();
        let Some(to_move) = ongoing.filter(|_| played.state.status == GameStatus::Active) else {
            let row = stored(loaded, owner, &ConditionalTree::default(), Some(row), now)?;
            q::save(conn, &row)?;
            return Ok(());
        };
        if super::seat_number(to_move) != owner {
            break;
        }
        let Some(reply) = tree.answer().map(str::to_owned) else {
            break;
        };
        let Ok((after, canonical)) = played.position.play(&reply) else {
            return drop_tree(conn, loaded, row, owner, notation, now);
        };
        let at = loaded.game.ply;
        played.rows.push(MoveRow {
            game_id: loaded.game.id,
            ply: at,
            seat: owner,
            account_id: Some(owner_account),
            notation: canonical.clone(),
            played_at: now,
            // Said wherever the move is shown: the page, the mails, the stream, the CLI.
            prepared: true,
        });
        let (position, next_ply, forced) =
            super::forced::forced_rows(loaded.game.id, after, at + 1, now);
        played.rows.extend(forced);
        played.position = position;
        super::played_move::advance(conn, loaded, owner, played, next_ply)?;
        tree = match tree.follow(&canonical) {
            Followed::Expected(below) => below,
            Followed::Unexpected => ConditionalTree::default(),
        };
    }
    tracing::info!(
        game = loaded.game.id,
        seat = owner,
        "conditional moves followed"
    );
    q::save(conn, &stored(loaded, owner, &tree, Some(row), now)?)?;
    Ok(())
}

/// The stored tree rebuilt in the position it was set in (`before`, at `ply`).
fn replay_before(
    loaded: &GameWithSeats,
    ply: i32,
    before: &AnyGame,
    owner: i32,
    lines: &[Vec<String>],
) -> Option<ConditionalTree> {
    let owner = seat_of(owner).ok()?;
    match ConditionalTree::build(before, owner, lines) {
        Ok(tree) => Some(tree),
        Err(error) => {
            tracing::warn!(
                game = loaded.game.id,
                ply,
                %error,
                "stored conditional moves no longer check; dropped"
            );
            None
        }
    }
}

/// Drops the owner's tree: the move `notation` was not expected; the turn card of the game's
/// ply (the owner's next) says so.
fn drop_tree(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    row: ConditionalRow,
    owner: i32,
    notation: &str,
    now: NaiveDateTime,
) -> Result<(), GameError> {
    let mut row = stored(loaded, owner, &ConditionalTree::default(), Some(row), now)?;
    row.dropped_ply = Some(loaded.game.ply);
    row.dropped_move = Some(notation.to_owned());
    tracing::info!(
        game = loaded.game.id,
        seat = owner,
        "conditional moves dropped"
    );
    q::save(conn, &row)?;
    Ok(())
}

/// The move that dropped `seat`'s conditional moves, when the turn card at `ply` is the one
/// to say so.
///
/// # Errors
/// Storage failures.
pub fn dropped_at(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
    ply: i32,
) -> Result<Option<String>, DbError> {
    Ok(q::find(conn, game_id, seat)?
        .filter(|row| row.dropped_ply == Some(ply))
        .and_then(|row| row.dropped_move))
}
