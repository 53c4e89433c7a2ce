//! What the API, the CLI and the pages show of tournaments: the listing and one tournament
//! with its entrants, rounds and standings (tie-breaks by the pairing module). A tournament of
//! more than [`LISTED_GAMES`] games lists one round's games an answer, so an answer's size
//! is bounded by the field (at most `MAX_PLAYERS`), not by the number of games.

use std::collections::HashMap;

use turnpost_shared::api::{
    EntrantView, RoundView, StandingView, TournamentGameView, TournamentStatus, TournamentSummary,
    TournamentView,
};

use super::field::Field;
use super::settings::Settings;
use super::TournamentError;
use crate::db::tournaments as q;
use crate::db::transaction as tx;
use crate::db::{self, accounts, DbConnection, DbError};
use crate::pairing::{self, Standing};

/// What an action on one tournament answers: the tournament as its caller now sees it, or
/// why not.
pub type TournamentAnswer = Result<TournamentView, TournamentError>;
/// How many tournaments a listing shows.
pub const LIST_LIMIT: i64 = 100;

/// Up to this many games in all, a tournament's view lists every round's games.
pub const LISTED_GAMES: usize = 100;

fn organiser_name(conn: &mut DbConnection, settings: &Settings) -> Result<String, DbError> {
    Ok(
        accounts::by_id(conn, settings.row.organiser_id)?.map_or_else(
            || format!("account {}", settings.row.organiser_id),
            |a| a.name,
        ),
    )
}

/// The tournaments with `status`, newest first (at most [`LIST_LIMIT`]).
///
/// # Errors
/// Storage failures.
pub fn list(
    conn: &mut DbConnection,
    status: TournamentStatus,
) -> Result<Vec<TournamentSummary>, TournamentError> {
    tx::read_with(conn, |conn| {
        let rows = q::with_status(conn, status.as_str(), LIST_LIMIT)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let counts: HashMap<i64, i64> = q::entry_counts(conn, &ids)?.into_iter().collect();
        let mut found = Vec::with_capacity(rows.len());
        for row in rows {
            let settings = Settings::of_row(row)?;
            found.push(TournamentSummary {
                id: settings.id(),
                name: settings.row.name.clone(),
                organiser: organiser_name(conn, &settings)?,
                kind: settings.games.kind,
                format: settings.format,
                status: settings.status,
                entrants: u32::try_from(counts.get(&settings.id()).copied().unwrap_or(0))
                    .unwrap_or(u32::MAX),
                max_players: settings.row.max_players.and_then(|m| u32::try_from(m).ok()),
                rounds: settings.rounds,
                current_round: settings.current_round,
                entry_closes_at: db::rfc3339(settings.entry_closes_at()),
            });
        }
        Ok(found)
    })
}

/// Points in half points as a number (1.5).
fn halves(points: u32) -> f64 {
    f64::from(points) / 2.0
}

/// The standings as the API shows them.
#[must_use]
pub fn standing_views(field: &Field, standings: &[Standing]) -> Vec<StandingView> {
    standings
        .iter()
        .map(|s| StandingView {
            rank: s.rank,
            player: field
                .entries
                .get(s.entrant)
                .map_or_else(String::new, |(_, a)| a.name.clone()),
            points: halves(s.points.0),
            buchholz: halves(s.buchholz.0),
            sonneborn_berger: f64::from(s.sonneborn_berger.0) / 4.0,
            games_played: s.games_played,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            byes: s.byes,
        })
        .collect()
}

/// The standings of a field now.
#[must_use]
pub fn standings(settings: &Settings, field: &Field) -> Vec<StandingView> {
    let standings = pairing::standings(
        &settings.pairing_format(),
        &field.entrants,
        &field.tournament_games(),
        &field.byes,
    );
    standing_views(field, &standings)
}

/// Tournament `id` as `viewer` sees it, listing the games of round `round` (given) or, in a
/// tournament of more than [`LISTED_GAMES`] games, of the first round with a game still
/// playing (the last when all have ended); of every round otherwise.
///
/// # Errors
/// [`TournamentError::NotFound`]; [`TournamentError::NoSuchRound`] for a round not paired;
/// storage failures.
pub fn show(conn: &mut DbConnection, viewer: i64, id: i64, round: Option<u32>) -> TournamentAnswer {
    tx::read_with(conn, |conn| {
        let row = q::find(conn, id)?.ok_or(TournamentError::NotFound { id })?;
        let settings = Settings::of_row(row)?;
        if let Some(round) = round.filter(|r| *r == 0 || *r > settings.current_round) {
            return Err(TournamentError::NoSuchRound {
                id,
                round,
                paired: settings.current_round,
            });
        }
        let field = Field::load(conn, &settings)?;
        Ok(view_of(conn, &settings, &field, viewer, round)?)
    })
}

