//! Moving a tournament on, run by the sweeps (`crate::sweeps`) in every server process: when
//! the entry window has closed, start it (or cancel it with too few players); when every game
//! of the round has ended, pair the next round or, after the last, finish it. Each step runs
//! in one transaction with the tournament's row locked and checks the state it finds, so it is
//! idempotent and two processes never pair a round twice.
//!
//! A round's pairings are stored when it is paired and its games made from them
//! [`BATCH_GAMES`] at a time, each batch a transaction of its own (issue 48 point 3: starting
//! a 100-player round-robin in one transaction held SQLite's write lock for two minutes).

use std::time::{Duration, Instant};

use chrono::NaiveDateTime;
use turnpost_shared::api::TournamentStatus::{self, Cancelled, Finished, Running};
use turnpost_shared::play::ResultReason;

use super::field::Field;
use super::locked::{locked, resign_if_playing};
use super::settings::Settings;
use super::{view, TournamentError};
use crate::db::accounts::Account;
use crate::db::tournament_pairings::{self as pairings, PairingRow};
use crate::db::tournaments as q;
use crate::db::{accounts, DbConnection, DbError};
use crate::games::{arranged, frame};
use crate::mail_context::MailContext;
use crate::notify::tournament_mail;
use crate::pairing::{self, Pairing, TournamentGame};

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
    /// A batch of paired games was made; `more` when pairings still wait for theirs.
    Made {
        /// Games made.
        games: usize,
        /// Whether pairings still wait.
        more: bool,
    },
}

/// Games made in one transaction at most: each is a game started through the game service
/// (a few milliseconds), so a batch holds the write lock for a moment only.
pub const BATCH_GAMES: i64 = 20;

/// How long one call of [`advance_due`] goes on making one tournament's batches before it
/// leaves the rest to the next call (the sweeper comes back at once while pairings wait).
const BATCHES_FOR: Duration = Duration::from_secs(2);

/// The pause between two batches, so that other writers waiting for the lock get it.
const BETWEEN_BATCHES: Duration = Duration::from_millis(20);

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
        let began = Instant::now();
        loop {
            match advance(conn, ctx, id, now) {
                Ok(Step::Waiting) => break,
                Ok(step) => {
                    // A big start is a few hundred batches: logged only when asked for.
                    if matches!(step, Step::Made { .. }) {
                        tracing::debug!(tournament = id, ?step, "tournament games made");
                    } else {
                        tracing::info!(tournament = id, ?step, "tournament moved on");
                    }
                    moved += 1;
                    // A start or a batch may leave pairings for the next batch.
                    let more = matches!(step, Step::Started | Step::Made { more: true, .. });
                    if !more || began.elapsed() >= BATCHES_FOR {
                        break;
                    }
                    std::thread::sleep(BETWEEN_BATCHES);
                }
                Err(TournamentError::Storage(error)) => return Err(error),
                Err(error) => {
                    tracing::error!(tournament = id, %error, "tournament cannot move on");
                    break;
                }
            }
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
                start(conn, Due { ctx, settings, now })
            }
            TournamentStatus::Running if !pairings::waiting(conn, id, 1)?.is_empty() => {
                let (games, more) = make_batch(conn, &settings)?;
                Ok(Step::Made { games, more })
            }
            TournamentStatus::Running => next(conn, Due { ctx, settings, now }),
            _ => Ok(Step::Waiting),
        }
    })
}

/// A tournament due for its next step (its start, or its next round), with what that step
/// needs besides the connection.
struct Due<'a> {
    ctx: &'a MailContext,
    settings: Settings,
    now: NaiveDateTime,
}

/// Writes where the tournament of `settings` is: `status`, the latest round paired, its
/// rounds and its start and end.
///
/// # Errors
/// Storage failures.
fn write_progress(
    conn: &mut DbConnection,
    settings: &Settings,
    status: TournamentStatus,
    round: u32,
    rounds: Option<u32>,
    started_at: Option<NaiveDateTime>,
    finished_at: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    let (round, rounds) = (round_column(round), rounds.map(round_column));
    q::set_state(
        conn,
        settings.id(),
        status.as_str(),
        round,
        rounds,
        started_at,
        finished_at,
    )
}

fn round_column(round: u32) -> i32 {
    i32::try_from(round).unwrap_or(i32::MAX)
}

