//! Ratings in the game service: whether a challenge is rated, and the rating change when a
//! rated game ends, written in the transaction that ends it (every ending path: the last move,
//! an agreed draw, a resignation, a timeout, a claim, a departure). The maths is
//! `crate::ratings`; the rows are `crate::db::ratings`.
//!
//! The update itself, when a game ends, is `super::rating_update`.

use chrono::NaiveDateTime;
use turnpost_shared::api::{
    GameSummary, GameView, KindRating, Leaderboard, LeaderboardEntry, PlayerProfile, RatingChanges,
    RatingPoint, SeatRating,
};
use turnpost_shared::{AnyGame, GameKind, Options};

use super::{GameError, GameStatus, GameWithSeats};
use crate::db::games::{Game, GameSeat};
use crate::db::ratings::{self as q, RatingRow};
use crate::db::{self, DbConnection, DbError};
use crate::ratings::{self, Rating, RatingKind, Score};

/// Whether a challenge is rated: as asked, else rated between people and unrated with a bot
/// or with an option its kind marks unrated (a non-standard board).
///
/// # Errors
/// [`GameError::InvalidOptions`] for `rated: true` with an unrated option (naming it).
pub fn decide(
    kind: GameKind,
    options: &Options,
    asked: Option<bool>,
    with_bots: bool,
) -> Result<bool, GameError> {
    let unrated = AnyGame::unrated_reason(kind, options);
    match (asked, unrated) {
        (Some(true), Some(reason)) => Err(GameError::InvalidOptions(format!(
            "rated: {reason}; ask for an unrated game (\"rated\": false) or use the standard \
             options"
        ))),
        (Some(asked), _) => Ok(asked),
        (None, Some(_)) => Ok(false),
        (None, None) => Ok(!with_bots),
    }
}

/// A player's rating in `kind` at `at`: the last stored one with its deviation grown for the
/// idle days since, or a new player's.
///
/// # Errors
/// Storage failures.
pub fn current(
    conn: &mut DbConnection,
    account_id: i64,
    kind: RatingKind,
    at: NaiveDateTime,
) -> Result<Rating, DbError> {
    Ok(q::latest(conn, account_id, &kind.to_string())?.map_or(Rating::NEW, |row| grown(&row, at)))
}

/// The current ratings of `account_ids` in `kind` at `at`, in the same order (one statement
/// for them all: a turn card shows every seat's).
///
/// # Errors
/// Storage failures.
pub fn current_of(
    conn: &mut DbConnection,
    account_ids: &[i64],
    kind: RatingKind,
    at: NaiveDateTime,
) -> Result<Vec<Rating>, DbError> {
    let rows = q::latest_of(conn, account_ids, &kind.to_string())?;
    Ok(account_ids
        .iter()
        .map(|id| {
            rows.iter()
                .find(|row| row.change.account_id == *id)
                .map_or(Rating::NEW, |row| grown(row, at))
        })
        .collect())
}

/// The rating a history row left, grown for the idle days until `at` (deviation only).
#[must_use]
pub fn grown(row: &RatingRow, at: NaiveDateTime) -> Rating {
    ratings::after_idle(after(row), (at - row.change.rated_at).num_days())
}

/// The rating after a history row's game.
#[must_use]
pub fn after(row: &RatingRow) -> Rating {
    Rating {
        rating: row.change.rating_after,
        deviation: row.change.deviation_after,
        volatility: row.change.volatility_after,
    }
}

/// The ratings after a game with these `places` (1 = first, in seat order): Glicko-2 for two
/// seats (a lower place wins, equal places draw), Weng–Lin for more.
#[must_use]
pub fn new_ratings(kind: RatingKind, before: &[Rating], places: &[u32]) -> Vec<Rating> {
    match (kind.is_multi(), before, places) {
        (false, [one, two], [p1, p2]) => {
            let score = |mine: u32, theirs: u32| match mine.cmp(&theirs) {
                std::cmp::Ordering::Less => Score::Win,
                std::cmp::Ordering::Equal => Score::Draw,
                std::cmp::Ordering::Greater => Score::Loss,
            };
            vec![
                ratings::after_game(*one, *two, score(*p1, *p2)),
                ratings::after_game(*two, *one, score(*p2, *p1)),
            ]
        }
        _ => ratings::after_placings(before, places),
    }
}

