//! SanQi notation, syntax only (rules: "Notation"): `R@d4`, `Rd4`, `r @ d4`, `red d4`.

use std::fmt;

use crate::notation::CellText;
use crate::{notation::Cursor, notation::ParseMoveError};

use super::colour::Colour;
use super::moves::SanQiMove;

/// A SanQi move as written: a colour and a cell. Whether it is a drop or a replacement, and
/// whether the cell is on the board, is for the position to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanQiMoveText {
    pub(crate) colour: Colour,
    pub(crate) cell: CellText,
}

const COLOUR: &str = "a colour: R, B or Y (or red, blue or yellow followed by a space)";

impl SanQiMoveText {
    /// Reads a move text whose cell letters run from `a` to `last_letter`.
    ///
    /// Forms: a colour letter, then `@` (spaces allowed around it) or nothing, then the cell;
    /// or a colour word, then spaces and/or `@`, then the cell.
    ///
    /// # Errors
    /// A [`ParseMoveError`] at the first byte that does not fit: an unknown colour, a cell
    /// letter outside `a..=last_letter`, a missing or malformed number, extra text.
    pub fn parse(text: &str, last_letter: char) -> Result<SanQiMoveText, ParseMoveError> {
        let mut cursor = Cursor::new(text);
        cursor.skip_spaces();
        let (colour, word) = read_colour(&mut cursor)?;
        let after_colour = cursor.offset();
        cursor.skip_spaces();
        let spaced = cursor.offset() > after_colour;
        let at = cursor.eat('@');
        if at {
            cursor.skip_spaces();
        } else if spaced && !word {
            // `R d4`: only a colour word may be followed by a bare space.
            return Err(cursor.error("\"@\" between the colour letter and the cell"));
        }
        let cell_offset = cursor.offset();
        let cell = cursor.cell('a', last_letter).map_err(|error| {
            if !at && !spaced && error.offset == cell_offset {
                let expected = format!("\"@\" or {}", error.expected);
                cursor.error_at(cell_offset, expected)
            } else {
                error
            }
        })?;
        cursor.expect_end("the end of the move")?;
        Ok(SanQiMoveText { colour, cell })
    }

    /// The colour written.
    pub fn colour(&self) -> Colour {
        self.colour
    }
}

/// A colour word followed by a space or `@`, or else a colour letter. Returns whether it was
/// a word.
fn read_colour(cursor: &mut Cursor<'_>) -> Result<(Colour, bool), ParseMoveError> {
    for colour in Colour::ALL {
        let mut probe = cursor.clone();
        if probe.eat_word(colour.word()) && matches!(probe.peek(), Some(' ' | '\t' | '@')) {
            *cursor = probe;
            return Ok((colour, true));
        }
    }
    for colour in Colour::ALL {
        if cursor.eat(colour.letter()) {
            return Ok((colour, false));
        }
    }
    Err(cursor.error(COLOUR))
}

/// The canonical text: `R@d4`.
pub(crate) fn format_move(mv: &SanQiMove) -> String {
    format!("{}@{}", mv.colour.letter(), mv.cell)
}

/// The canonical form of what was written: `R@d4`.
impl fmt::Display for SanQiMoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.colour.letter(), self.cell)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn lenient_forms_parse() {
        for text in [
            "R@d4", "r@d4", "Rd4", "rD4", " R @ d4 ", "red d4", "RED  d4", "red@d4", "red @ d4",
        ] {
            let parsed = SanQiMoveText::parse(text, 'g').unwrap();
            assert_eq!(parsed.to_string(), "R@d4", "{text}");
        }
        assert_eq!(
            SanQiMoveText::parse("blue g7", 'g').unwrap().to_string(),
            "B@g7"
        );
        assert_eq!(
            SanQiMoveText::parse("yellow a1", 'g').unwrap().to_string(),
            "Y@a1"
        );
        assert_eq!(
            SanQiMoveText::parse("Bb2", 'g').unwrap().to_string(),
            "B@b2"
        );
        // Side 10 reaches letter s: `r` and `b` are cell letters too.
        assert_eq!(
            SanQiMoveText::parse("Rr10", 's').unwrap().to_string(),
            "R@r10"
        );
        assert_eq!(
            SanQiMoveText::parse("bb1", 's').unwrap().to_string(),
            "B@b1"
        );
        // Off-board but well-formed cells parse; the position refuses them.
        assert_eq!(
            SanQiMoveText::parse("R@a7", 'g').unwrap().to_string(),
            "R@a7"
        );
    }

    #[test]
    fn syntax_errors_have_offsets() {
        let cases = [
            ("", 0, "a colour"),
            ("G@d4", 0, "a colour"),
            ("d4", 0, "a colour"),
            ("R", 1, "\"@\" or a cell"),
            ("R@", 2, "a cell"),
            ("R@h1", 2, "a-g"),
            ("Rh1", 1, "\"@\" or a cell"),
            ("R d4", 2, "\"@\""),
            ("redd4", 2, "a number after the letter e"),
            ("red", 2, "a number after the letter e"),
            ("red x4", 4, "a cell"),
            ("R@d04", 3, "leading zero"),
            ("R@d", 3, "a number"),
            ("R@d4 R@d5", 5, "end of the move"),
            ("R@d4x", 4, "end of the move"),
        ];
        for (text, offset, expected) in cases {
            let error = SanQiMoveText::parse(text, 'g').unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
            assert!(error.expected.contains(expected), "{text}: {error}");
        }
    }
}
