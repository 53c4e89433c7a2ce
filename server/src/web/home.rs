//! `GET /`: what this server is and how to join: in the browser first, the CLI second. A
//! signed-in browser gets its games instead (`super::my_games`).

use actix_web::{web, HttpResponse, ResponseError as _};
use maud::html;
use turnpost_shared::GameKind;

use super::layout;
use super::viewer::Viewer;
use crate::http::state::AppState;

/// The home page.
pub async fn home(state: web::Data<AppState>, viewer: Viewer) -> HttpResponse {
    if let Some(signed_in) = viewer.signed_in() {
        return match super::my_games::body(&state, signed_in).await {
            Ok(body) => layout::ok("Your games", &body),
            Err(error) => error.error_response(),
        };
    }
    let server = state.mail.public_url.trim_end_matches('/');
    let body = html! {
        h1 { "turnpost" }
        p { "A server for turn-based abstract games played over days, in your browser, by email "
            "and from the shell. Each turn you get a mail with the board; answer with your move "
            "in your browser, by replying to the mail, or from the command line." }
        @match viewer.signed_in() {
            Some(signed_in) => {
                p.notice { "Signed in as " strong { (signed_in.account.name) } ". "
                    "Your mail, vacation and sign-ins are on the " a href="/settings" { "settings page" } "." }
            }
            None => {
                h2 { "Play in your browser" }
                @if state.open_signup {
                    p { "Sign up with a player name and your email address; a code comes by mail "
                        "(or a link to tap). Nothing to install." }
                    p.actions { a.button href="/signup" { "Sign up" } " " a href="/signin" { "Sign in" } }
                } @else {
                    p { "Sign-up is closed on this server; ask its operator for an account. "
                        a href="/signin" { "Sign in" } " if you have one." }
                }
            }
        }
        h2 { "Games" }
        ul {
            @for kind in GameKind::ALL {
                li { a href={ "/rules/" (kind.name()) } { (kind.title()) } " — the rules · "
                     a href={ "/games?kind=" (kind.name()) } { "games" } }
            }
        }
        p { a href="/games" { "Recent games" } " are public: anyone can watch them and step through their moves." }
        h2 { "From the command line" }
        p { "The command-line client " code { "turnpost" } " does everything too; sign up with it:" }
        pre tabindex="0" { code { "turnpost signup --server " (server) " --name NAME --email EMAIL\nturnpost new kefren --with FRIEND\nturnpost next" } }
        p { "Your email address is only used for your mail; no page shows it." }
        p { "The HTTP API is described at " a href="/docs" { "/docs" } "." }
    };
    // The layout adds " · turnpost" to every title.
    layout::ok("Abstract games by mail", &body)
}