/// A rating as shown beside a name.
#[must_use]
pub fn seat_rating(rating: Rating) -> SeatRating {
    SeatRating {
        rating: rating.shown(),
        provisional: rating.provisional(),
    }
}

/// Adds the players' ratings to a game's view and, for a rated two-player challenge not yet
/// started, how `viewer`'s rating would change with each result.
///
/// # Errors
/// Storage failures.
pub fn annotate(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    view: &mut GameView,
    viewer: i64,
) -> Result<(), DbError> {
    let kind = RatingKind::of_game(loaded.game.kind, view.seats.len());
    let now = db::now();
    let accounts: Vec<i64> = loaded.seats.iter().map(|(_, account)| account.id).collect();
    let rows = q::latest_of(conn, &accounts, &kind.to_string())?;
    let mut found: Vec<(i64, Rating)> = Vec::new();
    for seat in &mut view.seats {
        let account = loaded
            .seats
            .iter()
            .find(|(s, _)| s.seat == i32::from(seat.seat))
            .map(|(_, account)| account.id);
        if let Some(account) = account {
            let rating = rows
                .iter()
                .find(|row| row.change.account_id == account)
                .map_or(Rating::NEW, |row| grown(row, now));
            seat.rating = Some(seat_rating(rating));
            found.push((account, rating));
        }
    }
    if loaded.game.rated && loaded.game.status == GameStatus::Invited && view.seats.len() == 2 {
        let mine = found.iter().find(|(id, _)| *id == viewer);
        let theirs = found.iter().find(|(id, _)| *id != viewer);
        if let (Some((_, mine)), Some((_, theirs))) = (mine, theirs) {
            let changes = ratings::expected_changes(*mine, *theirs);
            view.rating_changes = Some(RatingChanges {
                win: changes.win,
                draw: changes.draw,
                loss: changes.loss,
            });
        }
    }
    Ok(())
}

/// A player's profile: their rating in each kind they played rated games in, with history.
///
/// # Errors
/// [`GameError::NoSuchPlayer`]; storage failures.
pub fn profile(conn: &mut DbConnection, name: &str) -> Result<PlayerProfile, GameError> {
    let key = name.trim().to_ascii_lowercase();
    let account = crate::db::accounts::by_name_key(conn, &key)?
        .filter(|a| a.verified_at.is_some())
        .ok_or_else(|| GameError::NoSuchPlayer {
            name: name.to_owned(),
        })?;
    let rows = q::of_account(conn, account.id)?;
    let now = db::now();
    let ratings = RatingKind::all()
        .into_iter()
        .filter_map(|kind| {
            let name = kind.to_string();
            let mine: Vec<&RatingRow> = rows
                .iter()
                .filter(|r| r.change.rating_kind == name)
                .collect();
            let last = mine.last()?;
            let shown = grown(last, now);
            Some(KindRating {
                kind: name,
                rating: shown.shown(),
                deviation: shown.shown_deviation(),
                provisional: shown.provisional(),
                games: u32::try_from(mine.len()).unwrap_or(u32::MAX),
                history: mine
                    .iter()
                    .map(|row| RatingPoint {
                        game: row.change.game_id,
                        at: db::rfc3339(row.change.rated_at),
                        before: before(row).shown(),
                        after: after(row).shown(),
                    })
                    .collect(),
            })
        })
        .collect();
    Ok(PlayerProfile {
        name: account.name.clone(),
        bot: account.is_bot(),
        engine: account.engine,
        ratings,
    })
}

/// The rating before a history row's game.
#[must_use]
pub fn before(row: &RatingRow) -> Rating {
    Rating {
        rating: row.change.rating_before,
        deviation: row.change.deviation_before,
        volatility: row.change.volatility_before,
    }
}

/// The ranks of a leaderboard asked for: `limit` players after the first `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaderboardPage {
    /// Ranks to skip.
    pub offset: u32,
    /// Players to show.
    pub limit: u32,
}

