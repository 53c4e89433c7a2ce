//! Server-rendered HTML pages (maud: compile-time templates, escaped by default): the home page,
//! game pages with their history by ply, the public game listing, players, rules, the API
//! reference at `/docs`, HTML 404 and error pages, and playing from a play link
//! (`crate::play_link`). The CSS and the small script are served from the binary.
//! Pages are public and show player names only, never an email address. Writes go through the
//! game service with an `Actor::PlayLink`; this module only translates forms and pages.

mod assets;
mod board;
mod checked_pass;
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
pub use error_page::{form_error, not_found_page, WebError};

use actix_web::web;

use crate::route_table::RouteTable;

/// Every page, each registered once; other methods get the HTML 405 page.
#[must_use]
pub fn table() -> RouteTable {
    RouteTable::new(error_page::method_not_allowed)
        .get("/", home::home)
        .get("/games", game_list::list)
        .get("/games/{id}", game_page::show)
        .get("/games/{id}/record", game_page::record)
        .get("/games/{id}/play/{pass}", play::follow_link)
        .post("/games/{id}/move", play::play_move)
        .get("/games/{id}/resign", play::resign_page)
        .post("/games/{id}/resign", play::resign)
        .post("/games/{id}/draw", play::draw)
        .get("/players/{name}", player_page::show)
        .get("/rules/{kind}", rules_page::show)
        .get("/assets/{file}", assets::asset)
        .get("/favicon.ico", assets::favicon)
}

/// Registers the pages of the [`table`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    table().configure(cfg);
}
