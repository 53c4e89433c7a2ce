//! Tournaments created within the hourly challenge budgets, the same from the API and the
//! pages: an invitation is a challenge to play, so a tournament that invites anyone is charged
//! as one challenge sent by its organiser and one received by each invitee (issue 48: one
//! request mailed one person 2 000 invitations). All or none: when an invitee has received as
//! many challenges as an hour allows, the tournament is not created (429, naming the wait),
//! and the charge is kept only once it is.

use actix_web::web;
use turnpost_shared::api::CreateTournamentRequest;

use crate::games::Actor;
use crate::http::blocking::with_conn;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments::{self, TournamentAnswer, MAX_INVITES};

/// Creates the tournament `request` describes for `actor` (called `organiser`, a name key),
/// charged to the challenge budgets as the module says. A request inviting more than
/// [`MAX_INVITES`] players is refused by [`tournaments::create`] without being charged.
///
/// # Errors
/// The outer error: 429 when the organiser's or an invitee's budget is used up (nothing is
/// created), 503 without a pooled connection, 500 if the blocking task fails; the inner
/// result is [`tournaments::create`]'s.
pub async fn create_charged(
    state: &web::Data<AppState>,
    actor: Actor,
    organiser: String,
    request: CreateTournamentRequest,
) -> Result<TournamentAnswer, ApiError> {
    let shared = state.clone();
    with_conn(state, move |conn| {
        let keys = tournaments::invitee_keys(&request.invite);
        let charge = if keys.is_empty() || keys.len() > MAX_INVITES {
            None
        } else {
            Some(shared.limits.charge_challenge(&organiser, &keys)?)
        };
        let made = tournaments::create(conn, &shared.mail, &actor, &request);
        if made.is_ok() {
            if let Some(charge) = charge {
                charge.keep();
            }
        }
        Ok(made)
    })
    .await
}