/// The rounds whose games a view lists: `round` when given; every round when the tournament
/// has at most [`LISTED_GAMES`] games; else the first round with a game still playing, or the
/// last.
fn listed_rounds(field: &Field, paired: u32, round: Option<u32>) -> std::ops::RangeInclusive<u32> {
    if let Some(round) = round {
        return round..=round;
    }
    if field.games.len() <= LISTED_GAMES {
        return 1..=paired;
    }
    let playing = field
        .games
        .iter()
        .filter(|g| g.game.placings.is_none())
        .map(|g| g.game.round)
        .min()
        .unwrap_or(paired);
    playing..=playing
}

/// The view of a tournament read already, listing the games of `round` as [`show`] says.
///
/// # Errors
/// Storage failures.
pub fn view_of(
    conn: &mut DbConnection,
    settings: &Settings,
    field: &Field,
    viewer: i64,
    round: Option<u32>,
) -> Result<TournamentView, DbError> {
    let row = &settings.row;
    let name_of = |i: usize| {
        field
            .entries
            .get(i)
            .map_or_else(String::new, |(_, a)| a.name.clone())
    };
    let listed = listed_rounds(field, settings.current_round, round);
    let mut rounds: Vec<RoundView> = (1..=settings.current_round)
        .map(|round| RoundView {
            round,
            games: Vec::new(),
            bye: field
                .byes
                .iter()
                .find(|(r, _)| *r == round)
                .map(|(_, i)| name_of(*i)),
            listed: listed.contains(&round),
            game_count: 0,
            ended_count: 0,
        })
        .collect();
    for game in &field.games {
        // Rounds are 1, 2, … in order: round r is at r − 1.
        let at = usize::try_from(game.game.round)
            .ok()
            .and_then(|r| r.checked_sub(1));
        let Some(round) = at.and_then(|at| rounds.get_mut(at)) else {
            continue;
        };
        round.game_count += 1;
        if game.game.placings.is_some() {
            round.ended_count += 1;
        }
        let Some(made) = game.made.as_ref().filter(|_| round.listed) else {
            continue;
        };
        round.games.push(TournamentGameView {
            id: made.row.game_id,
            players: game.game.seats.iter().map(|&i| name_of(i)).collect(),
            status: made.row.status,
            result: made.row.result.clone(),
            placings: game.game.placings.clone(),
        });
    }
    Ok(TournamentView {
        id: row.id,
        name: row.name.clone(),
        organiser: organiser_name(conn, settings)?,
        kind: settings.games.kind,
        options: row.setup.options.clone(),
        clock: row.setup.clock.clone(),
        timeout: settings.games.timeout,
        format: settings.format,
        double: row.setup.double_round != 0,
        all_at_once: row.setup.all_at_once != 0,
        table_seats: settings.table_seats,
        rounds: settings.rounds,
        entry_closes_at: db::rfc3339(row.entry_closes_at),
        max_players: row.max_players.and_then(|m| u32::try_from(m).ok()),
        start_when_full: row.start_when_full != 0,
        status: settings.status,
        current_round: settings.current_round,
        created_at: db::rfc3339(row.created_at),
        started_at: row.started_at.map(db::rfc3339),
        finished_at: row.finished_at.map(db::rfc3339),
        you_entered: field
            .entries
            .iter()
            .any(|(e, _)| e.account_id == viewer && e.left_before_round.is_none()),
        entrants: field
            .entries
            .iter()
            .map(|(e, a)| EntrantView {
                player: a.name.clone(),
                entry_number: u32::try_from(e.entry_number).unwrap_or(0),
                left_before_round: e.left_before_round.and_then(|r| u32::try_from(r).ok()),
                left_reason: e.left_reason.clone(),
            })
            .collect(),
        round_games: rounds,
        standings: if settings.status == TournamentStatus::Entry {
            Vec::new()
        } else {
            standings(settings, field)
        },
    })
}
