//! Mails about how a game ends: a draw offer, the end itself, and time running out.

use super::card::{self, finish, name_at, players_line};
use super::input::{GameFacts, Recipient, Site};
use super::letter::Letter;
use crate::games::ResultReason;
use crate::mail::ComposedMail;
use turnpost_shared::play::Departure;

/// `by` offers a draw to `to`.
#[must_use]
pub fn draw_offered(site: &Site, to: &Recipient, game: &GameFacts, by: &str) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(&format!(
        "{by} offers a draw in {}. The offer stands until {by} moves again.",
        game.title()
    ));
    card::messages(&mut letter, game);
    card::turn_facts(&mut letter, to, game);
    let image = Some(card::board(&mut letter, site, game));
    letter.command("To accept:", &format!("turnpost draw accept {}", game.id));
    letter.command("To decline:", &format!("turnpost draw decline {}", game.id));
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

/// "by resignation", "by agreement", "on time", "" for the rules.
fn reason_words(reason: Option<ResultReason>) -> &'static str {
    reason.map_or("", ResultReason::after_result)
}

/// The result for `to`: "You won.", "bob won by resignation.", "Draw by agreement.".
pub(super) fn result_line(to: &Recipient, game: &GameFacts) -> String {
    let reason = reason_words(game.result_reason);
    let Some(result) = &game.result else {
        return format!("The game is over{reason}.");
    };
    if result.is_draw() {
        return format!("The game is drawn{reason}.");
    }
    let seats: Vec<u8> = result
        .winners()
        .iter()
        .filter_map(|seat| u8::try_from(*seat).ok())
        .collect();
    let you = game.seat_of(&to.name);
    if you.is_some_and(|seat| seats.contains(&seat)) {
        let others: Vec<String> = seats
            .iter()
            .filter(|s| Some(**s) != you)
            .map(|s| name_at(game, *s))
            .collect();
        if others.is_empty() {
            format!("You won{reason}.")
        } else {
            format!("You won{reason}, together with {}.", others.join(", "))
        }
    } else {
        let names: Vec<String> = seats.iter().map(|s| name_at(game, *s)).collect();
        format!("{} won{reason}.", names.join(" and "))
    }
}

fn over(site: &Site, to: &Recipient, game: &GameFacts, headline: &str) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(headline);
    // An answer that ended the game is told to both players.
    if let Some(prepared) = card::prepared_answers(to, game) {
        letter.para(&prepared);
    }
    card::messages(&mut letter, game);
    let mut rows = vec![
        ("Game", game.title()),
        ("Players", players_line(game)),
        ("Result", result_line(to, game)),
        ("Moves played", game.ply.to_string()),
    ];
    if let Some(scores) = game.position.scores() {
        let shown: Vec<String> = scores
            .iter()
            .zip(&game.players)
            .map(|(score, player)| format!("{} {score}", player.name))
            .collect();
        rows.push(("Scores", shown.join(", ")));
    }
    if let Some(last) = card::last_moves_line(game) {
        rows.push(("Last move", last));
    }
    letter.facts(&rows);
    let image = Some(card::board(&mut letter, site, game));
    letter.link(
        "The game record",
        &format!("{}/record", site.game_url(game.id)),
    );
    finish(letter, site, to, game, image)
}

/// The game is over: the result and the final board.
#[must_use]
pub fn game_over(site: &Site, to: &Recipient, game: &GameFacts) -> ComposedMail {
    let headline = format!("{} is over. {}", game.title(), result_line(to, game));
    over(site, to, game, &headline)
}

/// The game ended because `late` ran out of time (timeout mode `auto`).
#[must_use]
pub fn ended_on_time(site: &Site, to: &Recipient, game: &GameFacts, late: &str) -> ComposedMail {
    let whose = if late.eq_ignore_ascii_case(&to.name) {
        "Your time".to_owned()
    } else {
        format!("{late}'s time")
    };
    let headline = format!(
        "{whose} ran out in {}, so the game is over. {}",
        game.title(),
        result_line(to, game)
    );
    over(site, to, game, &headline)
}

/// `left` left a game of three or more seats that goes on; `to_move` is to move now.
#[must_use]
pub fn left_game(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    left: &str,
    how: Departure,
    to_move: &str,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    let why = departure_words(how);
    letter.para(&format!(
        "{left} left game #{}; it goes on, {to_move} to move. {left} {why}; their pieces are \
         off the board and their turns are skipped from now on.",
        game.id
    ));
    card::turn_facts(&mut letter, to, game);
    let image = Some(card::board(&mut letter, site, game));
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

/// `left` left the game (`how`) and the server bot `bot` plays their seat on with its pieces
/// (`on-leave=bot`).
#[must_use]
pub fn bot_took_over(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    left: &str,
    how: Departure,
    bot: &str,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    letter.para(&format!(
        "{left} left game #{}; {bot} plays on for them. {left} {}; {bot}, a server bot, keeps \
         their pieces on the board and plays their turns to the end of the game.",
        game.id,
        departure_words(how)
    ));
    card::turn_facts(&mut letter, to, game);
    let image = Some(card::board(&mut letter, site, game));
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

/// How a player left, after their name: "resigned".
fn departure_words(how: Departure) -> &'static str {
    match how {
        Departure::Resign => "resigned",
        Departure::Timeout => "ran out of time",
        Departure::Claim => "lost on time by a claim",
    }
}

/// `late` ran out of time and `to` may claim the win (timeout mode `claim`); `claim_command`
/// is the command or link that claims it.
#[must_use]
pub fn may_claim_on_time(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    late: &str,
    claim_command: &str,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    let since = game
        .deadline
        .map(|deadline| format!(" at {}", card::deadline_text(deadline, to)))
        .unwrap_or_default();
    letter.para(&format!(
        "{late}'s time in {} ran out{since}. You may claim the win on time, or wait: \
         the game goes on if {late} moves before you claim.",
        game.title()
    ));
    card::turn_facts(&mut letter, to, game);
    let image = Some(card::board(&mut letter, site, game));
    letter.command("To claim the win:", claim_command);
    letter.link("The game", &site.game_url(game.id));
    finish(letter, site, to, game, image)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_words() {
        assert_eq!(reason_words(Some(ResultReason::Timeout)), " on time");
        assert_eq!(
            reason_words(Some(ResultReason::Resignation)),
            " by resignation"
        );
        assert_eq!(reason_words(Some(ResultReason::Agreement)), " by agreement");
        assert_eq!(reason_words(Some(ResultReason::Rules)), "");
        assert_eq!(reason_words(None), "");
    }
}
