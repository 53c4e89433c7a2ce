//! A tournament's field as the pairing module sees it: the entrants in entry order, every game
//! paired so far (made, or still waiting in its batch) with its seats as entrant indices and,
//! once over, its placings, and the byes. Read from storage in one go, for pairing a round, the
//! standings and the views, without loading the games themselves: an ended game's placings are
//! stored once worked out (issue 48 point 3: the cost of a page does not grow with replays).

use std::collections::HashMap;

use turnpost_shared::play::GameStatus;

use super::settings::Settings;
use super::TournamentError;
use crate::db::accounts::Account;
use crate::db::tournament_games::{self as tg, TournamentGameRow};
use crate::db::tournament_pairings as pairings;
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
    /// Every game paired, by round: made ones first, then those waiting to be made.
    pub games: Vec<FieldGame>,
    /// Byes: (round, entrant).
    pub byes: Vec<(u32, usize)>,
    /// Placings worked out on this read for ended games that had none stored: (game, text).
    fresh_placings: Vec<(i64, String)>,
}

/// One paired game of the field.
#[derive(Debug, Clone)]
pub struct FieldGame {
    /// As the pairing module sees it.
    pub game: TournamentGame,
    /// The game, once made (None while its pairing waits for its batch).
    pub made: Option<MadeGame>,
}

/// A made game of the field.
#[derive(Debug, Clone)]
pub struct MadeGame {
    /// Its row.
    pub row: TournamentGameRow,
    /// Its seats: (seat, account), by seat.
    pub seats: Vec<(i32, i64)>,
}

impl MadeGame {
    /// The account at `seat`.
    #[must_use]
    pub fn player_at(&self, seat: i32) -> Option<i64> {
        self.seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, account)| *account)
    }
}

impl Field {
    /// Reads the field of tournament `settings`.
    ///
    /// # Errors
    /// Storage failures; [`DbError::Corrupt`] for a game seat or bye of an account that is
    /// no entrant, or stored placings that are no list of places.
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
        let rows = tg::of_tournament(conn, id)?;
        let mut seats: HashMap<i64, Vec<(i32, i64)>> = HashMap::new();
        for (game, seat, account) in tg::seats_of_tournament(conn, id)? {
            seats.entry(game).or_default().push((seat, account));
        }
        let fresh_placings = worked_out_placings(conn, &rows)?;
        let fresh: HashMap<i64, &str> = fresh_placings
            .iter()
            .map(|(game, text)| (*game, text.as_str()))
            .collect();
        let mut games = Vec::with_capacity(rows.len());
        for row in rows {
            let game_seats = seats.remove(&row.game_id).unwrap_or_default();
            let entrant_seats = game_seats
                .iter()
                .map(|(_, account)| index_of(*account))
                .collect::<Result<Vec<_>, _>>()?;
            let placings = if row.status == GameStatus::Finished {
                let text = row
                    .placings
                    .as_deref()
                    .or_else(|| fresh.get(&row.game_id).copied());
                text.map(|text| parse_placings(id, row.game_id, text))
                    .transpose()?
            } else {
                None
            };
            games.push(FieldGame {
                game: TournamentGame {
                    round: u32::try_from(row.round).unwrap_or(0),
                    seats: entrant_seats,
                    placings,
                },
                made: Some(MadeGame {
                    row,
                    seats: game_seats,
                }),
            });
        }
        for pairing in pairings::waiting(conn, id, i64::MAX)? {
            let entrant_seats = pairing
                .accounts()?
                .into_iter()
                .map(index_of)
                .collect::<Result<Vec<_>, _>>()?;
            games.push(FieldGame {
                game: TournamentGame {
                    round: u32::try_from(pairing.round).unwrap_or(0),
                    seats: entrant_seats,
                    placings: None,
                },
                made: None,
            });
        }
        // By round; within a round the made games keep their order before the waiting ones.
        games.sort_by_key(|g| g.game.round);
        let byes = q::byes(conn, id)?
            .into_iter()
            .map(|(round, account)| Ok((u32::try_from(round).unwrap_or(0), index_of(account)?)))
            .collect::<Result<Vec<_>, DbError>>()?;
        Ok(Self {
            entries,
            entrants,
            games,
            byes,
            fresh_placings,
        })
    }

    /// The pairing module's games.
    #[must_use]
    pub fn tournament_games(&self) -> Vec<TournamentGame> {
        self.games.iter().map(|g| g.game.clone()).collect()
    }

    /// Whether every game of the rounds up to `round` has ended (a pairing whose game is not
    /// made yet has not).
    #[must_use]
    pub fn ended_through(&self, round: u32) -> bool {
        self.games
            .iter()
            .filter(|g| g.game.round <= round)
            .all(|g| g.game.placings.is_some())
    }

    /// Stores the placings this read worked out, so later reads need not (inside a write
    /// transaction: the sweep's).
    ///
    /// # Errors
    /// Storage failures.
    pub fn store_placings(&self, conn: &mut DbConnection) -> Result<(), DbError> {
        for (game, text) in &self.fresh_placings {
            tg::store_placings(conn, *game, text)?;
        }
        Ok(())
    }
}

/// The placings of the ended games among `rows` that have none stored, worked out from the
/// games (the only place a game is loaded and replayed): (game, text).
fn worked_out_placings(
    conn: &mut DbConnection,
    rows: &[TournamentGameRow],
) -> Result<Vec<(i64, String)>, DbError> {
    let missing: Vec<i64> = rows
        .iter()
        .filter(|row| row.status == GameStatus::Finished && row.placings.is_none())
        .map(|row| row.game_id)
        .collect();
    let mut worked_out = Vec::with_capacity(missing.len());
    for loaded in GameWithSeats::find_many(conn, &missing)? {
        if let Some(places) = placings(&loaded)? {
            let text = places
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            worked_out.push((loaded.game.id, text));
        }
    }
    Ok(worked_out)
}

fn parse_placings(tournament: i64, game: i64, text: &str) -> Result<Vec<u32>, DbError> {
    text.split(',')
        .map(|place| {
            place.parse::<u32>().map_err(|_| {
                DbError::Corrupt(format!(
                    "tournament {tournament}: game {game} placings {text:?}"
                ))
            })
        })
        .collect()
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
