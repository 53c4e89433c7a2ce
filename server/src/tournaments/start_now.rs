//! The organiser's "Start now": entries close at once and round 1 is paired, once the
//! minimum has entered (issue 47: "3 of at most 3" waited for the window's end, and an
//! organiser could not start a field that was big enough).

use turnpost_shared::api::TournamentStatus;

use super::entry::act_locked;
use super::{TournamentAnswer, TournamentError};
use crate::db::tournaments as q;
use crate::db::{self, DbConnection};
use crate::games::Actor;

/// Closes the entries of tournament `id`, which `actor` organises, now: the sweeper, woken by
/// the commit, pairs round 1 at once (as when the last place is taken), and the entrants get
/// their games' mail.
///
/// # Errors
/// [`TournamentError::NotFound`]; `NotOrganiser` for anyone but its organiser;
/// `EntryClosed` once it has started or ended; `TooFewToStart` below its minimum of players;
/// storage failures.
pub fn start_now(conn: &mut DbConnection, actor: &Actor, id: i64) -> TournamentAnswer {
    let organiser = actor.account_id();
    act_locked(conn, actor, id, |conn, settings| {
        if settings.row.organiser_id != organiser {
            return Err(TournamentError::NotOrganiser { id });
        }
        let now = db::now();
        if settings.status != TournamentStatus::Entry || settings.entry_closes_at() <= now {
            return Err(TournamentError::EntryClosed {
                id,
                why: "it has started already".to_owned(),
            });
        }
        let entered = q::entries(conn, id)?.len();
        let minimum = settings.minimum_players();
        if entered < minimum {
            return Err(TournamentError::TooFewToStart {
                id,
                entered,
                minimum,
            });
        }
        q::close_entries(conn, id, now)?;
        crate::db::commit_bell::ring_at_commit();
        Ok(())
    })
}
