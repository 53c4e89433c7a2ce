//! Tournaments created within the hourly challenge budgets, the same from the API and the
//! pages: an invitation is a challenge to play, so a tournament that invites anyone is charged
//! as one challenge sent by its organiser and one received by each invitee (issue 48: one
//! request mailed one person 2 000 invitations). All or none: when an invitee has received as
//! many challenges as an hour allows, the tournament is not created (429, naming the wait),
//! and the charge is kept only once it is.

use turnpost_shared::api::{CreateTournamentRequest, TournamentView};

use crate::accounts::MailContext;
use crate::db::DbConnection;
use crate::games::Actor;
use crate::http::ratelimit::{Limits, RateLimited};
use crate::tournaments::{self, TournamentError, MAX_INVITES};

/// Creates the tournament `request` describes for `actor` (called `organiser`, a name key),
/// charged to the challenge budgets as the module says. A request inviting more than
/// [`MAX_INVITES`] players is refused by [`tournaments::create`] without being charged.
///
/// # Errors
/// The outer [`RateLimited`] when the organiser's or an invitee's budget is used up (nothing
/// is created); the inner result is [`tournaments::create`]'s.
pub fn create_charged(
    limits: &Limits,
    conn: &mut DbConnection,
    ctx: &MailContext,
    actor: &Actor,
    organiser: &str,
    request: &CreateTournamentRequest,
) -> Result<Result<TournamentView, TournamentError>, RateLimited> {
    let mut keys: Vec<String> = request
        .invite
        .iter()
        .map(|invitee| invitee.trim().to_ascii_lowercase())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let charge = if keys.is_empty() || keys.len() > MAX_INVITES {
        None
    } else {
        Some(limits.charge_challenge(organiser, &keys)?)
    };
    let made = tournaments::create(conn, ctx, actor, request);
    if made.is_ok() {
        if let Some(charge) = charge {
            charge.keep();
        }
    }
    Ok(made)
}
