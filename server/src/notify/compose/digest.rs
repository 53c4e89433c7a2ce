//! The daily digest: every game waiting for the recipient's move, most urgent first.

use chrono::{DateTime, Utc};

use super::card::{self, move_command, players_line};
use super::input::{GameFacts, Recipient, Site};
use super::letter::Letter;
use crate::mail::ComposedMail;

/// The order of a digest: earliest deadline first, games without a deadline last, then by id.
fn urgency(game: &GameFacts) -> (bool, Option<DateTime<Utc>>, i64) {
    (game.deadline.is_none(), game.deadline, game.id)
}

/// One mail listing `games` (the games waiting for `to`'s move), each with its board as text
/// and a command to paste. Not part of any game's thread.
#[must_use]
pub fn digest(site: &Site, to: &Recipient, games: &[GameFacts]) -> ComposedMail {
    let mut sorted: Vec<&GameFacts> = games.iter().collect();
    sorted.sort_by_key(|game| urgency(game));
    let subject = match sorted.len() {
        1 => "turnpost: 1 game waits for your move".to_owned(),
        n => format!("turnpost: {n} games wait for your move"),
    };
    let mut letter = Letter::to(&to.name);
    letter.para(&match sorted.len() {
        0 => "No game waits for your move today.".to_owned(),
        1 => "One game waits for your move.".to_owned(),
        n => format!("{n} games wait for your move, the most urgent first."),
    });
    for (index, game) in sorted.iter().enumerate() {
        letter.para(&format!("{}. {}", index + 1, game.title()));
        if let Some(prepared) = card::prepared_answers(to, game) {
            letter.para(&prepared);
        }
        let mut rows = vec![("Players", players_line(game))];
        if let Some(last) = card::last_moves_line(game) {
            rows.push(("Last move", last));
        }
        rows.push((
            "Deadline",
            game.deadline
                .map_or_else(|| "none".to_owned(), |d| card::deadline_text(d, to)),
        ));
        if let Some(seat) = game.seat_of(&to.name).and_then(turnpost_shared::Seat::new) {
            rows.push(("Your goal", game.position.goal(seat)));
        }
        letter.facts(&rows);
        let view = game
            .position
            .board_view_with_moves(game.last_moves.iter().filter_map(|mv| {
                turnpost_shared::Seat::new(mv.seat).map(|seat| (seat, mv.notation.as_str()))
            }));
        letter.pre(&turnpost_shared::render::render_text(
            &view,
            turnpost_shared::render::TextStyle::Marked,
        ));
        let moves = game.position.legal_moves();
        if let Some(first) = card::examples(&moves).first() {
            letter.command(
                &format!("{} legal moves; for example:", moves.len()),
                &move_command(game, first),
            );
        }
    }
    let (text, html) = letter.finish(&subject, &site.public_url, to.unsubscribe_url.as_deref());
    ComposedMail {
        subject,
        text,
        html: Some(html),
        image: None,
        thread: None,
        unsubscribe_url: to.unsubscribe_url.clone(),
        reply_to: None,
        auto_replied: false,
    }
}
