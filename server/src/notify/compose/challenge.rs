//! Mails about a challenge: made, accepted, declined, and the game it became.

use chrono::{DateTime, Utc};
use turnpost_shared::api::RatingChanges;

use super::card::{self, finish, players_line, turn_card};
use super::input::{GameFacts, Recipient, Site};
use super::letter::Letter;
use crate::mail::ComposedMail;

/// "Kefren #42 (options …)".
fn game_line(game: &GameFacts) -> String {
    let title = game.title();
    if game.options.trim().is_empty() {
        title
    } else {
        format!("{title} ({})", game.options.trim())
    }
}

/// A challenge for `to` from `challenger`, open until `expires_at`; `changes`: how `to`'s
/// rating would change with each result (a rated two-player game).
#[must_use]
pub fn challenge(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    challenger: &str,
    expires_at: DateTime<Utc>,
    changes: Option<RatingChanges>,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(&format!(
        "{challenger} challenges you to a game of {}.",
        game.kind().title()
    ));
    let mut rows = vec![("Game", game_line(game)), ("Players", players_line(game))];
    if let Some(you) = game.seat_of(&to.name).and_then(|seat| game.player(seat)) {
        rows.push(("You would play", you.seat_name.clone()));
    }
    if let Some(changes) = changes {
        rows.push((
            "Rated",
            format!(
                "your rating changes by {:+} for a win, {:+} for a draw, {:+} for a loss",
                changes.win, changes.draw, changes.loss
            ),
        ));
    }
    rows.push(("Answer by", card::deadline_text(expires_at, to)));
    letter.facts(&rows);
    let image = Some(card::board(&mut letter, site, game));
    letter.command("To accept:", &format!("turnpost accept {}", game.id));
    letter.command("To decline:", &format!("turnpost decline {}", game.id));
    if to.reply_to.is_some() {
        letter.para("Or reply to this mail with accept or decline on the first line.");
    }
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

/// A short notice about a challenge: `headline`, the players, and a link when one helps (no
/// board: nothing was played).
fn notice(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    headline: &str,
    link: Option<(&str, String)>,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(headline);
    letter.facts(&[("Players", players_line(game))]);
    if let Some((label, url)) = link {
        letter.link(label, &url);
    }
    finish(letter, site, to, game, None)
}

/// `by` accepted the challenge `to` made; others still have to.
#[must_use]
pub fn challenge_accepted(site: &Site, to: &Recipient, game: &GameFacts, by: &str) -> ComposedMail {
    let title = game.title();
    let headline = format!(
        "{by} accepted your challenge to {title}. The game starts when every player has accepted."
    );
    notice(
        site,
        to,
        game,
        &headline,
        Some(("The game", site.game_url(game.id))),
    )
}

/// `by` declined the challenge: the game is cancelled.
#[must_use]
pub fn challenge_declined(site: &Site, to: &Recipient, game: &GameFacts, by: &str) -> ComposedMail {
    let headline = format!(
        "{by} declined the challenge to {}; the game is cancelled.",
        game.title()
    );
    notice(site, to, game, &headline, None)
}

/// The poster's open challenge lapsed with a seat nobody took: the game is cancelled.
#[must_use]
pub fn challenge_lapsed(site: &Site, to: &Recipient, game: &GameFacts) -> ComposedMail {
    let headline = format!(
        "Nobody took the open seat of your challenge to {} in {} days; the challenge \
         lapsed and the game is cancelled. Post it again to find other players.",
        game.title(),
        crate::games::CHALLENGE_DAYS
    );
    notice(
        site,
        to,
        game,
        &headline,
        Some(("Open challenges", site.challenges_url())),
    )
}

/// Everyone accepted. The player to move gets the turn card; the others a notice with the
/// board.
#[must_use]
pub fn game_started(site: &Site, to: &Recipient, game: &GameFacts) -> ComposedMail {
    let yours = game.to_move().is_some() && game.seat_of(&to.name) == game.to_move();
    if yours {
        return turn_card(
            site,
            to,
            game,
            &format!(
                "Everyone accepted, the game has started: it is your move in {}.",
                game.title()
            ),
        );
    }
    let mut letter = Letter::to(&to.name);
    letter.para(&format!(
        "Everyone accepted: {} has started. You will get a mail when it is your move.",
        game.title()
    ));
    card::turn_facts(&mut letter, to, game);
    let image = Some(card::board(&mut letter, site, game));
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}
