//! `GET /`: what this server is, links, and how to join with the CLI.

use actix_web::{web, HttpResponse};
use maud::html;
use turnpost_shared::GameKind;

use super::layout;
use crate::state::AppState;

/// The home page.
pub async fn home(state: web::Data<AppState>) -> HttpResponse {
    let server = state.mail.public_url.trim_end_matches('/');
    let body = html! {
        h1 { "turnpost" }
        p { "A server for turn-based abstract games played over days, by email and from the shell. "
            "Each turn you get a mail with the board; answer with your move from the command line, "
            "by replying to the mail, or in your browser from the link in the mail." }
        h2 { "Games" }
        ul {
            @for kind in GameKind::ALL {
                li { a href={ "/rules/" (kind.name()) } { (kind.title()) } " — the rules · "
                     a href={ "/games?kind=" (kind.name()) } { "games" } }
            }
        }
        p { a href="/games" { "Recent games" } " are public: anyone can watch them and step through their moves." }
        h2 { "Join" }
        p { "Install the command-line client " code { "turnpost" } " and sign up with a name and your email address (a code comes by mail):" }
        pre { code { "turnpost signup --server " (server) " --name NAME --email EMAIL\nturnpost new kefren --with FRIEND\nturnpost next" } }
        p { "Your email address is only used for your mail; no page shows it." }
        p { "The HTTP API is described at " a href="/docs" { "/docs" } "." }
    };
    // The layout adds " · turnpost" to every title.
    layout::ok("Abstract games by mail", &body)
}