/// Starts a tournament whose window closed, or cancels it with too few players.
fn start(conn: &mut DbConnection, due: Due<'_>) -> Result<Step, TournamentError> {
    let Due { ctx, settings, now } = due;
    let field = Field::load(conn, &settings)?;
    let count = field.entries.len();
    if count < settings.minimum_players() {
        let rounds = settings.rounds;
        write_progress(conn, &settings, Cancelled, 0, rounds, None, Some(now))?;
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
    let rounds = pairing::round_count(&settings.pairing_format(), count);
    settings.rounds = Some(rounds);
    let last = if settings.all_at_once() { rounds } else { 1 };
    pair(conn, &settings, 1..=last)?;
    make_batch(conn, &settings)?;
    write_progress(
        conn,
        &settings,
        Running,
        last,
        Some(rounds),
        Some(now),
        None,
    )?;
    Ok(Step::Started)
}

/// Pairs the next round once every game of the rounds so far has ended, or finishes.
fn next(conn: &mut DbConnection, due: Due<'_>) -> Result<Step, TournamentError> {
    let Due { ctx, settings, now } = due;
    let field = Field::load(conn, &settings)?;
    field.store_placings(conn)?;
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
        let started = settings.row.started_at;
        write_progress(
            conn,
            &settings,
            Finished,
            round,
            Some(rounds),
            started,
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
    pair(conn, &settings, round + 1..=round + 1)?;
    make_batch(conn, &settings)?;
    let started = settings.row.started_at;
    write_progress(
        conn,
        &settings,
        Running,
        round + 1,
        Some(rounds),
        started,
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
    for (game, made) in field
        .games
        .iter()
        .filter(|g| g.game.round == round)
        .filter_map(|g| Some((&g.game, g.made.as_ref()?)))
    {
        let mut late: Vec<i64> = Vec::new();
        let on_time = made.row.result_reason == Some(ResultReason::Timeout);
        if made.seats.len() == 2 {
            if on_time {
                // The seat not placed first lost on time.
                for ((_, account), place) in made.seats.iter().zip(game.placings.iter().flatten()) {
                    if *place > 1 {
                        late.push(*account);
                    }
                }
            }
        } else {
            // A seat that ran out of time in a game that went on: `timeout 2` among the moves.
            for row in crate::db::games::moves(conn, made.row.game_id)? {
                let mut words = row.notation.split_whitespace();
                if words.next() == Some("timeout") {
                    let seat = words.next().and_then(|s| s.parse::<i32>().ok());
                    if let Some(account) = seat.and_then(|s| made.player_at(s)) {
                        late.push(account);
                    }
                }
            }
            if on_time {
                for ((_, account), place) in made.seats.iter().zip(game.placings.iter().flatten()) {
                    if *place > 1 && !late.contains(account) {
                        late.push(*account);
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

/// Pairs `rounds` (each with the ones before it as history) and stores their pairings, whose
/// games [`make_batch`] makes; byes are recorded at once.
fn pair(
    conn: &mut DbConnection,
    settings: &Settings,
    rounds: std::ops::RangeInclusive<u32>,
) -> Result<(), TournamentError> {
    let id = settings.id();
    let field = Field::load(conn, settings)?;
    let mut history = field.tournament_games();
    let mut byes = field.byes.clone();
    let account = |i: usize| {
        field
            .entries
            .get(i)
            .map(|(entry, _)| entry.account_id)
            .ok_or_else(|| DbError::Corrupt(format!("tournament {id}: no entrant {i}")))
    };
    let mut rows = Vec::new();
    for round in rounds {
        let Pairing { games, bye } = pairing::pair_round(
            &settings.pairing_format(),
            &field.entrants,
            &history,
            &byes,
            round,
        )
        .map_err(|source| TournamentError::Pairing { id, round, source })?;
        for (board, seats) in games.into_iter().enumerate() {
            let players = seats
                .iter()
                .map(|&i| account(i))
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(PairingRow {
                tournament_id: id,
                round: round_column(round),
                board: i32::try_from(board + 1).unwrap_or(i32::MAX),
                seats: pairings::seats_text(&players),
            });
            history.push(TournamentGame {
                round,
                seats,
                placings: None,
            });
        }
        if let Some(i) = bye {
            q::insert_bye(conn, id, round_column(round), account(i)?)?;
            byes.push((round, i));
        }
    }
    pairings::insert(conn, &rows)?;
    Ok(())
}

/// Makes the games of the next [`BATCH_GAMES`] waiting pairings (started, through the game
/// service); a game of a player who has left the tournament is resigned at once for them (a
/// forfeit: a round-robin's schedule keeps those who leave). Answers how many were made and
/// whether pairings still wait.
fn make_batch(
    conn: &mut DbConnection,
    settings: &Settings,
) -> Result<(usize, bool), TournamentError> {
    let id = settings.id();
    let waiting = pairings::waiting(conn, id, BATCH_GAMES + 1)?;
    let more = usize::try_from(BATCH_GAMES).is_ok_and(|batch| waiting.len() > batch);
    let left: Vec<i64> = q::entries(conn, id)?
        .into_iter()
        .filter(|(entry, _)| entry.left_before_round.is_some())
        .map(|(entry, _)| entry.account_id)
        .collect();
    let mut made = 0;
    for row in waiting
        .iter()
        .take(usize::try_from(BATCH_GAMES).unwrap_or(0))
    {
        let players = row.accounts()?;
        let game_id = arranged::create_started(conn, &settings.games, &players)?;
        q::insert_game(conn, id, row.round, game_id)?;
        pairings::delete(conn, row)?;
        for &player in &players {
            // Out by this round, or withdrawn since the round was paired (their games then
            // running were resigned; this one would have been running).
            if left.contains(&player) {
                resign_if_playing(conn, game_id, player)?;
            }
        }
        made += 1;
    }
    if more {
        // The sweeper, woken by the commit, makes the next batch.
        crate::db::commit_bell::ring_at_commit();
    }
    Ok((made, more))
}