/// A page of everyone rated in `kind` (a rating kind's name), highest rating first (then more
/// games, then name).
///
/// # Errors
/// [`GameError::UnknownRatingKind`]; storage failures.
pub fn leaderboard(
    conn: &mut DbConnection,
    kind: &str,
    page: LeaderboardPage,
) -> Result<Leaderboard, GameError> {
    let kind: RatingKind = kind
        .parse()
        .map_err(|e: ratings::UnknownRatingKind| GameError::UnknownRatingKind(e.to_string()))?;
    let name = kind.to_string();
    let rows = q::of_kind(conn, &name)?;
    let now = db::now();
    let mut players: Vec<(Rating, u32, crate::db::accounts::Account)> = Vec::new();
    for (row, account) in rows {
        match players.iter_mut().find(|(_, _, a)| a.id == account.id) {
            Some(entry) => {
                entry.0 = grown(&row, now);
                entry.1 += 1;
            }
            None => players.push((grown(&row, now), 1, account)),
        }
    }
    players.sort_by(|a, b| {
        b.0.rating
            .total_cmp(&a.0.rating)
            .then(b.1.cmp(&a.1))
            .then_with(|| a.2.name_key.cmp(&b.2.name_key))
    });
    let total = u32::try_from(players.len()).unwrap_or(u32::MAX);
    let end = page.offset.saturating_add(page.limit);
    Ok(Leaderboard {
        kind: name,
        total,
        offset: page.offset,
        next_offset: (end < total).then_some(end),
        players: players
            .into_iter()
            .enumerate()
            .skip(usize::try_from(page.offset).unwrap_or(usize::MAX))
            .take(usize::try_from(page.limit).unwrap_or(usize::MAX))
            .map(|(i, (rating, games, account))| LeaderboardEntry {
                rank: u32::try_from(i + 1).unwrap_or(u32::MAX),
                bot: account.is_bot(),
                engine: account.engine,
                player: account.name,
                rating: rating.shown(),
                deviation: rating.shown_deviation(),
                provisional: rating.provisional(),
                games,
            })
            .collect(),
    })
}

/// How `account`'s rating would change with each result of a rated two-player challenge (for
/// the invitation mail); none for other games.
///
/// # Errors
/// Storage failures.
pub fn changes_for(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    account: i64,
) -> Result<Option<RatingChanges>, DbError> {
    if !loaded.game.rated || loaded.seats.len() + loaded.vacant_seats().len() != 2 {
        return Ok(None);
    }
    let Some((_, opponent)) = loaded.seats.iter().find(|(_, a)| a.id != account) else {
        return Ok(None);
    };
    let kind = RatingKind::of_game(loaded.game.kind, 2);
    let now = db::now();
    let mine = current(conn, account, kind, now)?;
    let theirs = current(conn, opponent.id, kind, now)?;
    let changes = ratings::expected_changes(mine, theirs);
    Ok(Some(RatingChanges {
        win: changes.win,
        draw: changes.draw,
        loss: changes.loss,
    }))
}

/// Adds the players' ratings to listed games (`seats`: the listed games' seats with names);
/// each player's rating in a kind is read once.
///
/// # Errors
/// Storage failures.
pub fn annotate_summaries(
    conn: &mut DbConnection,
    games: &[Game],
    seats: &[(GameSeat, String)],
    listing: &mut [GameSummary],
) -> Result<(), DbError> {
    let now = db::now();
    let mut known: Vec<((i64, RatingKind), Rating)> = Vec::new();
    for (game, summary) in games.iter().zip(listing.iter_mut()) {
        let kind = RatingKind::of_game(game.kind, summary.seats.len());
        for seat in &mut summary.seats {
            let Some((held, _)) = seats
                .iter()
                .find(|(s, _)| s.game_id == game.id && s.seat == i32::from(seat.seat))
            else {
                continue;
            };
            let key = (held.account_id, kind);
            let rating = match known.iter().find(|(k, _)| *k == key) {
                Some((_, rating)) => *rating,
                None => {
                    let rating = current(conn, held.account_id, kind, now)?;
                    known.push((key, rating));
                    rating
                }
            };
            seat.rating = Some(seat_rating(rating));
        }
    }
    Ok(())
}
