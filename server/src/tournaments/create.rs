//! Creating a tournament: any signed-in account may organise one. The games' kind, options
//! and clock are checked as a challenge's are, and the format must fit the kind.

use turnpost_shared::api::{CreateTournamentRequest, TournamentFormat, TournamentStatus};

use super::settings::options_text;
use super::settings::Settings;
use super::{view, TournamentAnswer, TournamentError};
use crate::db::accounts::Account;
use crate::db::tournaments::{self as q, NewTournament, TournamentSetup};
use crate::db::{self, accounts, DbConnection, DbError};
use crate::games::arranged::{self, Arrangement};
use crate::games::{frame, Actor};
use crate::mail_context::MailContext;
use crate::notify::tournament_mail;

/// The longest name.
pub const MAX_NAME_CHARS: usize = 80;
/// The most rounds a Swiss or table tournament may have.
pub const MAX_ROUNDS: u32 = 50;
/// The most players a tournament may take.
pub const MAX_PLAYERS: u32 = 200;

/// The most players one tournament's creation may invite (each gets one mail).
pub const MAX_INVITES: usize = 50;
/// How far ahead the entry window may close.
pub const MAX_ENTRY_DAYS: i64 = 90;

fn invalid(message: impl Into<String>) -> TournamentError {
    TournamentError::InvalidSettings(message.into())
}

/// Checks the format against the kind and options: round-robin and Swiss for two-seat games,
/// tables for Chinese Checkers of 3–6 seats.
fn check_format(
    request: &CreateTournamentRequest,
    games: &Arrangement,
) -> Result<(), TournamentError> {
    match request.format {
        TournamentFormat::RoundRobin | TournamentFormat::Swiss => {
            if request.table_seats.is_some() {
                return Err(invalid(
                    "table_seats is for the `tables` format only; leave it out",
                ));
            }
            let start = arranged::start_position(games, 2)?;
            if start.seat_count() != 2 {
                return Err(invalid(format!(
                    "{} is for two-seat games; {} with these options has {} seats (use the \
                     `tables` format for Chinese Checkers with 3–6 seats)",
                    request.format.as_str(),
                    request.kind,
                    start.seat_count()
                )));
            }
        }
        TournamentFormat::Tables => {
            if request.kind != turnpost_shared::GameKind::ChineseCheckers {
                return Err(invalid(format!(
                    "the `tables` format is for chinese-checkers, not {}; use round_robin or swiss",
                    request.kind
                )));
            }
            let seats = request.table_seats.ok_or_else(|| {
                invalid("the `tables` format needs table_seats, the seats of a table (3–6)")
            })?;
            if !(3..=6).contains(&seats) {
                return Err(invalid(format!("table_seats must be 3 to 6, not {seats}")));
            }
            if games
                .options
                .keys()
                .any(|k| k.trim().eq_ignore_ascii_case("players"))
            {
                return Err(invalid(
                    "leave out the `players` option: each table's seat count sets it",
                ));
            }
            arranged::start_position(games, usize::from(seats))?;
        }
    }
    match (request.format, request.rounds) {
        (TournamentFormat::RoundRobin, Some(_)) => Err(invalid(
            "a round-robin works out its rounds from the players; leave `rounds` out",
        )),
        (TournamentFormat::RoundRobin, None) => Ok(()),
        (_, None) => Err(invalid(format!(
            "{} needs `rounds` (1–{MAX_ROUNDS})",
            request.format.as_str()
        ))),
        (_, Some(rounds)) if !(1..=MAX_ROUNDS).contains(&rounds) => Err(invalid(format!(
            "rounds must be 1 to {MAX_ROUNDS}, not {rounds}"
        ))),
        (_, Some(_)) => Ok(()),
    }?;
    if (request.double || request.all_at_once) && request.format != TournamentFormat::RoundRobin {
        return Err(invalid(
            "`double` and `all_at_once` are for round_robin only",
        ));
    }
    Ok(())
}

/// Whether the tournament starts the moment its last place is taken. Left out, it does for
/// an invitation event with a maximum: the code has no "closed" event, so "invitation-only"
/// means that the organiser named the players (issue 47: at "3 of at most 3" it waited).
/// Asked for, it needs a maximum (without one there is no "full").
fn start_when_full(request: &CreateTournamentRequest) -> Result<bool, TournamentError> {
    match request.start_when_full {
        Some(true) if request.max_players.is_none() => Err(invalid(
            "start_when_full needs max_players: without a maximum the field is never full",
        )),
        Some(asked) => Ok(asked),
        None => Ok(request.max_players.is_some() && !invitee_keys(&request.invite).is_empty()),
    }
}

