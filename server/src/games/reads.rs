//! The reads of the game service: a game, its moves, its board, its record, an actor's games.
//! Any account may read any game; the actor only decides what "your seat" means.

use chrono::NaiveDateTime;
use turnpost_shared::api::{GameList, GameView, MoveList};
use turnpost_shared::GameRecord;

use super::{frame, view, Actor, GameError, GameStatus};
use crate::db::games as q;
use crate::db::{self, DbConnection};

/// The game as `actor` sees it.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn show(conn: &mut DbConnection, actor: &Actor, game_id: i64) -> Result<GameView, GameError> {
    frame::read(conn, |conn| {
        view::load_view(conn, game_id, actor.account_id())
    })
}

/// The most moves one answer of `GET /v1/games/{id}/moves` lists (and its default): every
/// move of a game within the largest move limit (six-seat Chinese Checkers, 1800), and a
/// bounded answer for the longest game stored before the limits.
pub const MOVES_PAGE: i64 = 2000;

/// Which of a game's moves to list: the first `limit` after ply `after`, else the last
/// `limit` before ply `before` (or of all).
#[derive(Debug, Clone, Copy)]
pub struct MovePage {
    /// Moves after this ply (exclusive).
    pub after: Option<u32>,
    /// Moves before this ply (exclusive).
    pub before: Option<u32>,
    /// How many, at most [`MOVES_PAGE`].
    pub limit: i64,
}

impl Default for MovePage {
    fn default() -> Self {
        Self {
            after: None,
            before: None,
            limit: MOVES_PAGE,
        }
    }
}

/// A page of a game's moves (see [`MovePage`]), with the messages sent with them when `viewer`
/// is one of its players (without those they muted; anyone else, `None` included, reads none),
/// and where the earlier and later moves are.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn moves(
    conn: &mut DbConnection,
    game_id: i64,
    viewer: Option<i64>,
    page: MovePage,
) -> Result<MoveList, GameError> {
    let limit = page.limit.clamp(1, MOVES_PAGE);
    let ply = |p: Option<u32>| p.map(|p| i32::try_from(p).unwrap_or(i32::MAX));
    let (rows, messages, total) = frame::read(conn, |conn| {
        let Some(loaded) = super::GameWithSeats::find(conn, game_id, false)? else {
            return Err(GameError::NotFound { game_id });
        };
        let messages = super::messages::visible(conn, &loaded, viewer)?;
        let rows = q::moves_page(conn, game_id, ply(page.after), ply(page.before), limit)?;
        Ok((rows, messages, loaded.game.ply))
    })?;
    // Plies run from 0 without a gap: the first and last listed say what was left out.
    let earlier = rows.first().map(|r| r.ply).filter(|first| *first > 0);
    let later = rows.last().map(|r| r.ply).filter(|last| last + 1 < total);
    // The messages of the plies listed (the first page also those before its first move, the
    // last page those sent since its last).
    let messages = messages
        .into_iter()
        .filter(|m| {
            let at = i32::try_from(m.ply).unwrap_or(i32::MAX);
            earlier.is_none_or(|first| at >= first) && later.is_none_or(|last| at <= last)
        })
        .collect();
    let as_ply = |p: i32| u32::try_from(p).unwrap_or_default();
    Ok(MoveList {
        moves: rows.iter().map(view::move_view).collect(),
        messages,
        earlier: earlier.map(as_ply),
        later: later.map(as_ply),
    })
}

/// The board of a game as SVG.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures; an unreadable stored position.
pub fn board_svg(conn: &mut DbConnection, game_id: i64) -> Result<String, GameError> {
    let (engine, recent) = frame::read(conn, |conn| {
        let game = q::find(conn, game_id)?.ok_or(GameError::NotFound { game_id })?;
        let engine = super::engine(&game)?;
        // The moves since the seat to move last moved: one fewer than the seats (at least one).
        let since = i64::from(engine.seat_count()).saturating_sub(1).max(1);
        let recent = q::last_moves(conn, game_id, since)?;
        Ok((engine, recent))
    })?;
    let view = engine.board_view_with_moves(recent.iter().filter_map(|mv| {
        let seat = turnpost_shared::Seat::new(u8::try_from(mv.seat).ok()?)?;
        (!turnpost_shared::play::DepartureText::is_departure(&mv.notation))
            .then_some((seat, mv.notation.as_str()))
    }));
    Ok(turnpost_shared::render::render_svg(&view))
}

