//! Muting messages (issue 28): `POST`/`DELETE /v1/games/{id}/mute` (a game's messages),
//! `POST`/`DELETE /v1/players/{name}/mute` (a person's, in every game), and
//! `GET /v1/me/mutes`. Each answers what the caller has muted now. Muted messages are left out
//! of the caller's turn cards, the move list and the game page.

use actix_web::HttpResponse;

use crate::games::{messages, GameError};
use crate::http::error::ApiError;
use crate::http::path_call::{Call, PathCall};

/// Declares a mute's two routes on one path, each answering what the caller has muted now:
/// `POST` mutes (again: no change) and `DELETE` shows the messages again. `$set` is the service
/// call, given the connection, the caller, the path's key and whether to mute.
macro_rules! mute_routes {
    (
        path: $path:tt, key: $key:ty, params: $params:tt, refusals: ($($refusal:tt),*),
        $(#[doc = $mute_doc:tt])* mute: $mute:ident,
        $(#[doc = $unmute_doc:tt])* unmute: $unmute:ident,
        set: $set:expr $(,)?
    ) => {
        $(#[doc = $mute_doc])*
        #[utoipa::path(post, path = $path, tag = "games", security(("bearer" = [])),
            params $params,
            responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), $((status = $refusal, body = turnpost_shared::api::ErrorBody)),*))]
        pub async fn $mute(call: PathCall<$key>) -> Result<HttpResponse, ApiError> {
            call.answer(|conn, actor, key| ($set)(conn, actor, key, true))
                .await
        }

        $(#[doc = $unmute_doc])*
        #[utoipa::path(delete, path = $path, tag = "games", security(("bearer" = [])),
            params $params,
            responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), $((status = $refusal, body = turnpost_shared::api::ErrorBody)),*))]
        pub async fn $unmute(call: PathCall<$key>) -> Result<HttpResponse, ApiError> {
            call.answer(|conn, actor, key| ($set)(conn, actor, key, false))
                .await
        }
    };
}

mute_routes! {
    path: "/v1/games/{id}/mute",
    key: i64,
    params: (("id" = i64, Path, description = "Game id")),
    refusals: (403, 404),
    /// Mutes the messages of a game the caller plays in (again: no change).
    ///
    /// # Errors
    /// 401; 404 unknown game; 403 without a seat in it.
    mute: mute_game,
    /// Shows the messages of a game again.
    ///
    /// # Errors
    /// 401; 404 unknown game; 403 without a seat in it.
    unmute: unmute_game,
    set: messages::mute_game,
}

mute_routes! {
    path: "/v1/players/{name}/mute",
    key: String,
    params: (("name" = String, Path, description = "The player's name")),
    refusals: (404),
    /// Mutes the messages of the player called `name`, in every game (again: no change).
    ///
    /// # Errors
    /// 401; 404 for no such player (or yourself).
    mute: mute_player,
    /// Shows the messages of the player called `name` again.
    ///
    /// # Errors
    /// 401; 404 for no such player (or yourself).
    unmute: unmute_player,
    set: |conn, actor, name: String, muted| {
        // The path names the player: no such player is a resource not found.
        messages::mute_person(conn, actor, &name, muted).map_err(|error| match error {
            GameError::UnknownPlayer { .. } => ApiError::NotFound(error.to_string()),
            other => ApiError::from(other),
        })
    },
}

/// The games and players whose messages the caller muted.
///
/// # Errors
/// 401.
#[utoipa::path(get, path = "/v1/me/mutes", tag = "games", security(("bearer" = [])),
    responses((status = 200, description = "What you have muted", body = turnpost_shared::api::MessageMutes)))]
pub async fn list(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer_own(messages::mutes).await
}
