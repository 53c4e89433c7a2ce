//! `GET /rules/{kind}`: the rules for players, the same text as `turnpost rules KIND`.

use actix_web::web;
use maud::html;
use turnpost_shared::rules::rules_for_players;
use turnpost_shared::GameKind;

use super::WebAnswer;
use super::{layout, markdown, WebError};

/// The rules page of a game kind.
///
/// # Errors
/// 404 for an unknown kind (naming the known ones).
pub async fn show(path: web::Path<String>) -> WebAnswer {
    let kind: GameKind = path.parse().map_err(|_| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        WebError::not_found(format!(
            "there is no game called {}; the games are {}",
            path.as_str(),
            known.join(", ")
        ))
    })?;
    let body = html! {
        article.rules { (markdown::render(rules_for_players(kind))) }
        p { a href={ "/games?kind=" (kind.name()) } { "Games of " (kind.title()) } }
    };
    Ok(layout::ok(&format!("{} rules", kind.title()), &body))
}
