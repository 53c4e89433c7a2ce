//! Server-rendered HTML pages (maud: compile-time templates, escaped by default): the home page,
//! game pages with their history by ply, the public game listing, players, rules, the API
//! reference at `/docs`, HTML 404 and error pages, and playing from a play link
//! (`crate::play_link`). The CSS and the small script are served from the binary.
//! Pages are public and show player names only, never an email address. Writes go through the
//! game service with an `Actor::PlayLink` (a play link's cookie) or an `Actor::Account` (a
//! signed-in browser: [`SignedIn`]); this module only translates forms and pages.
//!
//! Browser sessions: `session_cookie` resolves the cookies of every page request into a
//! [`Viewer`]; a handler takes [`Viewer`] (maybe signed in) or [`SignedIn`] (signed in; a GET
//! without a session is sent to sign in, a POST refused with 403). Every form carries the
//! viewer's CSRF token (`viewer.csrf_field()` inside the form) and every POST handler checks
//! it before anything else: a signed-in form's handler takes `SignedInForm`, which checked it;
//! the play forms take `PlayForm`; the sign-in forms call `viewer.check_csrf(form.get("csrf"))`.

mod app_manifest;
mod assets;
mod board;
mod challenge_forms;
mod challenges_page;
mod channel_forms;
mod channel_switches;
mod conditional_forms;
mod conditional_panel;
mod csrf;
mod docs;
mod error_page;
mod extract;
mod game_list;
mod game_page;
mod game_settings_fields;
mod home;
mod layout;
mod markdown;
mod my_games;
mod new_game;
mod play;
mod play_cookie;
mod play_form;
mod player_page;
mod push_section;
mod push_settings;
mod rating_graph;
mod ratings_page;
mod rules_page;
mod session_cookie;
mod settings;
mod sign_in;
mod sign_out;
mod signed_in_form;
mod time_text;
mod tournament_form;
mod tournaments_page;
pub mod unsubscribe_page;
mod viewer;
mod visitor_form;
mod webhooks_section;
mod webhooks_settings;

pub use docs::docs_html;
pub use error_page::{form_error, not_found_page, WebAnswer, WebError};
pub use extract::SignInFirst;
pub use session_cookie::{resolve_viewer, SESSION_COOKIE};
pub use viewer::{SignedIn, Viewer};

use actix_web::web;

use crate::http::route_table::RouteTable;

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
        .post("/games/{id}/mute", play::mute)
        .post("/games/{id}/conditional", conditional_forms::add)
        .post("/games/{id}/conditional/remove", conditional_forms::remove)
        .post("/games/{id}/conditional/clear", conditional_forms::clear)
        .get("/players/{name}", player_page::show)
        .get("/ratings", ratings_page::index)
        .get("/ratings/{kind}", ratings_page::show)
        .get("/rules/{kind}", rules_page::show)
        .get("/assets/{file}", assets::asset)
        .get("/signup", sign_in::sign_up_page)
        .post("/signup", sign_in::sign_up)
        .get("/signin", sign_in::sign_in_page)
        .post("/signin", sign_in::sign_in)
        .get("/signin/code", sign_in::code_page)
        .post("/signin/code", sign_in::verify_code)
        .get("/signin/link/{secret}", sign_in::link_page)
        .post("/signin/link", sign_in::follow_link)
        .post("/signout", sign_out::sign_out)
        .post("/signout/everywhere", sign_out::sign_out_everywhere)
        .post("/unsubscribe/undo", unsubscribe_page::undo)
        .get("/settings", settings::show)
        .post("/settings/notifications", settings::save_notifications)
        .post("/settings/vacation", settings::take_vacation)
        .post("/settings/tokens/{id}/revoke", settings::revoke_token)
        .post("/settings/sessions/{id}/revoke", settings::revoke_session)
        .post("/settings/webhooks", webhooks_settings::add)
        .post(
            "/settings/webhooks/switches",
            webhooks_settings::save_switches,
        )
        .post("/settings/webhooks/{id}/remove", webhooks_settings::remove)
        .post("/settings/webhooks/{id}/test", webhooks_settings::test)
        .post("/settings/push/subscribe", push_settings::subscribe)
        .post("/settings/push/switches", push_settings::save_switches)
        .post("/settings/push/{id}/remove", push_settings::remove)
        .get("/sw.js", assets::service_worker)
        .get("/me", my_games::show)
        .get("/new", new_game::show)
        .post("/new", new_game::create)
        .get("/challenges", challenges_page::show)
        .post("/challenges/{id}/join", challenge_forms::join)
        .post("/challenges/{id}/leave", challenge_forms::leave)
        .post("/games/{id}/accept", challenge_forms::accept)
        .post("/games/{id}/decline", challenge_forms::decline)
        .post("/games/{id}/rematch", challenge_forms::rematch)
        .get("/tournaments", tournaments_page::list)
        .get("/tournaments/new", tournament_form::show)
        .post("/tournaments", tournament_form::create)
        .get("/tournaments/{id}", tournaments_page::show)
        .post("/tournaments/{id}/join", tournaments_page::join)
        .post("/tournaments/{id}/withdraw", tournaments_page::withdraw)
        .post("/tournaments/{id}/start", tournaments_page::start)
        .get("/favicon.ico", assets::favicon)
        .get("/manifest.webmanifest", app_manifest::manifest)
}

/// Registers the pages of the [`table`].
pub fn configure(cfg: &mut web::ServiceConfig) {
    table().configure(cfg);
}
