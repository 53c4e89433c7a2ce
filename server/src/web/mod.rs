//! Server-rendered HTML pages (maud: compile-time templates, escaped by default): the home page,
//! game pages with their history by ply, the public game listing, players, rules, the API
//! reference at `/docs`, HTML 404 and error pages, and playing from a play link
//! (`crate::play_link`). The CSS and the small script are served from the binary.
//! Pages are public and show player names only, never an email address. Writes go through the
//! game service with an `Actor::PlayLink`; this module only translates forms and pages.

mod assets;
mod board;
mod docs;
mod error_page;
mod game_list;
mod game_page;
mod home;
mod layout;
mod markdown;
mod play;
mod player_page;
mod rules_page;

pub use docs::docs_html;
pub use error_page::{not_found_page, WebError};

use actix_web::http::{header, StatusCode};
use actix_web::{guard, web, HttpRequest, HttpResponse};

/// A page's resource: other methods than `allow` get an HTML 405 naming the allowed ones.
fn html_resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(move |req: HttpRequest| async move {
        let body = maud::html! {
            h1 { "Method not allowed" }
            p.error { (req.method()) " is not allowed on " (req.path()) "; use " (allow) "." }
        };
        let mut response =
            layout::response(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed", &body);
        if let Ok(value) = header::HeaderValue::from_str(allow) {
            response.headers_mut().insert(header::ALLOW, value);
        }
        Ok::<HttpResponse, actix_web::Error>(response)
    }))
}

/// A route for GET and HEAD (HEAD answers GET's status and headers without the body).
fn get() -> actix_web::Route {
    web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
}

/// Registers the pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(html_resource("/", "GET, HEAD").route(get().to(home::home)))
        .service(html_resource("/games", "GET, HEAD").route(get().to(game_list::list)))
        .service(html_resource("/games/{id}", "GET, HEAD").route(get().to(game_page::show)))
        .service(
            html_resource("/games/{id}/record", "GET, HEAD").route(get().to(game_page::record)),
        )
        .service(
            html_resource("/games/{id}/play/{pass}", "GET, HEAD")
                .route(get().to(play::follow_link)),
        )
        .service(html_resource("/games/{id}/move", "POST").route(web::post().to(play::play_move)))
        .service(
            html_resource("/games/{id}/resign", "GET, HEAD, POST")
                .route(get().to(play::resign_page))
                .route(web::post().to(play::resign)),
        )
        .service(html_resource("/games/{id}/draw", "POST").route(web::post().to(play::draw)))
        .service(html_resource("/players/{name}", "GET, HEAD").route(get().to(player_page::show)))
        .service(html_resource("/rules/{kind}", "GET, HEAD").route(get().to(rules_page::show)))
        .service(html_resource("/assets/{file}", "GET, HEAD").route(get().to(assets::asset)));
}
