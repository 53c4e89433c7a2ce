//! The forms of the prepared-answers panel (`conditional_panel`): add a line (tapped: `theirs`
//! and `mine`; typed: `line`), remove one line, clear them all. Each acts through the game
//! service's conditional moves as the play form's actor, with the ply the page showed (an
//! opponent's move in between refuses the edit with the new position), and answers with the
//! game page, which confirms what was done above the panel.

use std::collections::HashMap;

use turnpost_shared::api::ConditionalMoves;

use super::play::{answer_then, refusal, with_service};
use super::play_form::PlayForm;
use super::signed_in_form::see_other;
use super::{game_page, WebError};
use crate::games::conditional::{self, Edit};

/// The game page after an edit, scrolled to the panel, confirming it.
fn done(id: i64, word: &str) -> actix_web::HttpResponse {
    see_other(format!("/games/{id}?prepared={word}#prepared"))
}

/// The `ply` field.
fn ply_of(form: &HashMap<String, String>) -> Result<u32, WebError> {
    let text = form
        .get("ply")
        .ok_or_else(|| WebError::bad_request("the form has no ply field"))?;
    text.parse()
        .map_err(|_| WebError::bad_request(format!("ply={text} is not a number of moves")))
}

/// The moves of a typed line, separated by whitespace (not commas: a Kechi move's parts are
/// separated by commas).
fn moves_of(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

/// The line a form adds: `line` typed whole, or `theirs` and `mine` tapped.
fn line_of(form: &HashMap<String, String>) -> Result<Vec<String>, WebError> {
    if let Some(line) = form.get("line") {
        let moves = moves_of(line);
        if moves.len() < 2 {
            return Err(WebError::bad_request(
                "a line needs at least their move and your answer, separated by a space",
            ));
        }
        return Ok(moves);
    }
    let theirs = form.get("theirs").map_or("", |t| t.trim());
    let mine = form.get("mine").map_or("", |t| t.trim());
    if theirs.is_empty() || mine.is_empty() {
        return Err(WebError::bad_request(
            "an answer needs their move (`theirs`) and yours (`mine`)",
        ));
    }
    Ok(vec![theirs.to_owned(), mine.to_owned()])
}

/// `POST /games/{id}/conditional`: `csrf`, `ply`, and `line` or `theirs` and `mine`; with
/// `replace` (a stored line's moves separated by spaces), the new line takes that one's place.
///
/// # Errors
/// 403 without the seat's cookie or session or with a bad token; 400 a form without its
/// fields. A line the engine refuses is answered with the page and the reason (422).
pub async fn add(play: PlayForm) -> Result<actix_web::HttpResponse, WebError> {
    let (state, id, form, actor, pass) = (play.state, play.id, play.form, play.actor, play.pass);
    let ply = ply_of(&form)?;
    let line = line_of(&form)?;
    let replaced = form.get("replace").map(|old| moves_of(old));
    let outcome = with_service(&state, move |conn| {
        let Some(old) = replaced else {
            let request = ConditionalMoves {
                ply,
                lines: vec![line],
            };
            return conditional::set(conn, &actor, id, &request, Edit::Add);
        };
        // The edited line in its place; one no longer stored is simply added.
        let mut lines = conditional::get(conn, &actor, id)?.lines;
        match lines.iter().position(|kept| *kept == old) {
            Some(at) => {
                if let Some(slot) = lines.get_mut(at) {
                    *slot = line;
                }
            }
            None => lines.push(line),
        }
        conditional::set(
            conn,
            &actor,
            id,
            &ConditionalMoves { ply, lines },
            Edit::Replace,
        )
    })
    .await?;
    answer_then(&state, id, pass, outcome, "", |id| done(id, "stored")).await
}

/// `POST /games/{id}/conditional/remove`: `csrf`, `ply`, and `line` (the line's moves as the
/// page lists them, separated by spaces). A line no longer stored is said so.
///
/// # Errors
/// 403 without the seat's cookie or session or with a bad token; 400 a form without its
/// fields.
pub async fn remove(play: PlayForm) -> Result<actix_web::HttpResponse, WebError> {
    let (state, id, form, actor, pass) = (play.state, play.id, play.form, play.actor, play.pass);
    let ply = ply_of(&form)?;
    let line = moves_of(
        form.get("line")
            .ok_or_else(|| WebError::bad_request("the form has no line field"))?,
    );
    let outcome = with_service(&state, move |conn| {
        let stored = conditional::get(conn, &actor, id)?;
        let mut lines = stored.lines;
        let Some(at) = lines.iter().position(|kept| *kept == line) else {
            return Ok(false);
        };
        lines.remove(at);
        let request = ConditionalMoves { ply, lines };
        conditional::set(conn, &actor, id, &request, Edit::Replace)?;
        Ok(true)
    })
    .await?;
    match outcome {
        Ok(false) => {
            game_page::render(
                &state,
                id,
                None,
                pass.map(Ok),
                Some(game_page::Note::Notice(
                    "That line is no longer among your prepared answers.".to_owned(),
                )),
                actix_web::http::StatusCode::CONFLICT,
            )
            .await
        }
        other => answer_then(&state, id, pass, other, "", |id| done(id, "removed")).await,
    }
}

/// `POST /games/{id}/conditional/clear`: `csrf`.
///
/// # Errors
/// 403 without the seat's cookie or session or with a bad token.
pub async fn clear(play: PlayForm) -> Result<actix_web::HttpResponse, WebError> {
    let PlayForm {
        state,
        id,
        actor,
        pass,
        ..
    } = play;
    let outcome = with_service(&state, move |conn| conditional::clear(conn, &actor, id)).await?;
    match outcome {
        Ok(_) => Ok(done(id, "cleared")),
        Err(error) => {
            let (note, status) = refusal(error, "")?;
            game_page::render(&state, id, None, pass.map(Ok), Some(note), status).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_typed_line_splits_on_whitespace_and_keeps_kechi_commas() {
        assert_eq!(
            line_of(&form(&[("line", " d3-d4  e5-e6\tf1-f2,g1-g2 ")])).unwrap(),
            vec!["d3-d4", "e5-e6", "f1-f2,g1-g2"]
        );
        assert!(line_of(&form(&[("line", "d3-d4")])).is_err());
        assert!(line_of(&form(&[("line", "  ")])).is_err());
    }

    #[test]
    fn a_tapped_answer_needs_both_moves() {
        assert_eq!(
            line_of(&form(&[("theirs", "D3-D4"), ("mine", " E5-E6 ")])).unwrap(),
            vec!["D3-D4", "E5-E6"]
        );
        assert!(line_of(&form(&[("theirs", "D3-D4")])).is_err());
        assert!(line_of(&form(&[])).is_err());
    }
}
