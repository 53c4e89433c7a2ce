//! Challenges made within the hourly challenge budgets, the same from the API and the pages: a
//! challenge is charged once it is known to be acceptable, and keeps its charge only once it is
//! made, all in the one blocking task that checks and makes it (which runs to its end even if
//! the client goes away).

use actix_web::web;
use turnpost_shared::api::GameView;

use crate::games::challenge::Challenge;
use crate::games::rematch::{self, Rematch};
use crate::games::{Actor, GameError};
use crate::http::error::ApiError;
use crate::http::ratelimit::Limits;
use crate::http::state::AppState;

/// Charges the checked challenge to the hourly budgets (each recipient once), makes it with
/// `make`, and keeps the charge only if it was made: a refusal gives it back.
///
/// # Errors
/// 429 past a budget (then nothing is made); what `make` refuses.
pub fn make_charged<T>(
    limits: &Limits,
    checked: &Challenge,
    make: impl FnOnce(&Challenge) -> Result<T, GameError>,
) -> Result<T, ApiError> {
    let charge = limits.charge_challenge(checked.challenger(), checked.recipients())?;
    let made = make(checked)?;
    charge.keep();
    Ok(made)
}

/// The rematch of finished game `game_id` for `actor`, one of its players, and whether it was
/// made now (`false`: the one made before, which costs nothing).
///
/// # Errors
/// What [`rematch::check`] and [`rematch::make`] refuse; 429 past a budget; 503 without a
/// pooled connection; 500 if the blocking task fails.
pub async fn rematch(
    state: &web::Data<AppState>,
    actor: Actor,
    game_id: i64,
) -> Result<(GameView, bool), ApiError> {
    let shared = state.clone();
    crate::http::blocking::with_conn(state, move |conn| {
        match rematch::check(conn, &actor, game_id, shared.bot_games_cap)? {
            Rematch::Made(view) => Ok((*view, false)),
            Rematch::ToMake(checked) => {
                let view = make_charged(&shared.limits, &checked, |checked| {
                    rematch::make(conn, &actor, checked, game_id)
                })?;
                Ok((view, true))
            }
        }
    })
    .await
}
