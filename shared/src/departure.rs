//! A seat leaving a game (resignation, loss on time, a claim against it) and its record line:
//! `resign 2`, `timeout 2`, `claim 2`; with `bot` after the seat (`resign 2 bot`) the player
//! left and a server bot took the seat over (the challenge option `on-leave=bot`): the seat
//! keeps its pegs and its turns, so the position does not change. Departure lines stand among the moves of a record and of
//! `--moves`; like moves, they are parsed (syntax, with byte offsets), then resolved against
//! the position (the seat must be in the game and still playing), then played.
//!
//! Draws by agreement are not departures and not engine moves: the position does not change,
//! so the server keeps recording them in its result (`draw`, reason `agreement`; in games of
//! more than two seats, once every seat still playing has accepted) and computes the places
//! with [`crate::placings::placings`] from `Status::Draw` and the seats that had left.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{notation::Cursor, notation::ParseMoveError, Seat};

/// How a seat left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Departure {
    /// The player resigned.
    Resign,
    /// The seat ran out of time and the clock ended its game (`auto` timeouts).
    Timeout,
    /// Another player claimed the win on time against the seat (`claim` timeouts).
    Claim,
}

impl Departure {
    pub const ALL: [Departure; 3] = [Departure::Resign, Departure::Timeout, Departure::Claim];

    /// The word of the record line: `resign`, `timeout`, `claim`.
    pub fn word(self) -> &'static str {
        match self {
            Departure::Resign => "resign",
            Departure::Timeout => "timeout",
            Departure::Claim => "claim",
        }
    }

    /// The canonical record line for `seat` leaving this way: `resign 2`.
    pub fn line(self, seat: Seat) -> String {
        format!("{} {seat}", self.word())
    }

    /// The canonical record line for `seat`'s player leaving this way while a bot takes the
    /// seat over: `resign 2 bot`.
    pub fn bot_line(self, seat: Seat) -> String {
        format!("{} {seat} {BOT}", self.word())
    }
}

impl fmt::Display for Departure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A word that is not a departure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected resign, timeout or claim, found `{0}`")]
pub struct UnknownDeparture(pub String);

impl FromStr for Departure {
    type Err = UnknownDeparture;

    fn from_str(text: &str) -> Result<Departure, UnknownDeparture> {
        Departure::ALL
            .into_iter()
            .find(|departure| departure.word().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownDeparture(text.to_string()))
    }
}

/// The word after the seat that says a bot takes the seat over: `resign 2 bot`.
pub const BOT: &str = "bot";

/// A departure line as written, before it is checked against a position: the seat number may
/// be any number (resolving says whether that seat is in the game and still playing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepartureText {
    pub departure: Departure,
    pub seat: u32,
    /// `resign 2 bot`: a bot takes the seat over, which keeps its pegs.
    pub bot: bool,
}

impl DepartureText {
    /// Whether `text` is meant as a departure line: its first word is `resign`, `timeout` or
    /// `claim` (any case). Move notations never start with these words.
    pub fn is_departure(text: &str) -> bool {
        let word: String = text
            .trim_start()
            .chars()
            .take_while(char::is_ascii_alphabetic)
            .collect();
        word.parse::<Departure>().is_ok()
    }

