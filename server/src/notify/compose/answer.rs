//! The answer to a reply that carried commands (see `crate::inbound`): what was done, the line
//! refused and why (a caret under a syntax error, as the CLI shows it), the help or the legal
//! moves asked for, and always the game as it stands now, in the game's thread.

use super::card::{self, finish, turn_facts};
use super::ending::result_line;
use super::input::{GameFacts, Recipient, Site};
use super::letter::Letter;
use crate::mail::ComposedMail;

/// How many legal moves `moves` lists at most.
const MAX_LISTED: usize = 300;

/// A line of a reply that was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The line as written (the move text for a move).
    pub line: String,
    /// Why.
    pub reason: String,
    /// For a syntax error: the character column the caret goes under.
    pub caret: Option<usize>,
}

/// What an answer says besides the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailAnswer {
    /// What each command done did ("played F3-E4").
    pub done: Vec<String>,
    /// The first refused line; the lines after it were not run.
    pub refusal: Option<Refusal>,
    /// Lines not run because of the refusal.
    pub skipped: usize,
    /// `help` was asked for (or the reply held no command).
    pub help: bool,
    /// `moves` was asked for.
    pub moves: bool,
}

/// What a reply may say.
pub const HELP: &str = "Reply to any mail of a game with one command per line; they run in \
order until one is refused:\n\
\n\
  <move>          your move in the game's notation, e.g. F3-E4 (or: move F3-E4)\n\
  resign          give up the game\n\
  draw offer      offer a draw (also: draw accept, draw decline)\n\
  accept          accept a challenge (also: decline)\n\
  rematch         once the game is over: challenge the same players again\n\
  if X then Y     after your move: if they play X, the server plays Y for you at once\n\
                  (chain more: if X then Y if Z then W; two-player games)\n\
  show            send the current board again\n\
  moves           list the legal moves\n\
  help            this text\n\
\n\
Quoted lines (>) and your signature are ignored. A move answers the board the mail showed: \
if the game has moved on since, it is refused as stale and you get the board as it is now.";

/// The answer to `to` about `game` (as it is after the commands).
#[must_use]
pub fn mail_answer(
    site: &Site,
    to: &Recipient,
    game: &GameFacts,
    answer: &MailAnswer,
) -> ComposedMail {
    let mut letter = Letter::to(&to.name);
    if !answer.done.is_empty() {
        letter.para(&format!(
            "Done in {}: {}.",
            game.title(),
            answer.done.join("; ")
        ));
    }
    // The move just played may have brought the opponent's prepared answer at once.
    if let Some(prepared) = card::prepared_answers(to, game) {
        letter.para(&prepared);
    }
    if let Some(refusal) = &answer.refusal {
        letter.para("This line of your reply was refused:");
        let mut shown = refusal.line.clone();
        if let Some(column) = refusal.caret {
            shown.push('\n');
            shown.push_str(&" ".repeat(column));
            shown.push('^');
        }
        letter.pre(&shown);
        letter.para(&refusal.reason);
        if answer.skipped > 0 {
            letter.para(&match answer.skipped {
                1 => "The line after it was not run.".to_owned(),
                n => format!("The {n} lines after it were not run."),
            });
        }
    }
    if answer.help {
        letter.pre(HELP);
    }
    // A resignation or a timeout ends a game the engine would still play on.
    let over = game.result.is_some() || game.to_move().is_none();
    if over {
        letter.para(&format!("The game is over. {}", result_line(to, game)));
    } else {
        turn_facts(&mut letter, to, game);
    }
    let image = Some(card::board(&mut letter, site, game));
    if !over {
        let moves = game.position.legal_moves();
        if answer.moves {
            let listed: Vec<&str> = moves.iter().take(MAX_LISTED).map(String::as_str).collect();
            let more = moves.len().saturating_sub(listed.len());
            let mut text = format!("Legal moves ({}):\n{}", moves.len(), listed.join(" "));
            if more > 0 {
                text.push_str(&format!(" … and {more} more"));
            }
            letter.para(&text);
        } else if game.seat_of(&to.name) == game.to_move() {
            let examples = card::examples(&moves);
            if !examples.is_empty() {
                let count = card::legal_move_count(moves.len());
                let all = examples.len() == moves.len();
                card::example_moves(
                    &mut letter,
                    game,
                    &count,
                    (&examples, all),
                    Some("Reply with yours."),
                );
            }
        }
    }
    letter.link("The game", &site.game_url(game.id));
    ComposedMail {
        auto_replied: true,
        ..finish(letter, site, to, game, image)
    }
}
