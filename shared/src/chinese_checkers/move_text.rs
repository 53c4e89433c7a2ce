//! Chinese Checkers notation, syntax only (rules: "Notation"): `N13-N12`, `A5-C7-E7-E9-G11`,
//! `A5-G11`, `pass`.

use std::fmt;

use crate::notation::CellText;
use crate::{notation::Cursor, notation::ParseMoveError};

use super::moves::ChineseCheckersMove;

/// A Chinese Checkers move as written: `pass`, or the holes in order (source first, then any
/// of the intermediate landing holes of a hop chain, then the final hole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChineseCheckersMoveText {
    Pass,
    Holes(Vec<CellText>),
}

const SEPARATOR: &str = "a separator (-, : or x)";

impl ChineseCheckersMoveText {
    /// Reads a move text.
    ///
    /// # Errors
    /// A [`ParseMoveError`] at the first byte that does not fit the grammar.
    pub fn parse(text: &str) -> Result<ChineseCheckersMoveText, ParseMoveError> {
        let mut cursor = Cursor::new(text);
        cursor.skip_spaces();
        if cursor.eat_word("pass") {
            cursor.expect_end("the end of the move after \"pass\"")?;
            return Ok(ChineseCheckersMoveText::Pass);
        }
        if cursor.peek().is_none() {
            return Err(cursor.error("a move: a hole (a letter a-q and a number) or \"pass\""));
        }
        let mut holes = vec![cursor.cell('a', 'q')?];
        loop {
            cursor.skip_spaces();
            if cursor.peek().is_none() {
                break;
            }
            if !(cursor.eat('-') || cursor.eat(':') || cursor.eat('x')) {
                let expected = if holes.len() == 1 {
                    SEPARATOR.to_string()
                } else {
                    format!("{SEPARATOR} or the end of the move")
                };
                return Err(cursor.error(expected));
            }
            cursor.skip_spaces();
            holes.push(cursor.cell('a', 'q')?);
        }
        if holes.len() < 2 {
            return Err(cursor.error(format!("{SEPARATOR} and the final hole")));
        }
        Ok(ChineseCheckersMoveText::Holes(holes))
    }
}

/// The canonical text: source and final hole (`A5-G11`), or `pass`.
pub(crate) fn format_move(mv: &ChineseCheckersMove) -> String {
    match mv {
        ChineseCheckersMove::Pass => "pass".to_string(),
        ChineseCheckersMove::Move { from, to } => format!("{from}-{to}"),
    }
}

impl fmt::Display for ChineseCheckersMoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChineseCheckersMoveText::Pass => f.write_str("pass"),
            ChineseCheckersMoveText::Holes(holes) => {
                let names: Vec<String> = holes.iter().map(|hole| hole.name('a', true)).collect();
                f.write_str(&names.join("-"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_forms_parse() {
        for text in ["N13-N12", "n13-n12", " N13 - N12 ", "N13xN12", "n13:n12"] {
            let parsed = ChineseCheckersMoveText::parse(text).unwrap();
            assert_eq!(parsed.to_string(), "N13-N12", "{text}");
        }
        let chain = ChineseCheckersMoveText::parse("A5-C7-E7-E9-G11").unwrap();
        assert_eq!(chain.to_string(), "A5-C7-E7-E9-G11");
        for text in ["pass", "PASS", " Pass "] {
            assert_eq!(
                ChineseCheckersMoveText::parse(text).unwrap(),
                ChineseCheckersMoveText::Pass
            );
        }
        // A hole off the board parses; resolution refuses it.
        assert!(ChineseCheckersMoveText::parse("A1-Q17").is_ok());
    }

    #[test]
    fn syntax_errors_have_offsets() {
        let cases = [
            ("", 0, "pass"),
            ("A5", 2, "separator"),
            ("A5-", 3, "a cell"),
            ("A5-R6", 3, "a-q"),
            ("A5 B5", 3, "separator"),
            ("A05-B5", 1, "leading zero"),
            ("A5-B5!", 5, "end of the move"),
            ("passe", 4, "end of the move"),
            ("pa", 1, "a number"),
        ];
        for (text, offset, expected) in cases {
            let error = ChineseCheckersMoveText::parse(text).unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
            assert!(error.expected.contains(expected), "{text}: {error}");
        }
    }
}
