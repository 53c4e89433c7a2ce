//! Kechi notation, syntax only (rules: "Notation"): `a13-a8,e13-e12`, `a8:a4`, `x5xx1`.

use std::fmt;

use crate::notation::CellText;
use crate::{notation::Cursor, notation::ParseMoveError};

use super::turn::KechiTurn;

/// A Kechi turn as written: its stone moves (source, landing) in the order given. The
/// separators `-`, `:` and `x` are interchangeable; the position decides what captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KechiMoveText {
    pub(crate) moves: Vec<(CellText, CellText)>,
}

const SEPARATOR: &str = "a separator (-, : or x) and a landing cell";

impl KechiMoveText {
    /// Reads a turn on a board whose last column letter is `last` (`m` for `lines=4`).
    ///
    /// After a cell's digits a separator must come, so with `lines=7` (columns a-y) an `x`
    /// there is the separator and the `x` after it starts the next cell: `x5xx1` is x5:x1.
    ///
    /// # Errors
    /// A [`ParseMoveError`] at the first byte that does not fit the grammar.
    pub fn parse(text: &str, last: char) -> Result<KechiMoveText, ParseMoveError> {
        let mut cursor = Cursor::new(text);
        let mut moves = Vec::new();
        cursor.skip_spaces();
        loop {
            let from = cursor.cell('a', last)?;
            cursor.skip_spaces();
            if !(cursor.eat('-') || cursor.eat(':') || cursor.eat('x')) {
                return Err(cursor.error(SEPARATOR));
            }
            cursor.skip_spaces();
            let to = cursor.cell('a', last)?;
            moves.push((from, to));
            cursor.skip_spaces();
            if cursor.peek().is_none() {
                break;
            }
            if !cursor.eat(',') {
                return Err(cursor.error("\",\" and another stone move, or the end of the turn"));
            }
            cursor.skip_spaces();
        }
        Ok(KechiMoveText { moves })
    }
}

/// The canonical text: stone moves in canonical order joined by `,`; `:` for captures.
pub(crate) fn format_turn(turn: &KechiTurn) -> String {
    let parts: Vec<String> = turn
        .moves
        .iter()
        .map(|step| {
            let separator = if step.capture { ':' } else { '-' };
            format!("{}{separator}{}", step.from, step.to)
        })
        .collect();
    parts.join(",")
}

/// What was written, normalised: lower case, `-` between cells, in the order given.
impl fmt::Display for KechiMoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .moves
            .iter()
            .map(|(from, to)| format!("{from}-{to}"))
            .collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_forms_parse() {
        for text in [
            "a13-a8,e13-e12",
            "A13-A8, E13-E12",
            " a13 : a8 ,  e13xe12 ",
            "a13xa8,e13 x e12",
        ] {
            let parsed = KechiMoveText::parse(text, 'm').unwrap();
            assert_eq!(parsed.to_string(), "a13-a8,e13-e12", "{text}");
        }
    }

    #[test]
    fn x_is_a_separator_after_digits_and_a_column_after_a_separator() {
        let parsed = KechiMoveText::parse("x5xx1", 'y').unwrap();
        assert_eq!(parsed.to_string(), "x5-x1");
        let parsed = KechiMoveText::parse("X5x X1,a1xx9", 'y').unwrap();
        assert_eq!(parsed.to_string(), "x5-x1,a1-x9");
        // Without lines=7, x is no column letter.
        let error = KechiMoveText::parse("x5-a1", 'm').unwrap_err();
        assert_eq!(error.offset, 0);
    }

    #[test]
    fn syntax_errors_have_offsets() {
        let cases = [
            ("", 0, "a cell"),
            ("a13", 3, "separator"),
            ("a13-", 4, "a cell"),
            ("a13-n8", 4, "a-m"),
            ("a13 a8", 4, "separator"),
            ("a13-a8;e13-e12", 6, "\",\""),
            ("a13-a8,", 7, "a cell"),
            ("a013-a8", 1, "leading zero"),
            ("a13-a8 e13-e12", 7, "\",\""),
        ];
        for (text, offset, expected) in cases {
            let error = KechiMoveText::parse(text, 'm').unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
            assert!(error.expected.contains(expected), "{text}: {error}");
        }
    }
}
