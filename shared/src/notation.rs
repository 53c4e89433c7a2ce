//! Lexing shared by every game's move notation: cells (`F3`, `a13`), separators, spaces.
//! Parsers built on [`Cursor`] never index user text directly: every read goes through
//! `peek`/`bump`, and every failure is a [`ParseMoveError`] with a byte offset.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A move text that is not well formed: where (byte offset), what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[error("syntax error at byte {offset}: expected {expected}, found {found}")]
pub struct ParseMoveError {
    /// Byte offset into the move text.
    pub offset: usize,
    /// What the parser expected there.
    pub expected: String,
    /// What it found there (`end of text` or the quoted character).
    pub found: String,
}

impl ParseMoveError {
    /// The error said for a player who wrote `text`: which word could not be read, what was
    /// expected there and what stands there instead, without byte offsets or escapes.
    /// `example` (a well-formed move) is appended as "For example: …".
    pub fn for_player(&self, text: &str, example: Option<&str>) -> String {
        let offset = (0..=self.offset.min(text.len()))
            .rev()
            .find(|&at| text.is_char_boundary(at))
            .unwrap_or(0);
        let (before, after) = text.split_at(offset);
        let start = before
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(at, c)| at + c.len_utf8());
        let prefix = before.get(start..).unwrap_or_default();
        let rest = after.split(char::is_whitespace).next().unwrap_or_default();
        let word = format!("{prefix}{rest}");
        let expected = &self.expected;
        let mut said = match after.trim_start().chars().next() {
            None if text.trim().is_empty() => format!("The move is empty: expected {expected}."),
            None => {
                let last = text.split_whitespace().last().unwrap_or_default();
                format!("\"{last}\" is not complete: expected {expected}.")
            }
            Some(_) if after.starts_with(char::is_whitespace) => {
                let next = after.split_whitespace().next().unwrap_or_default();
                format!("\"{next}\" does not fit there: expected {expected}.")
            }
            Some(_) if prefix.is_empty() && !before.trim().is_empty() => {
                format!("\"{word}\" does not fit there: expected {expected}.")
            }
            Some(found) if prefix.is_empty() => {
                format!("\"{word}\" cannot start with \"{found}\": expected {expected}.")
            }
            Some(found) => format!(
                "In \"{word}\", the \"{found}\" after \"{prefix}\" does not fit: expected {expected}."
            ),
        };
        if let Some(example) = example {
            said.push_str(&format!(" For example: {example}."));
        }
        said
    }
}

/// A read position in a move text.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    text: &'a str,
    offset: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, offset: 0 }
    }

    /// The byte offset of the next character.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The text not read yet.
    pub fn rest(&self) -> &'a str {
        self.text.get(self.offset..).unwrap_or("")
    }

    /// The next character, not consumed.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// The character after the next one, not consumed.
    pub fn peek_second(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    /// Consumes and returns the next character.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.offset += c.len_utf8();
        Some(c)
    }

    /// Skips spaces and tabs.
    pub fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    /// Whether only spaces are left.
    pub fn at_end(&self) -> bool {
        self.rest().trim_matches([' ', '\t']).is_empty()
    }

    /// Consumes `c` (ASCII, case-insensitive) if it is next.
    pub fn eat(&mut self, c: char) -> bool {
        match self.peek() {
            Some(next) if next.eq_ignore_ascii_case(&c) => {
                self.bump();
                true
            }
            _ => false,
        }
    }

    /// Consumes `word` (ASCII, case-insensitive) if it is next.
    pub fn eat_word(&mut self, word: &str) -> bool {
        let rest = self.rest();
        match rest.get(..word.len()) {
            Some(head) if head.eq_ignore_ascii_case(word) => {
                self.offset += word.len();
                true
            }
            _ => false,
        }
    }

    /// An error at the current offset.
    pub fn error(&self, expected: impl Into<String>) -> ParseMoveError {
        self.error_at(self.offset, expected)
    }

    /// An error at `offset`, describing what stands there.
    pub fn error_at(&self, offset: usize, expected: impl Into<String>) -> ParseMoveError {
        let found = match self.text.get(offset..).and_then(|rest| rest.chars().next()) {
            None => "end of text".to_string(),
            Some(c) => format!("{c:?}"),
        };
        ParseMoveError {
            offset,
            expected: expected.into(),
            found,
        }
    }

    /// Fails unless only spaces are left.
    ///
    /// # Errors
    /// A [`ParseMoveError`] at the first extra character, expecting `expected`.
    pub fn expect_end(&mut self, expected: &str) -> Result<(), ParseMoveError> {
        self.skip_spaces();
        if self.peek().is_none() {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// Reads a cell: one letter from `first..=last` (lower-case bounds, either case accepted)
    /// and a decimal number without a leading zero. Returns the letter's 0-based index from
    /// `first` and the number. A cell that is well formed but off the board is not an error here.
    ///
    /// # Errors
    /// A [`ParseMoveError`] when the letter is out of range, the number is missing, has a
    /// leading zero or is too long.
    pub fn cell(&mut self, first: char, last: char) -> Result<CellText, ParseMoveError> {
        let start = self.offset;
        let expected_letter = format!("a cell (a letter {first}-{last} and a number)");
        let letter = match self.peek() {
            Some(c) if c.is_ascii_alphabetic() => c.to_ascii_lowercase(),
            _ => return Err(self.error(expected_letter)),
        };
        if letter < first || letter > last {
            return Err(self.error(expected_letter));
        }
        self.bump();
        let digits_start = self.offset;
        let mut number: u32 = 0;
        let mut digits = 0;
        while let Some(c) = self.peek() {
            let Some(digit) = c.to_digit(10) else { break };
            if digits == 1 && number == 0 {
                return Err(self.error_at(digits_start, "a number without a leading zero"));
            }
            number = match number.checked_mul(10).and_then(|n| n.checked_add(digit)) {
                Some(n) if digits < 6 => n,
                _ => return Err(self.error_at(digits_start, "a number of at most 6 digits")),
            };
            digits += 1;
            self.bump();
        }
        if digits == 0 {
            return Err(self.error(format!("a number after the letter {letter}")));
        }
        if number == 0 {
            return Err(self.error_at(digits_start, "a number from 1 up"));
        }
        Ok(CellText {
            letter: letter as u8 - first as u8,
            number,
            offset: start,
        })
    }
}

/// A cell as written: the letter's 0-based index in the game's range, the number, and where it
/// stood in the move text (for errors in the resolution phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellText {
    pub letter: u8,
    pub number: u32,
    pub offset: usize,
}