    /// Reads `resign 2` or `resign 2 bot` (the words in any case, spaces or tabs between,
    /// nothing after).
    ///
    /// # Errors
    /// A [`ParseMoveError`] with the byte offset: a word other than the three, no space, a
    /// missing or non-numeric seat, something after the seat other than `bot`.
    pub fn parse(text: &str) -> Result<DepartureText, ParseMoveError> {
        let mut cursor = Cursor::new(text);
        cursor.skip_spaces();
        let start = cursor.offset();
        let mut word = String::new();
        while let Some(c) = cursor.peek().filter(char::is_ascii_alphabetic) {
            word.push(c);
            cursor.bump();
        }
        let departure: Departure = word.parse().map_err(|_| ParseMoveError {
            offset: start,
            expected: "resign, timeout or claim".to_string(),
            found: found(&word, text.get(start..)),
        })?;
        if !matches!(cursor.peek(), Some(' ' | '\t')) {
            return Err(cursor_error(&cursor, "a space, then the seat that leaves"));
        }
        cursor.skip_spaces();
        let digits_at = cursor.offset();
        let mut digits = String::new();
        while let Some(c) = cursor.peek().filter(char::is_ascii_digit) {
            digits.push(c);
            cursor.bump();
        }
        let seat = digits.parse::<u32>().map_err(|_| {
            if digits.is_empty() {
                cursor_error(&cursor, "the seat that leaves (a number)")
            } else {
                ParseMoveError {
                    offset: digits_at,
                    expected: "a seat number".to_string(),
                    found: format!("`{digits}` (too large)"),
                }
            }
        })?;
        cursor.skip_spaces();
        let mut bot = false;
        if !cursor.at_end() {
            let word_at = cursor.offset();
            let mut word = String::new();
            while let Some(c) = cursor.peek().filter(char::is_ascii_alphabetic) {
                word.push(c);
                cursor.bump();
            }
            if !word.eq_ignore_ascii_case(BOT) {
                return Err(ParseMoveError {
                    offset: word_at,
                    expected: "the end of the departure line, or `bot`".to_string(),
                    found: found(&word, text.get(word_at..)),
                });
            }
            bot = true;
            cursor.skip_spaces();
            if !cursor.at_end() {
                return Err(cursor_error(&cursor, "the end of the departure line"));
            }
        }
        Ok(DepartureText {
            departure,
            seat,
            bot,
        })
    }
}

fn cursor_error(cursor: &Cursor<'_>, expected: &str) -> ParseMoveError {
    ParseMoveError {
        offset: cursor.offset(),
        expected: expected.to_string(),
        found: match cursor.peek() {
            Some(c) => format!("`{c}`"),
            None => "end of text".to_string(),
        },
    }
}

fn found(word: &str, rest: Option<&str>) -> String {
    if !word.is_empty() {
        format!("`{word}`")
    } else {
        match rest.and_then(|rest| rest.chars().next()) {
            Some(c) => format!("`{c}`"),
            None => "end of text".to_string(),
        }
    }
}

/// Why a seat cannot leave in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LeaveError {
    #[error("seat {seat} is not in this game (seats 1 to {seats})")]
    NotInGame { seat: u32, seats: u8 },
    #[error("seat {0} has already left")]
    AlreadyLeft(Seat),
    #[error("the game is over")]
    GameOver,
    #[error(
        "a bot takes a seat over only while three or more seats play ({playing} do): with two, \
         leaving ends the game"
    )]
    TooFewForBot { playing: usize },
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn departure_lines_parse_with_offsets() {
        let text = DepartureText::parse("  Resign\t2 ").unwrap();
        assert_eq!(
            text,
            DepartureText {
                departure: Departure::Resign,
                seat: 2,
                bot: false,
            }
        );
        let text = DepartureText::parse("timeout 3  BOT ").unwrap();
        assert_eq!(
            (text.departure, text.seat, text.bot),
            (Departure::Timeout, 3, true)
        );
        assert_eq!(Departure::Claim.bot_line(Seat::FIRST), "claim 1 bot");
        let error = DepartureText::parse("resign 2 bots").unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (9, "`bots`"));
        let error = DepartureText::parse("resign 2 bot 1").unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (13, "`1`"));
        assert_eq!(Departure::Claim.line(Seat::FIRST), "claim 1");
        assert!(DepartureText::is_departure("TIMEOUT 3"));
        assert!(!DepartureText::is_departure("pass"));
        assert!(!DepartureText::is_departure("N13-N12"));
        let error = DepartureText::parse("resign").unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (6, "end of text"));
        let error = DepartureText::parse("resign x").unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (7, "`x`"));
        let error = DepartureText::parse("claim 2 3").unwrap_err();
        assert_eq!(error.offset, 8);
        let error = DepartureText::parse("quit 2").unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (0, "`quit`"));
        let error = DepartureText::parse("resign 99999999999").unwrap_err();
        assert_eq!(error.offset, 7);
    }
}
