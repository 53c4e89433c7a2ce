//! HTTP routes under `/v1`, one file per resource.

pub mod accounts;
pub mod docs;
pub mod games;
pub mod health;
pub mod me;
pub mod sessions;
pub mod tokens;
pub mod unsubscribe;

use actix_web::{web, HttpRequest};

use crate::error::ApiError;

/// Registers every route. Each path is a [`resource`], so a wrong method gets 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/v1")
            .service(resource("/health", "GET").route(web::get().to(health::health)))
            .service(resource("/accounts", "POST").route(web::post().to(accounts::create)))
            .service(resource("/sessions", "POST").route(web::post().to(sessions::create)))
            .service(resource("/sessions/verify", "POST").route(web::post().to(sessions::verify)))
            .service(resource("/me", "GET").route(web::get().to(me::me)))
            .service(
                resource("/me/notifications", "GET, PATCH")
                    .route(web::get().to(me::notifications))
                    .route(web::patch().to(me::update_notifications)),
            )
            .service(
                resource("/me/vacation", "GET, POST")
                    .route(web::get().to(me::vacation))
                    .route(web::post().to(me::take_vacation)),
            )
            .service(
                resource("/unsubscribe", "GET, POST")
                    .route(web::get().to(unsubscribe::page_handler))
                    .route(web::post().to(unsubscribe::one_click)),
            )
            .service(resource("/tokens", "GET").route(web::get().to(tokens::list)))
            .service(resource("/tokens/{id}", "DELETE").route(web::delete().to(tokens::revoke)))
            .service(
                resource("/games", "GET, POST")
                    .route(web::get().to(games::list::list))
                    .route(web::post().to(games::create::create)),
            )
            .service(resource("/games/{id}", "GET").route(web::get().to(games::show::show)))
            .service(
                resource("/games/{id}/moves", "GET, POST")
                    .route(web::get().to(games::moves::list))
                    .route(web::post().to(games::play::play)),
            )
            .service(
                resource("/games/{id}/record", "GET").route(web::get().to(games::record::record)),
            )
            .service(
                resource("/games/{id}/board.svg", "GET").route(web::get().to(games::board::board)),
            )
            .service(
                resource("/games/{id}/accept", "POST").route(web::post().to(games::accept::accept)),
            )
            .service(
                resource("/games/{id}/decline", "POST")
                    .route(web::post().to(games::decline::decline)),
            )
            .service(
                resource("/games/{id}/resign", "POST").route(web::post().to(games::resign::resign)),
            )
            .service(resource("/games/{id}/draw", "POST").route(web::post().to(games::draw::draw)))
            .service(
                resource("/games/{id}/claim", "POST").route(web::post().to(games::claim::claim)),
            )
            .service(resource("/openapi.json", "GET").route(web::get().to(docs::openapi_json))),
    )
    .service(resource("/docs", "GET").route(web::get().to(docs::docs_page)));
}

/// A resource at `path` that answers other methods than `allow` (comma-separated) with 405.
pub fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(move |req: HttpRequest| async move {
        Err::<actix_web::HttpResponse, _>(ApiError::MethodNotAllowed {
            allow,
            message: format!(
                "{} is not allowed on {}; use {allow}",
                req.method(),
                req.path()
            ),
        })
    }))
}

/// Answer for unknown paths and methods.
///
/// # Errors
/// Always: 404 with the path.
pub async fn not_found(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!(
        "no route for {} {}",
        req.method(),
        req.path()
    )))
}

/// The client's address as used for rate limits: the TCP peer (no proxy headers are trusted).
pub(crate) fn client_address(req: &HttpRequest) -> String {
    req.peer_addr()
        .map_or_else(|| "unknown".to_owned(), |a| a.ip().to_string())
}

/// Runs a game service call on a pooled connection on the blocking thread pool; its refusal
/// becomes an HTTP answer (`From<GameError> for ApiError`).
pub(crate) async fn with_games<T, F>(state: &crate::state::AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(
            &mut crate::db::DbConnection,
            &crate::accounts::MailContext,
        ) -> Result<T, crate::games::GameError>
        + Send
        + 'static,
{
    let ctx = state.mail.clone();
    with_conn(state, move |conn| Ok(f(conn, &ctx)?)).await
}

/// Runs a closure on a pooled connection on the blocking thread pool.
pub(crate) async fn with_conn<T, F>(state: &crate::state::AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&mut crate::db::DbConnection) -> Result<T, ApiError> + Send + 'static,
{
    let pool = state.pool.clone();
    web::block(move || {
        let mut conn = pool.get().map_err(crate::db::DbError::from)?;
        f(&mut conn)
    })
    .await?
}
