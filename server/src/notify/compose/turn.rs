//! The turn card and the reminder before a deadline.

use chrono::{DateTime, Utc};

use super::card::{self, turn_card};
use super::input::{GameFacts, Recipient, Site};
use crate::mail::ComposedMail;

/// It is `to`'s move: the turn card.
#[must_use]
pub fn your_turn(site: &Site, to: &Recipient, game: &GameFacts) -> ComposedMail {
    turn_card(site, to, game, &turn_headline(game))
}

/// It is `to`'s move, and the opponent's move `played` dropped `to`'s conditional moves (no
/// line expected it): the turn card says so under its headline.
#[must_use]
pub fn your_turn_after_drop(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    played: &str,
) -> ComposedMail {
    let headline = format!(
        "{} Your conditional moves are dropped: none of them expected {played}.",
        turn_headline(game)
    );
    turn_card(site, to, game, &headline)
}

/// "bob played F3-F4. It is your move in Kefren #42."
fn turn_headline(game: &GameFacts) -> String {
    match game.last_moves.iter().rev().find(|mv| !mv.automatic) {
        Some(mv) => format!(
            "{} played {}. It is your move in {}.",
            card::name_at(game, mv.seat),
            mv.notation,
            game.title()
        ),
        None => format!("It is your move in {}.", game.title()),
    }
}

/// `to`'s deadline in the game is near: the turn card headed by the time left at `now`.
#[must_use]
pub fn reminder(site: &Site, to: &Recipient, game: &GameFacts, now: DateTime<Utc>) -> ComposedMail {
    let headline = match game.deadline {
        Some(deadline) => {
            let minutes = (deadline - now).num_minutes().max(0);
            // Rounded up: a sweep runs a little after the 24 h mark and should still say "24 hours".
            let hours = (minutes + 59) / 60;
            let left = match hours {
                0 => "less than an hour".to_owned(),
                1 => "1 hour".to_owned(),
                h => format!("{h} hours"),
            };
            format!(
                "Reminder: {left} left for your move in {} (until {}).",
                game.title(),
                card::deadline_text(deadline, to)
            )
        }
        None => format!("Reminder: your move in {} is waiting.", game.title()),
    };
    turn_card(site, to, game, &headline)
}
