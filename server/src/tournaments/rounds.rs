//! Moving a tournament on, run by the sweeps (`crate::sweeps`) in every server process: when
//! the entry window has closed, start it (or cancel it with too few players); when every game
//! of the round has ended, pair the next round or, after the last, finish it. Each step runs
//! in one transaction with the tournament's row locked and checks the state it finds, so it is
//! idempotent and two processes never pair a round twice.

use chrono::NaiveDateTime;
use turnpost_shared::api::TournamentStatus;
use turnpost_shared::play::ResultReason;

use super::field::Field;
use super::locked::{locked, resign_if_playing};
use super::settings::Settings;
use super::{view, TournamentError};
use crate::db::accounts::Account;
use crate::db::tournaments as q;
use crate::db::{accounts, DbConnection, DbError};
use crate::games::{arranged, frame};
use crate::mail_context::MailContext;
use crate::notify::tournament_mail;
use crate::pairing::{self, Pairing};

/// What one step did to a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do yet.
    Waiting,
    /// Cancelled: too few players entered.
    Cancelled,
    /// Started, round 1 (or every round-robin round) paired.
    Started,
    /// The next round was paired.
    Paired,
    /// The last round ended: final standings mailed.
    Finished,
}

/// Moves on every tournament whose entry window has closed or that runs, as of `now`; a
/// tournament that fails is logged and left for the next round of sweeps. Answers how many
/// moved on.
///
/// # Errors
/// Storage failures while listing the tournaments.
pub fn advance_due(
    conn: &mut DbConnection,
    ctx: &MailContext,
    now: NaiveDateTime,
) -> Result<usize, DbError> {
    let mut moved = 0;
    for id in q::due(conn, now)? {
        match advance(conn, ctx, id, now) {
            Ok(Step::Waiting) => {}
            Ok(step) => {
                tracing::info!(tournament = id, ?step, "tournament moved on");
                moved += 1;
            }
            Err(TournamentError::Storage(error)) => return Err(error),
            Err(error) => tracing::error!(tournament = id, %error, "tournament cannot move on"),
        }
    }
    Ok(moved)
}

/// One step of tournament `id` as of `now`, in one transaction with its row locked.
///
/// # Errors
/// [`TournamentError::NotFound`]; a round that cannot be paired or whose games cannot be
/// made; storage failures (all rolled back).
pub fn advance(
    conn: &mut DbConnection,
    ctx: &MailContext,
    id: i64,
    now: NaiveDateTime,
) -> Result<Step, TournamentError> {
    frame::write(conn, |conn| {
        let settings = locked(conn, id)?;
        match settings.status {
            TournamentStatus::Entry if settings.entry_closes_at() <= now => {
                start(conn, ctx, settings, now)
            }
            TournamentStatus::Running => next(conn, ctx, settings, now),
            _ => Ok(Step::Waiting),
        }
    })
}

fn round_column(round: u32) -> i32 {
    i32::try_from(round).unwrap_or(i32::MAX)
}

/// Starts a tournament whose window closed, or cancels it with too few players.
fn start(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: Settings,
    now: NaiveDateTime,
) -> Result<Step, TournamentError> {
    let id = settings.id();
    let field = Field::load(conn, &settings)?;
    let count = field.entries.len();
    if count < settings.minimum_players() {
        q::set_state(
            conn,
            id,
            TournamentStatus::Cancelled.as_str(),
            0,
            settings.row.rounds,
            None,
            Some(now),
        )?;
        let mut told: Vec<Account> = field.entries.iter().map(|(_, a)| a.clone()).collect();
        if let Some(organiser) = accounts::by_id(conn, settings.row.organiser_id)? {
            if told.iter().all(|a| a.id != organiser.id) {
                told.push(organiser);
            }
        }
        tournament_mail::cancelled(
            conn,
            ctx,
            &settings.facts(),
            &told,
            count,
            settings.minimum_players(),
        )?;
        return Ok(Step::Cancelled);
    }
    begin(conn, settings, count, now)
}

/// Starts a tournament whose last place has just been taken, inside the joining transaction,
/// so that its round 1 games exist when the entry is answered (issue 47). Below the minimum
/// (a table tournament capped under its seats) it waits for its window like any other.
///
/// # Errors
/// A round that cannot be paired or whose games cannot be made; storage failures.
pub fn start_full(
    conn: &mut DbConnection,
    settings: Settings,
    now: NaiveDateTime,
) -> Result<Step, TournamentError> {
    let count = Field::load(conn, &settings)?.entries.len();
    if count < settings.minimum_players() {
        return Ok(Step::Waiting);
    }
    begin(conn, settings, count, now)
}

/// Pairs round 1 (every round of an all-at-once round-robin) of `count` entrants and marks
/// the tournament running; the games' mail goes out as the game service sends it.
fn begin(
    conn: &mut DbConnection,
    mut settings: Settings,
    count: usize,
    now: NaiveDateTime,
) -> Result<Step, TournamentError> {
    let id = settings.id();
    let rounds = pairing::round_count(&settings.pairing_format(), count);
    settings.rounds = Some(rounds);
    let last = if settings.all_at_once() { rounds } else { 1 };
    for round in 1..=last {
        pair(conn, &settings, round)?;
    }
    q::set_state(
        conn,
        id,
        TournamentStatus::Running.as_str(),
        round_column(last),
        Some(round_column(rounds)),
        Some(now),
        None,
    )?;
    Ok(Step::Started)
}