/// The record of a game.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn record(conn: &mut DbConnection, game_id: i64) -> Result<GameRecord, GameError> {
    frame::read(conn, |conn| super::record::record(conn, game_id))
}

/// Which of an actor's games to list, a page at a time.
#[derive(Debug, Clone, Copy)]
pub struct ListFilter {
    /// Only games in this (shown) status.
    pub status: Option<GameStatus>,
    /// Only games where the actor is to move.
    pub my_turn: bool,
    /// Only games whose last activity (and id) is before this cursor.
    pub before: Option<(NaiveDateTime, i64)>,
    /// Page size.
    pub limit: i64,
}

/// `actor`'s games, newest activity first; `next_cursor` when the page is full.
///
/// # Errors
/// Storage failures.
pub fn list(
    conn: &mut DbConnection,
    actor: &Actor,
    filter: &ListFilter,
) -> Result<GameList, GameError> {
    let viewer = actor.account_id();
    let (games, listing) = frame::read(conn, |conn| {
        let games = q::list_for_account(
            conn,
            viewer,
            filter.status,
            filter.my_turn,
            filter.before,
            filter.limit,
            super::expired_before(db::now()),
        )?;
        let seats = listed_seats(conn, &games)?;
        let listing = rated_summaries(conn, &games, &seats, viewer)?;
        Ok::<_, GameError>((games, listing))
    })?;
    let next_cursor = (games.len() == usize::try_from(filter.limit).unwrap_or(usize::MAX))
        .then(|| games.last())
        .flatten()
        .map(|g| {
            format!(
                "{}.{}",
                g.last_activity_at.and_utc().timestamp_micros(),
                g.id
            )
        });
    Ok(GameList {
        games: listing,
        next_cursor,
    })
}

/// The seats of listed games with their players' names, and the names of the bots that play
/// on seats of players who left.
struct ListedSeats {
    seats: Vec<(crate::db::games::GameSeat, String)>,
    bots: Vec<(i64, String)>,
}

fn listed_seats(
    conn: &mut DbConnection,
    games: &[crate::db::games::Game],
) -> Result<ListedSeats, GameError> {
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    let seats = q::seats_of(conn, &ids)?;
    let bot_ids: Vec<i64> = seats.iter().filter_map(|(s, _)| s.played_by).collect();
    let bots = if bot_ids.is_empty() {
        Vec::new()
    } else {
        q::account_names(conn, &bot_ids)?
    };
    Ok(ListedSeats { seats, bots })
}

/// Listing entries of `games` for `viewer`, each with its seats.
fn summaries(
    games: &[crate::db::games::Game],
    listed: &ListedSeats,
    viewer: i64,
) -> Vec<turnpost_shared::api::GameSummary> {
    let now = db::now();
    games
        .iter()
        .map(|game| {
            let own: Vec<_> = listed
                .seats
                .iter()
                .filter(|(s, _)| s.game_id == game.id)
                .cloned()
                .collect();
            view::summary(game, &own, &listed.bots, viewer, now)
        })
        .collect()
}

/// [`summaries`] with the players' ratings beside their names.
fn rated_summaries(
    conn: &mut DbConnection,
    games: &[crate::db::games::Game],
    listed: &ListedSeats,
    viewer: i64,
) -> Result<Vec<turnpost_shared::api::GameSummary>, crate::db::DbError> {
    let mut listing = summaries(games, listed, viewer);
    super::rating::annotate_summaries(conn, games, &listed.seats, &mut listing)?;
    Ok(listing)
}

