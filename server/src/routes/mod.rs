//! HTTP routes under `/v1`, one file per resource.

pub mod accounts;
pub mod challenges;
pub mod docs;
pub mod engine_account;
pub mod games;
pub mod health;
pub mod me;
pub mod metrics;
pub mod mutes;
pub mod players;
pub mod push;
pub mod query_value;
pub mod ratings;
pub mod sessions;
pub mod stream;
pub mod tokens;
pub mod tournaments;
pub mod unsubscribe;
pub mod webhooks;

use actix_web::{web, HttpRequest, HttpResponse, ResponseError as _};

use crate::http::error::ApiError;
use crate::http::route_table::RouteTable;

/// Every route under `/v1` (and the API reference page), each registered once; the documented
/// ones with their handler's documentation type (which names its method and path). The OpenAPI
/// document is built from the same table.
#[must_use]
pub fn table() -> RouteTable {
    RouteTable::new(method_not_allowed)
        .route::<health::__path_health, _, _>(health::health)
        .route::<accounts::__path_create, _, _>(accounts::create)
        .route::<sessions::__path_create, _, _>(sessions::create)
        .route::<sessions::__path_verify, _, _>(sessions::verify)
        .route::<me::__path_me, _, _>(me::me)
        .route::<me::__path_notifications, _, _>(me::notifications)
        .route::<me::__path_update_notifications, _, _>(me::update_notifications)
        .route::<me::__path_vacation, _, _>(me::vacation)
        .route::<me::__path_take_vacation, _, _>(me::take_vacation)
        .route::<engine_account::__path_show, _, _>(engine_account::show)
        .route::<engine_account::__path_set, _, _>(engine_account::set)
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
        .route::<games::rematch::__path_rematch, _, _>(games::rematch::rematch)
        .route::<challenges::list::__path_list, _, _>(challenges::list::list)
        .route::<challenges::join::__path_join, _, _>(challenges::join::join)
        .route::<challenges::leave::__path_leave, _, _>(challenges::leave::leave)
        .route::<tournaments::list::__path_list, _, _>(tournaments::list::list)
        .route::<tournaments::create::__path_create, _, _>(tournaments::create::create)
        .route::<tournaments::show::__path_show, _, _>(tournaments::show::show)
        .route::<tournaments::join::__path_join, _, _>(tournaments::join::join)
        .route::<tournaments::withdraw::__path_withdraw, _, _>(tournaments::withdraw::withdraw)
        .route::<tournaments::start::__path_start, _, _>(tournaments::start::start)
        .route::<metrics::__path_metrics, _, _>(metrics::metrics)
        .route::<games::conditional::show::__path_show, _, _>(games::conditional::show::show)
        .route::<games::conditional::set::__path_set, _, _>(games::conditional::set::set)
        .route::<games::conditional::clear::__path_clear, _, _>(games::conditional::clear::clear)
        .route::<players::__path_show, _, _>(players::show)
        .route::<ratings::__path_leaderboard, _, _>(ratings::leaderboard)
        .route::<mutes::__path_mute_game, _, _>(mutes::mute_game)
        .route::<mutes::__path_unmute_game, _, _>(mutes::unmute_game)
        .route::<mutes::__path_mute_player, _, _>(mutes::mute_player)
        .route::<mutes::__path_unmute_player, _, _>(mutes::unmute_player)
        .route::<mutes::__path_list, _, _>(mutes::list)
        .route::<stream::__path_account_stream, _, _>(stream::account_stream)
        .route::<stream::__path_game_stream, _, _>(stream::game_stream)
        .route::<webhooks::__path_create, _, _>(webhooks::create)
        .route::<webhooks::__path_list, _, _>(webhooks::list)
        .route::<webhooks::__path_show, _, _>(webhooks::show)
        .route::<webhooks::__path_remove, _, _>(webhooks::remove)
        .route::<webhooks::__path_test, _, _>(webhooks::test)
        .route::<webhooks::__path_rotate_secret, _, _>(webhooks::rotate_secret)
        .route::<push::__path_key, _, _>(push::key)
        .route::<push::__path_create, _, _>(push::create)
        .route::<push::__path_list, _, _>(push::list)
        .route::<push::__path_remove, _, _>(push::remove)
        // The document and its page (not in the document).
        .get("/v1/openapi.json", docs::openapi_json)
        .get("/docs", docs::docs_page)
}

/// Registers every route of the [`table`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    table().configure(cfg);
}

/// The JSON 405 of the API: the method, the path and the methods it takes (`Allow`).
fn method_not_allowed(req: &HttpRequest, allow: &str) -> HttpResponse {
    ApiError::MethodNotAllowed {
        message: format!(
            "{} is not allowed on {}; use {allow}",
            req.method(),
            req.path()
        ),
        allow: allow.to_owned(),
    }
    .error_response()
}
