//! What the mails of a batch of game events read, read once for the whole batch: the last
//! moves of its games, their players' ratings, their conditional-move rows and which of them
//! have messages. Composing a turn card asked the database five questions of its own; a batch
//! of events now asks each of them once, and its cards only insert their outbox rows. A read
//! for a game outside the batch (or a window the batch did not read) goes to the database as
//! before, so [`BatchReads::none`] composes exactly as without it.

use chrono::NaiveDateTime;

use crate::db::games::MoveRow;
use crate::db::{conditional, events, messages, ratings, DbConnection, DbError};
use crate::games::{self, GameWithSeats, LAST_MOVES};
use crate::ratings::{Rating, RatingKind};

/// A game's window of moves read for the batch: those with a ply from `from` on, up to the
/// last event's.
struct MoveWindow {
    game_id: i64,
    from: i32,
    before: i32,
}

/// The reads of one batch (see the module).
#[derive(Default)]
pub struct BatchReads {
    /// The batch's games, ascending: what is read below is complete for them.
    games: Vec<i64>,
    windows: Vec<MoveWindow>,
    moves: Vec<MoveRow>,
    conditional: Vec<conditional::ConditionalRow>,
    with_messages: Vec<i64>,
    /// Each kind read: the players of the batch's rated games in it (ascending) and the
    /// latest history row of each that has one.
    ratings: Vec<(RatingKind, Vec<i64>, Vec<ratings::RatingRow>)>,
}

/// The widest window of moves read for one batch: a batch whose games lie further apart reads
/// each game's moves on its own instead.
const MOST_PLIES_READ: i32 = 400;

impl BatchReads {
    /// Nothing read: every question goes to the database.
    #[must_use]
    pub fn none() -> Self {
        Self::default()
    }

    /// Reads what the mails of `batch` (each game as it was at its event) will need.
    ///
    /// # Errors
    /// Storage failures.
    pub fn read(conn: &mut DbConnection, batch: &[&GameWithSeats]) -> Result<Self, DbError> {
        let mut games: Vec<i64> = batch.iter().map(|loaded| loaded.game.id).collect();
        games.sort_unstable();
        games.dedup();
        if games.is_empty() {
            return Ok(Self::none());
        }
        let mut windows: Vec<MoveWindow> = Vec::new();
        for loaded in batch {
            let game = &loaded.game;
            let from = game
                .ply
                .saturating_sub(i32::try_from(LAST_MOVES).unwrap_or(i32::MAX));
            match windows.iter_mut().find(|w| w.game_id == game.id) {
                Some(window) => {
                    window.from = window.from.min(from);
                    window.before = window.before.max(game.ply);
                }
                None => windows.push(MoveWindow {
                    game_id: game.id,
                    from,
                    before: game.ply,
                }),
            }
        }
        let lowest = windows.iter().map(|w| w.from).min().unwrap_or(0);
        let highest = windows.iter().map(|w| w.before).max().unwrap_or(0);
        let moves = if highest.saturating_sub(lowest) <= MOST_PLIES_READ {
            events::moves_of_games(conn, &games, lowest, highest)?
        } else {
            windows.clear();
            Vec::new()
        };
        let mut by_kind: Vec<(RatingKind, Vec<i64>)> = Vec::new();
        for loaded in batch.iter().filter(|loaded| loaded.game.rated) {
            let kind = RatingKind::of_game(loaded.game.kind, loaded.seats.len());
            let accounts = loaded.seats.iter().map(|(_, account)| account.id);
            match by_kind.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, ids)) => ids.extend(accounts),
                None => by_kind.push((kind, accounts.collect())),
            }
        }
        let mut rating_rows = Vec::with_capacity(by_kind.len());
        for (kind, mut ids) in by_kind {
            ids.sort_unstable();
            ids.dedup();
            let rows = ratings::latest_of(conn, &ids, &kind.to_string())?;
            rating_rows.push((kind, ids, rows));
        }
        Ok(Self {
            conditional: conditional::of_games(conn, &games)?,
            with_messages: messages::games_with_messages(conn, &games)?,
            games,
            windows,
            moves,
            ratings: rating_rows,
        })
    }

    fn covers(&self, game_id: i64) -> bool {
        self.games.binary_search(&game_id).is_ok()
    }

    /// The last `LAST_MOVES` moves of `game_id` before `ply`, oldest first.
    ///
    /// # Errors
    /// Storage failures.
    pub fn moves_before(
        &self,
        conn: &mut DbConnection,
        game_id: i64,
        ply: i32,
    ) -> Result<Vec<MoveRow>, DbError> {
        let from = ply.saturating_sub(i32::try_from(LAST_MOVES).unwrap_or(i32::MAX));
        let read = self
            .windows
            .iter()
            .any(|w| w.game_id == game_id && w.from <= from && ply <= w.before);
        if !read {
            return events::moves_before(conn, game_id, ply, LAST_MOVES);
        }
        Ok(self
            .moves
            .iter()
            .filter(|m| m.game_id == game_id && m.ply >= from && m.ply < ply)
            .cloned()
            .collect())
    }

    /// The current ratings of `account_ids` in `kind` at `at`, in that order.
    ///
    /// # Errors
    /// Storage failures.
    pub fn ratings(
        &self,
        conn: &mut DbConnection,
        account_ids: &[i64],
        kind: RatingKind,
        at: NaiveDateTime,
    ) -> Result<Vec<Rating>, DbError> {
        let read = self.ratings.iter().find(|(k, players, _)| {
            *k == kind
                && account_ids
                    .iter()
                    .all(|id| players.binary_search(id).is_ok())
        });
        let Some((_, _, rows)) = read else {
            return games::rating::current_of(conn, account_ids, kind, at);
        };
        Ok(account_ids
            .iter()
            .map(|id| {
                rows.iter()
                    .find(|row| row.change.account_id == *id)
                    .map_or(Rating::NEW, |row| games::rating::grown(row, at))
            })
            .collect())
    }

    /// The move the seat's conditional answers dropped at `ply`, if they did.
    ///
    /// # Errors
    /// Storage failures.
    pub fn dropped_at(
        &self,
        conn: &mut DbConnection,
        game_id: i64,
        seat: i32,
        ply: i32,
    ) -> Result<Option<String>, DbError> {
        if !self.covers(game_id) {
            return games::conditional::dropped_at(conn, game_id, seat, ply);
        }
        Ok(self
            .conditional
            .iter()
            .find(|row| row.game_id == game_id && row.seat == seat)
            .filter(|row| row.dropped_ply == Some(ply))
            .and_then(|row| row.dropped_move.clone()))
    }

    /// Whether `game_id` surely has no message (so none can be shown).
    #[must_use]
    pub fn no_messages(&self, game_id: i64) -> bool {
        self.covers(game_id) && self.with_messages.binary_search(&game_id).is_err()
    }
}
