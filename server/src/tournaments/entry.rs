//! Entering and withdrawing. Before the start a withdrawal just leaves the field; once the
//! tournament runs, the server resigns the player's running games of it through the game
//! service (losses), and Swiss and table rounds leave them out from the next round on.

use turnpost_shared::api::TournamentStatus;

use super::locked::{locked, resign_if_playing};
use super::settings::Settings;
use super::{view, TournamentAnswer, TournamentError};
use crate::db::tournaments as q;
use crate::db::{self, accounts, DbConnection, DbError};
use crate::games::{frame, Actor};

/// Runs `act` on tournament `id`, locked, in one write frame; answers the tournament as
/// `actor` sees it afterwards.
///
/// # Errors
/// [`TournamentError::NotFound`]; what `act` refuses; storage failures.
pub fn act_locked(
    conn: &mut DbConnection,
    actor: &Actor,
    id: i64,
    act: impl FnOnce(&mut DbConnection, Settings) -> Result<(), TournamentError>,
) -> TournamentAnswer {
    frame::write(conn, |conn| {
        let settings = locked(conn, id)?;
        act(conn, settings)
    })?;
    view::show(conn, actor.account_id(), id, None)
}

/// Enters `actor` into tournament `id` while its entry window is open and it is not full; the
/// entry that fills it closes the entries at once, so that round 1 starts.
///
/// # Errors
/// [`TournamentError::NotFound`], `EntryClosed`, `Full`, `AlreadyEntered`, `BotEntrant`;
/// storage failures.
pub fn join(conn: &mut DbConnection, actor: &Actor, id: i64) -> TournamentAnswer {
    let account_id = actor.account_id();
    act_locked(conn, actor, id, |conn, settings| {
        let account = accounts::by_id(conn, account_id)?.ok_or_else(|| {
            DbError::Corrupt(format!("account {account_id} acts but does not exist"))
        })?;
        if account.is_bot() {
            return Err(TournamentError::BotEntrant);
        }
        let now = db::now();
        let entries = q::entries(conn, id)?;
        if entries.iter().any(|(e, _)| e.account_id == account_id) {
            return Err(TournamentError::AlreadyEntered { id });
        }
        // Without a maximum of its own, the server's (issue 48: 205 entrants once).
        let max = settings
            .row
            .max_players
            .and_then(|max| u32::try_from(max).ok())
            .unwrap_or(super::create::MAX_PLAYERS)
            .min(super::create::MAX_PLAYERS);
        // A full field refuses further entries: "full" says why (until round 1 starts).
        if settings.status == TournamentStatus::Entry
            && entries.len() >= usize::try_from(max).unwrap_or(0)
        {
            return Err(TournamentError::Full { id, max });
        }
        if settings.status != TournamentStatus::Entry || settings.entry_closes_at() <= now {
            return Err(TournamentError::EntryClosed {
                id,
                why: "its entry window has closed".to_owned(),
            });
        }
        q::insert_entry(conn, id, account_id, now)?;
        if settings.row.start_when_full != 0
            && entries.len() + 1 >= usize::try_from(max).unwrap_or(0)
        {
            // Full, and asked to start so: round 1 is paired in this transaction (issue 47:
            // "3 of at most 3" waited for the window's end). Without the option a full field
            // waits for its window, refusing further entries as `Full`.
            super::rounds::start_full(conn, settings, now)?;
        }
        Ok(())
    })
}

/// Withdraws `actor` from tournament `id`: before the start they leave the field; once it
/// runs, their running games of it are resigned (losses) and they are out from the next
/// round on.
///
/// # Errors
/// [`TournamentError::NotFound`], `NotEntered` (never entered or out already),
/// `EntryClosed` (the tournament is over); storage failures.
pub fn withdraw(conn: &mut DbConnection, actor: &Actor, id: i64) -> TournamentAnswer {
    let account_id = actor.account_id();
    act_locked(conn, actor, id, |conn, settings| {
        let entries = q::entries(conn, id)?;
        let Some((entry, _)) = entries.iter().find(|(e, _)| e.account_id == account_id) else {
            return Err(TournamentError::NotEntered { id });
        };
        match settings.status {
            TournamentStatus::Entry => {
                q::delete_entry(conn, id, account_id)?;
                Ok(())
            }
            TournamentStatus::Finished | TournamentStatus::Cancelled => {
                Err(TournamentError::EntryClosed {
                    id,
                    why: format!("it is {}", settings.status.as_str()),
                })
            }
            TournamentStatus::Running => {
                if entry.left_before_round.is_some() {
                    return Err(TournamentError::NotEntered { id });
                }
                let next = i32::try_from(settings.current_round + 1).unwrap_or(i32::MAX);
                q::set_left(conn, id, account_id, next, "withdrew")?;
                resign_running(conn, id, account_id)?;
                Ok(())
            }
        }
    })
}

/// Resigns every running game of tournament `id` in which `account_id` still plays, through
/// the game service (inside the caller's transaction).
///
/// # Errors
/// Storage failures; a refusal of the game service other than the game having ended.
pub fn resign_running(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
) -> Result<(), TournamentError> {
    let game_ids: Vec<i64> = q::games(conn, id)?.into_iter().map(|(_, g)| g).collect();
    for game_id in game_ids {
        resign_if_playing(conn, game_id, account_id)?;
    }
    Ok(())
}