impl CellText {
    /// The cell's name with the letter in `case`, counted from `first`.
    pub fn name(&self, first: char, upper: bool) -> String {
        let letter = char::from(first as u8 + self.letter);
        let letter = if upper {
            letter.to_ascii_uppercase()
        } else {
            letter
        };
        format!("{letter}{}", self.number)
    }
}

impl fmt::Display for CellText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name('a', false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_with_offsets() {
        let mut cursor = Cursor::new(" F13-");
        cursor.skip_spaces();
        let cell = cursor.cell('a', 'i').unwrap();
        assert_eq!((cell.letter, cell.number, cell.offset), (5, 13, 1));
        assert_eq!(cursor.peek(), Some('-'));
    }

    #[test]
    fn bad_cells_say_what_was_expected() {
        let error = Cursor::new("J3").cell('a', 'i').unwrap_err();
        assert_eq!(error.offset, 0);
        assert!(error.expected.contains("a-i"), "{error}");
        let error = Cursor::new("a03").cell('a', 'i').unwrap_err();
        assert_eq!(error.offset, 1);
        assert!(error.expected.contains("leading zero"));
        let error = Cursor::new("a").cell('a', 'i').unwrap_err();
        assert_eq!((error.offset, error.found.as_str()), (1, "end of text"));
        let error = Cursor::new("a1234567").cell('a', 'i').unwrap_err();
        assert!(error.expected.contains("at most 6"));
        let error = Cursor::new("é1").cell('a', 'i').unwrap_err();
        assert_eq!(error.found, "'é'");
    }

    #[test]
    fn players_read_the_word_what_was_expected_and_an_example() {
        let said = |text: &str| {
            let mut cursor = Cursor::new(text);
            cursor.skip_spaces();
            let error = cursor
                .cell('a', 'i')
                .and_then(|_| cursor.expect_end("the end of the move"));
            error.unwrap_err().for_player(text, Some("A17-A18"))
        };
        assert_eq!(
            said("i'"),
            "In \"i'\", the \"'\" after \"i\" does not fit: expected a number after the \
             letter i. For example: A17-A18."
        );
        assert_eq!(
            said("J3"),
            "\"J3\" cannot start with \"J\": expected a cell (a letter a-i and a number). \
             For example: A17-A18."
        );
        assert_eq!(
            said("b"),
            "\"b\" is not complete: expected a number after the letter b. For example: \
             A17-A18."
        );
        assert_eq!(
            said("  "),
            "The move is empty: expected a cell (a letter a-i and a number). For example: \
             A17-A18."
        );
        assert_eq!(
            said("b2 please"),
            "\"please\" does not fit there: expected the end of the move. For example: A17-A18."
        );
        let error = Cursor::new("é1").cell('a', 'i').unwrap_err();
        assert!(!error.for_player("é1", None).contains("For example"));
        assert!(error
            .for_player("é1", None)
            .starts_with("\"é1\" cannot start with \"é\""));
    }
}