/// Pairs the next round once every game of the rounds so far has ended, or finishes.
fn next(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: Settings,
    now: NaiveDateTime,
) -> Result<Step, TournamentError> {
    let id = settings.id();
    let field = Field::load(conn, &settings)?;
    let round = settings.current_round;
    if !field.ended_through(round) {
        return Ok(Step::Waiting);
    }
    if settings.drops_leavers() {
        drop_timeouts(conn, &settings, &field, round)?;
    }
    let rounds = settings.rounds.unwrap_or(round);
    let field = Field::load(conn, &settings)?;
    let playing = field
        .entrants
        .iter()
        .filter(|e| e.left_before_round.is_none_or(|left| left > round + 1))
        .count();
    let enough = !settings.drops_leavers() || playing >= settings.minimum_players();
    if round >= rounds || !enough {
        q::set_state(
            conn,
            id,
            TournamentStatus::Finished.as_str(),
            round_column(round),
            Some(round_column(rounds)),
            settings.row.started_at,
            Some(now),
        )?;
        let entrants: Vec<Account> = field.entries.iter().map(|(_, a)| a.clone()).collect();
        tournament_mail::final_standings(
            conn,
            ctx,
            &settings.facts(),
            &entrants,
            &view::standings(&settings, &field),
        )?;
        return Ok(Step::Finished);
    }
    pair(conn, &settings, round + 1)?;
    q::set_state(
        conn,
        id,
        TournamentStatus::Running.as_str(),
        round_column(round + 1),
        Some(round_column(rounds)),
        settings.row.started_at,
        None,
    )?;
    Ok(Step::Paired)
}

/// Marks the players who lost a game of `round` on time as out from the next round on.
fn drop_timeouts(
    conn: &mut DbConnection,
    settings: &Settings,
    field: &Field,
    round: u32,
) -> Result<(), TournamentError> {
    for (game, loaded) in field.games.iter().filter(|(g, _)| g.round == round) {
        let mut late: Vec<i64> = Vec::new();
        if loaded.seats.len() == 2 {
            if loaded.game.result_reason == Some(ResultReason::Timeout) {
                // The seat not placed first lost on time.
                for ((_, account), place) in loaded.seats.iter().zip(game.placings.iter().flatten())
                {
                    if *place > 1 {
                        late.push(account.id);
                    }
                }
            }
        } else {
            // A seat that ran out of time in a game that went on: `timeout 2` among the moves.
            for row in crate::db::games::moves(conn, loaded.game.id)? {
                let mut words = row.notation.split_whitespace();
                if words.next() == Some("timeout") {
                    let seat = words.next().and_then(|s| s.parse::<i32>().ok());
                    if let Some(account) = seat.and_then(|s| loaded.player_at(s)) {
                        late.push(account.id);
                    }
                }
            }
            if loaded.game.result_reason == Some(ResultReason::Timeout) {
                for ((_, account), place) in loaded.seats.iter().zip(game.placings.iter().flatten())
                {
                    if *place > 1 && !late.contains(&account.id) {
                        late.push(account.id);
                    }
                }
            }
        }
        for account in late {
            q::set_left(
                conn,
                settings.id(),
                account,
                round_column(round + 1),
                "timeout",
            )?;
        }
    }
    Ok(())
}

/// Pairs `round` and creates its games (started, through the game service); a game of a
/// player who has left a round-robin is resigned at once for them (a forfeit).
fn pair(conn: &mut DbConnection, settings: &Settings, round: u32) -> Result<(), TournamentError> {
    let id = settings.id();
    let field = Field::load(conn, settings)?;
    let Pairing { games, bye } = pairing::pair_round(
        &settings.pairing_format(),
        &field.entrants,
        &field.tournament_games(),
        &field.byes,
        round,
    )
    .map_err(|source| TournamentError::Pairing { id, round, source })?;
    let account = |i: usize| {
        field
            .entries
            .get(i)
            .map(|(entry, _)| entry.account_id)
            .ok_or_else(|| DbError::Corrupt(format!("tournament {id}: no entrant {i}")))
    };
    for seats in games {
        let players = seats
            .iter()
            .map(|&i| account(i))
            .collect::<Result<Vec<_>, _>>()?;
        let game_id = arranged::create_started(conn, &settings.games, &players)?;
        q::insert_game(conn, id, round_column(round), game_id)?;
        for &i in &seats {
            let gone = field
                .entrants
                .get(i)
                .and_then(|e| e.left_before_round)
                .is_some_and(|left| left <= round);
            if gone {
                resign_if_playing(conn, game_id, account(i)?)?;
            }
        }
    }
    if let Some(i) = bye {
        q::insert_bye(conn, id, round_column(round), account(i)?)?;
    }
    Ok(())
}
