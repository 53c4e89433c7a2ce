//! Kefren notation, syntax only (rules: "Notation"): `F3-E4`, `F3:E4:E7`, `f3xe4`.

use std::fmt;

use crate::notation::CellText;
use crate::{notation::Cursor, notation::ParseMoveError};

use super::cell::Cell;
use super::moves::KefrenMove;

/// A Kefren move as written: the cells in order (source first). Separators `-`, `:` and `x` are
/// interchangeable; the position decides whether it is a twirl or a capture chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KefrenMoveText {
    pub(crate) cells: Vec<CellText>,
}

const SEPARATOR: &str = "a separator (-, : or x)";

impl KefrenMoveText {
    /// Reads a move text.
    ///
    /// # Errors
    /// A [`ParseMoveError`] at the first byte that does not fit the grammar.
    pub fn parse(text: &str) -> Result<KefrenMoveText, ParseMoveError> {
        let mut cursor = Cursor::new(text);
        cursor.skip_spaces();
        let mut cells = vec![cursor.cell('a', 'i')?];
        loop {
            cursor.skip_spaces();
            if cursor.peek().is_none() {
                break;
            }
            if !(cursor.eat('-') || cursor.eat(':') || cursor.eat('x')) {
                let expected = if cells.len() == 1 {
                    SEPARATOR.to_string()
                } else {
                    format!("{SEPARATOR} or the end of the move")
                };
                return Err(cursor.error(expected));
            }
            cursor.skip_spaces();
            cells.push(cursor.cell('a', 'i')?);
        }
        if cells.len() < 2 {
            return Err(cursor.error(format!("{SEPARATOR} and a destination cell")));
        }
        Ok(KefrenMoveText { cells })
    }
}

/// The canonical text: `F3-E4` for a twirl, `F3:E4:E7` for a capture chain.
pub(crate) fn format_move(mv: &KefrenMove) -> String {
    match mv {
        KefrenMove::Twirl { from, to } => format!("{from}-{to}"),
        KefrenMove::Capture { path } => path
            .iter()
            .map(Cell::to_string)
            .collect::<Vec<_>>()
            .join(":"),
    }
}

impl fmt::Display for KefrenMoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.cells.iter().map(|c| c.name('a', true)).collect();
        f.write_str(&names.join("-"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_forms_parse() {
        for text in ["F3-E4", "f3-e4", " F3 - E4 ", "F3xE4", "f3:e4"] {
            let parsed = KefrenMoveText::parse(text).unwrap();
            assert_eq!(parsed.to_string(), "F3-E4", "{text}");
        }
        assert_eq!(KefrenMoveText::parse("F3:E4:E7").unwrap().cells.len(), 3);
    }

    #[test]
    fn syntax_errors_have_offsets() {
        let cases = [
            ("", 0, "a cell"),
            ("F3", 2, "separator"),
            ("F3-", 3, "a cell"),
            ("F3-J4", 3, "a-i"),
            ("F3 E4", 3, "separator"),
            ("F03-E4", 1, "leading zero"),
            ("F3-E4!", 5, "end of the move"),
        ];
        for (text, offset, expected) in cases {
            let error = KefrenMoveText::parse(text).unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
            assert!(error.expected.contains(expected), "{text}: {error}");
        }
    }
}
