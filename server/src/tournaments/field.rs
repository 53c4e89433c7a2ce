//! A tournament's field as the pairing module sees it: the entrants in entry order, every game
//! created so far with its seats as entrant indices and, once over, its placings, and the
//! byes. Read from storage in one go, for pairing a round, the standings and the views.

use std::collections::HashMap;

use turnpost_shared::play::GameStatus;

use super::settings::Settings;
use super::TournamentError;
use crate::db::accounts::Account;
use crate::db::tournaments::{self as q, EntryRow};
use crate::db::{DbConnection, DbError};
use crate::games::{self, view, GameWithSeats};
use crate::pairing::{Entrant, TournamentGame};

/// Everything a tournament has been so far.
#[derive(Debug)]
pub struct Field {
    /// Entries in entry order (index = entrant).
    pub entries: Vec<(EntryRow, Account)>,
    /// The pairing module's entrants (same order).
    pub entrants: Vec<Entrant>,
    /// Every game by round, with the game as loaded.
    pub games: Vec<(TournamentGame, GameWithSeats)>,
    /// Byes: (round, entrant).
    pub byes: Vec<(u32, usize)>,
}

impl Field {
    /// Reads the field of tournament `settings`.
    ///
    /// # Errors
    /// Storage failures; [`DbError::Corrupt`] for a game seat or bye of an account that is
    /// no entrant.
    pub fn load(conn: &mut DbConnection, settings: &Settings) -> Result<Self, TournamentError> {
        let id = settings.id();
        let entries = q::entries(conn, id)?;
        let count = entries.len();
        let index: HashMap<i64, usize> = entries
            .iter()
            .enumerate()
            .map(|(i, (entry, _))| (entry.account_id, i))
            .collect();
        let index_of = |account: i64| {
            index.get(&account).copied().ok_or_else(|| {
                DbError::Corrupt(format!("tournament {id}: account {account} is no entrant"))
            })
        };
        let entrants = entries
            .iter()
            .enumerate()
            .map(|(i, (entry, _))| Entrant {
                // Seeded by entry order: the first to enter the strongest.
                seed: f64::from(u32::try_from(count - i).unwrap_or(u32::MAX)),
                left_before_round: entry.left_before_round.and_then(|r| u32::try_from(r).ok()),
            })
            .collect();
        let rows = q::games(conn, id)?;
        let ids: Vec<i64> = rows.iter().map(|(_, game)| *game).collect();
        let mut loaded: HashMap<i64, GameWithSeats> = GameWithSeats::find_many(conn, &ids)?
            .into_iter()
            .map(|l| (l.game.id, l))
            .collect();
        let mut games = Vec::with_capacity(rows.len());
        for (round, game_id) in rows {
            let game = loaded.remove(&game_id).ok_or_else(|| {
                DbError::Corrupt(format!("tournament {id}: game {game_id} is missing"))
            })?;
            let seats = game
                .seats
                .iter()
                .map(|(_, account)| index_of(account.id))
                .collect::<Result<Vec<_>, _>>()?;
            let placings = placings(&game)?;
            games.push((
                TournamentGame {
                    round: u32::try_from(round).unwrap_or(0),
                    seats,
                    placings,
                },
                game,
            ));
        }
        let byes = q::byes(conn, id)?
            .into_iter()
            .map(|(round, account)| Ok((u32::try_from(round).unwrap_or(0), index_of(account)?)))
            .collect::<Result<Vec<_>, DbError>>()?;
        Ok(Self {
            entries,
            entrants,
            games,
            byes,
        })
    }

    /// The pairing module's games.
    #[must_use]
    pub fn tournament_games(&self) -> Vec<TournamentGame> {
        self.games.iter().map(|(game, _)| game.clone()).collect()
    }

    /// Whether every game of the rounds up to `round` has ended.
    #[must_use]
    pub fn ended_through(&self, round: u32) -> bool {
        self.games
            .iter()
            .filter(|(game, _)| game.round <= round)
            .all(|(game, _)| game.placings.is_some())
    }
}

/// Each seat's place once a game is over (index seat − 1), as the game view shows them.
fn placings(loaded: &GameWithSeats) -> Result<Option<Vec<u32>>, DbError> {
    if loaded.game.status != GameStatus::Finished {
        return Ok(None);
    }
    let engine = games::engine(&loaded.game)?;
    let (_, places) = view::departures(
        &loaded.game,
        loaded.seats.iter().map(|(seat, _)| seat),
        Some(&engine),
    );
    Ok(places.map(|p| p.into_iter().map(u32::from).collect()))
}
