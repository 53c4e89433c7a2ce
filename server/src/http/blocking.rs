//! Storage work off the async threads: a pooled connection on the blocking thread pool, for
//! the JSON routes, the pages and the token extractor alike. Its own module, below `routes`,
//! `web` and `auth`, so that none of them reaches into another for it.

use crate::db::{DbConnection, DbError};
use crate::games::GameError;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Runs a game service call on a pooled connection on the blocking thread pool; its refusal
/// becomes an HTTP answer (`From<GameError> for ApiError`).
///
/// # Errors
/// The call's refusal; 503 without a pooled connection; 500 if the blocking task fails.
pub async fn with_games<T, F>(state: &AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&mut DbConnection) -> Result<T, GameError> + Send + 'static,
{
    with_conn(state, move |conn| Ok(f(conn)?)).await
}

/// Runs a closure on a pooled connection on the blocking thread pool.
///
/// # Errors
/// The closure's error; 503 without a pooled connection; 500 if the blocking task fails.
pub async fn with_conn<T, F>(state: &AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&mut DbConnection) -> Result<T, ApiError> + Send + 'static,
{
    let pool = state.pool.clone();
    actix_web::web::block(move || {
        let mut conn = pool.get().map_err(DbError::from)?;
        f(&mut conn)
    })
    .await?
}