/// A game with its seats and players, read in one snapshot (no lock).
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn loaded(conn: &mut DbConnection, game_id: i64) -> Result<super::GameWithSeats, GameError> {
    frame::read(conn, |conn| {
        super::GameWithSeats::load(conn, game_id, false)
    })
}

/// Everything a game's web page shows, read in one snapshot: the view for `viewer` (0: a
/// visitor), every move, and the record.
#[derive(Debug, Clone)]
pub struct GamePage {
    /// The game as the viewer sees it.
    pub view: GameView,
    /// Every move, first first.
    pub moves: MoveList,
    /// The record, as players may see it (a running dice game's record has no seed).
    pub record: GameRecord,
    /// The game from its start with its full stored options (a dice game's seed too), to replay
    /// any earlier position on the server. Never shown as it is: its options may hold the seed.
    pub start: turnpost_shared::AnyGame,
    /// The position now, from the stored position (with its full options, like `start`): the
    /// page of the latest position needs no replay.
    pub position: turnpost_shared::AnyGame,
}

/// The game's page data for `viewer`.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn page(conn: &mut DbConnection, viewer: i64, game_id: i64) -> Result<GamePage, GameError> {
    frame::read(conn, |conn| {
        // The game and its seats once, every move once: the view's last moves are the tail.
        let loaded = super::GameWithSeats::load(conn, game_id, false)?;
        let rows = q::moves(conn, game_id)?;
        let position = super::engine(&loaded.game)?;
        let last = usize::try_from(super::LAST_MOVES).unwrap_or(usize::MAX);
        let recent = rows
            .get(rows.len().saturating_sub(last)..)
            .unwrap_or_default();
        let mut view = view::game_view(&loaded, &position, recent, viewer, db::now());
        super::rating::annotate(conn, &loaded, &mut view, viewer)?;
        let record = super::record::record_of(&loaded, &rows)?;
        let start = super::start_engine(&loaded.game)?;
        // Messages for the game's players only (a viewer of 0 is nobody).
        let messages = super::messages::visible(conn, &loaded, Some(viewer))?;
        Ok(GamePage {
            view,
            moves: MoveList {
                moves: rows.iter().map(view::move_view).collect(),
                messages,
                earlier: None,
                later: None,
            },
            record,
            start,
            position,
        })
    })
}

/// Which games the public listing shows.
#[derive(Debug, Clone, Default)]
pub struct PublicFilter {
    /// Only this kind.
    pub kind: Option<turnpost_shared::GameKind>,
    /// Only games of the player with this name (any case).
    pub player: Option<String>,
    /// Page size.
    pub limit: i64,
}

/// Recent active and finished games, newest activity first, as any visitor sees them. An
/// unknown player name lists nothing.
///
/// # Errors
/// Storage failures.
pub fn public_list(
    conn: &mut DbConnection,
    filter: &PublicFilter,
) -> Result<Vec<turnpost_shared::api::GameSummary>, GameError> {
    frame::read(conn, |conn| {
        let player = match &filter.player {
            Some(name) => match db::accounts::by_name_key(conn, &name.to_ascii_lowercase())? {
                Some(account) => Some(account.id),
                None => return Ok(Vec::new()),
            },
            None => None,
        };
        let games = q::recent_public(conn, filter.kind, player, filter.limit)?;
        let seats = listed_seats(conn, &games)?;
        Ok(rated_summaries(conn, &games, &seats, 0)?)
    })
}

/// The public name of the player called `name` (any case), if there is one who finished
/// signing up.
///
/// # Errors
/// Storage failures.
pub fn player_name(conn: &mut DbConnection, name: &str) -> Result<Option<String>, GameError> {
    frame::read(conn, |conn| {
        Ok(db::accounts::by_name_key(conn, &name.to_ascii_lowercase())?
            .filter(|a| a.verified_at.is_some() || a.is_bot())
            .map(|a| a.name))
    })
}
