//! The frame of every page: head (viewport for phones, the stylesheet, the web app manifest),
//! navigation (games, tournaments, and a menu with ratings, each kind's rules, the API and the
//! account), footer.
//! The menu shows who is signed in (the viewer of the request, `super::viewer::current`):
//! the name, Settings and Sign out; or Sign up and Sign in.

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use maud::{html, Markup, DOCTYPE};
use turnpost_shared::GameKind;

use super::viewer::{self, Viewer};

/// The account part of the menu: who is signed in with Settings and Sign out; or Sign up and
/// Sign in.
fn account_links(viewer: Option<&Viewer>) -> Markup {
    match viewer.and_then(Viewer::signed_in) {
        Some(signed_in) => html! {
            span.who { "Signed in as" }
            a href={ "/players/" (signed_in.account.name) } { (signed_in.account.name) }
            a href="/settings" { "Settings" }
            form.inline method="post" action="/signout" {
                (signed_in.csrf_field())
                button.link type="submit" { "Sign out" }
            }
        },
        None => html! {
            a href="/signup" { "Sign up" }
            a href="/signin" { "Sign in" }
        },
    }
}

/// A whole page titled `title` around `body`.
#[must_use]
pub fn page(title: &str, body: &Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · turnpost" }
                link rel="icon" type="image/svg+xml" href="/assets/favicon.svg";
                link rel="stylesheet" href="/assets/turnpost.css";
                link rel="manifest" href="/manifest.webmanifest";
                link rel="apple-touch-icon" href="/assets/icon-192.png";
                meta name="theme-color" content=(super::app_manifest::THEME_COLOUR);
                meta name="color-scheme" content="light dark";
                script src="/assets/game.js" defer {}
            }
            body {
                header.site {
                    nav aria-label="Site" {
                        a.brand href="/" { "turnpost" }
                        a href="/games" { "Games" }
                        a href="/tournaments" { "Tournaments" }
                        // The rest behind one button, so the bar is one line on a phone.
                        details.menu {
                            summary { "Menu" }
                            div.menu-items {
                                a href="/ratings" { "Ratings" }
                                @for kind in GameKind::ALL {
                                    a href={ "/rules/" (kind.name()) } { "Rules of " (kind.title()) }
                                }
                                a href="/docs" { "API" }
                                hr;
                                (account_links(viewer::current().as_ref()))
                            }
                        }
                    }
                }
                main { (body) }
            }
        }
    }
}

/// A page as an HTML response with `status`.
#[must_use]
pub fn response(status: StatusCode, title: &str, body: &Markup) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(page(title, body).into_string())
}

/// A 200 page.
#[must_use]
pub fn ok(title: &str, body: &Markup) -> HttpResponse {
    response(StatusCode::OK, title, body)
}