/// Creates a tournament organised by `actor`, open for entries until its window closes; each
/// invited account is mailed the announcement.
///
/// # Errors
/// [`TournamentError::InvalidSettings`] (name, format, rounds, window, maximum, an unknown
/// invitee); [`TournamentError::Game`] for options or a clock a challenge would refuse;
/// storage failures.
pub fn create(
    conn: &mut DbConnection,
    ctx: &MailContext,
    actor: &Actor,
    request: &CreateTournamentRequest,
) -> TournamentAnswer {
    // Its length judged as sent (the schema's maxLength), then kept as one line without
    // hidden characters (the name goes into pages and mail subjects).
    if request.name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(format!(
            "name must be 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    let name = turnpost_shared::play::clean_line(&request.name);
    let name = name.as_str();
    if name.is_empty() {
        return Err(invalid(
            "name must have a character that shows (not only spaces or hidden characters)",
        ));
    }
    let games = Arrangement {
        kind: request.kind,
        options: request.options.clone(),
        clock: arranged::clock_text(request.clock.as_deref())?,
        timeout: request.timeout.unwrap_or_default(),
    };
    check_format(request, &games)?;
    let closes = chrono::DateTime::parse_from_rfc3339(request.entry_closes_at.trim())
        .map_err(|e| {
            invalid(format!(
                "entry_closes_at `{}` is not an RFC 3339 time like 2026-12-01T18:00:00Z: {e}",
                request.entry_closes_at
            ))
        })?
        .naive_utc();
    let now = db::now();
    if closes <= now || closes > now + chrono::Duration::days(MAX_ENTRY_DAYS) {
        return Err(invalid(format!(
            "entry_closes_at must be in the future and at most {MAX_ENTRY_DAYS} days ahead"
        )));
    }
    if let Some(max) = request.max_players {
        if !(2..=MAX_PLAYERS).contains(&max) {
            return Err(invalid(format!(
                "max_players must be 2 to {MAX_PLAYERS}, not {max}"
            )));
        }
    }
    let start_when_full = start_when_full(request)?;
    let to_i32 = |n: u32| i32::try_from(n).map_err(|_| invalid(format!("{n} is too large")));
    let options = options_text(&request.options);
    let id = frame::write(conn, |conn| -> Result<i64, TournamentError> {
        let organiser = accounts::by_id(conn, actor.account_id())?.ok_or_else(|| {
            DbError::Corrupt(format!(
                "account {} acts but does not exist",
                actor.account_id()
            ))
        })?;
        let mut invitees: Vec<Account> = Vec::new();
        let keys = invitee_keys(&request.invite);
        if keys.len() > MAX_INVITES {
            return Err(invalid(format!(
                "invite: at most {MAX_INVITES} players, not {}",
                keys.len()
            )));
        }
        for key in &keys {
            match accounts::by_name_key(conn, key)? {
                Some(account) if account.verified_at.is_some() && !account.is_bot() => {
                    invitees.push(account);
                }
                _ => {
                    return Err(invalid(format!(
                        "invite: there is no player called `{key}`"
                    )))
                }
            }
        }
        let row = q::insert(
            conn,
            &NewTournament {
                name,
                organiser_id: organiser.id,
                setup: TournamentSetup {
                    kind: request.kind.to_string(),
                    options,
                    clock: games.clock.clone(),
                    timeout_mode: games.timeout.as_str().to_owned(),
                    format: request.format.as_str().to_owned(),
                    double_round: i32::from(request.double),
                    all_at_once: i32::from(request.all_at_once),
                    table_seats: request.table_seats.map(i32::from),
                    rounds: request.rounds.map(to_i32).transpose()?,
                },
                entry_closes_at: closes,
                max_players: request.max_players.map(to_i32).transpose()?,
                status: TournamentStatus::Entry.as_str(),
                created_at: now,
                start_when_full: i32::from(start_when_full),
            },
        )?;
        let settings = Settings::of_row(row)?;
        for invitee in &invitees {
            tournament_mail::announcement(conn, ctx, &settings.facts(), &organiser, invitee)?;
        }
        Ok(settings.id())
    })?;
    view::show(conn, actor.account_id(), id, None)
}

/// The names of `invite` as account keys (trimmed, lower case), each once: one request
/// invited dave 2 000 times (issue 48).
#[must_use]
pub fn invitee_keys(invite: &[String]) -> Vec<String> {
    let mut keys: Vec<String> = invite
        .iter()
        .map(|invitee| invitee.trim().to_ascii_lowercase())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}
