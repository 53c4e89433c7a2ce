//! HTTP routes under `/v1`, one file per resource.

pub mod accounts;
pub mod docs;
pub mod games;
pub mod health;
pub mod me;
pub mod sessions;
mod table;
pub mod tokens;
pub mod unsubscribe;

use actix_web::{guard, web, HttpRequest};

use crate::error::ApiError;
pub use table::RouteTable;

/// Every documented route, each registered once with its handler's documentation type
/// (which names its method and path); the OpenAPI document is built from the same table.
#[must_use]
pub fn table() -> RouteTable {
    RouteTable::default()
        .route::<health::__path_health, _, _>(health::health)
        .route::<accounts::__path_create, _, _>(accounts::create)
        .route::<sessions::__path_create, _, _>(sessions::create)
        .route::<sessions::__path_verify, _, _>(sessions::verify)
        .route::<me::__path_me, _, _>(me::me)
        .route::<me::__path_notifications, _, _>(me::notifications)
        .route::<me::__path_update_notifications, _, _>(me::update_notifications)
        .route::<me::__path_vacation, _, _>(me::vacation)
        .route::<me::__path_take_vacation, _, _>(me::take_vacation)
        .route::<unsubscribe::__path_page_handler, _, _>(unsubscribe::page_handler)
        .route::<unsubscribe::__path_one_click, _, _>(unsubscribe::one_click)
        .route::<tokens::__path_list, _, _>(tokens::list)
        .route::<tokens::__path_revoke, _, _>(tokens::revoke)
        .route::<games::list::__path_list, _, _>(games::list::list)
        .route::<games::create::__path_create, _, _>(games::create::create)
        .route::<games::show::__path_show, _, _>(games::show::show)
        .route::<games::moves::__path_list, _, _>(games::moves::list)
        .route::<games::play::__path_play, _, _>(games::play::play)
        .route::<games::record::__path_record, _, _>(games::record::record)
        .route::<games::board::__path_board, _, _>(games::board::board)
        .route::<games::accept::__path_accept, _, _>(games::accept::accept)
        .route::<games::decline::__path_decline, _, _>(games::decline::decline)
        .route::<games::resign::__path_resign, _, _>(games::resign::resign)
        .route::<games::draw::__path_draw, _, _>(games::draw::draw)
        .route::<games::claim::__path_claim, _, _>(games::claim::claim)
}

/// Registers every route: the [`table`], and the document and its page (not in the document).
pub fn configure(cfg: &mut web::ServiceConfig) {
    table().configure(cfg);
    // GET and HEAD (HEAD answers GET's status and headers without the body).
    let get = || web::route().guard(guard::Any(guard::Get()).or(guard::Head()));
    cfg.service(resource("/v1/openapi.json", "GET, HEAD").route(get().to(docs::openapi_json)))
        .service(resource("/docs", "GET, HEAD").route(get().to(docs::docs_page)));
}

/// A resource at `path` that answers other methods than `allow` (comma-separated) with 405.
pub fn resource(path: &str, allow: impl Into<String>) -> actix_web::Resource {
    let allow: String = allow.into();
    web::resource(path).default_service(web::to(move |req: HttpRequest| {
        let allow = allow.clone();
        async move {
            Err::<actix_web::HttpResponse, _>(ApiError::MethodNotAllowed {
                message: format!(
                    "{} is not allowed on {}; use {allow}",
                    req.method(),
                    req.path()
                ),
                allow,
            })
        }
    }))
}

/// Answer for unknown paths and methods.
///
/// # Errors
/// Always under `/v1/`: 404 with the path (elsewhere the HTML 404 page).
pub async fn not_found(req: HttpRequest) -> Result<actix_web::HttpResponse, ApiError> {
    // Outside the API a person is reading: an HTML page.
    if !req.path().starts_with("/v1/") {
        return Ok(crate::web::not_found_page(&req));
    }
    Err(ApiError::NotFound(format!(
        "no route for {} {}",
        req.method(),
        req.path()
    )))
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
