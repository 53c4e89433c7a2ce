//! HTTP routes under `/v1`, one file per resource.

pub mod accounts;
pub mod docs;
pub mod health;
pub mod me;
pub mod sessions;
pub mod tokens;

use actix_web::{web, HttpRequest};

use crate::error::ApiError;

/// Registers every route.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/v1")
            .route("/health", web::get().to(health::health))
            .route("/accounts", web::post().to(accounts::create))
            .route("/sessions", web::post().to(sessions::create))
            .route("/sessions/verify", web::post().to(sessions::verify))
            .route("/me", web::get().to(me::me))
            .route("/tokens", web::get().to(tokens::list))
            .route("/tokens/{id}", web::delete().to(tokens::revoke))
            .route("/openapi.json", web::get().to(docs::openapi_json)),
    )
    .route("/docs", web::get().to(docs::docs_page))
    .route("/docs/", web::get().to(docs::docs_page));
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

/// Runs a closure on a pooled connection on the blocking thread pool.
pub(crate) async fn with_conn<T, F>(state: &crate::app::AppState, f: F) -> Result<T, ApiError>
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
