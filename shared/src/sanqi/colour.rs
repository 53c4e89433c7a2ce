//! The three stone colours (rules: "Board"). No colour belongs to a player.

use std::fmt;

/// What stands on a cell, as stored on the board: `EMPTY` or a colour's `stone()` value.
pub(crate) const EMPTY: u8 = 0;

/// A stone colour: red `R`, blue `B` or yellow `Y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    Red,
    Blue,
    Yellow,
}

impl Colour {
    /// Every colour, in the order moves are generated.
    pub const ALL: [Colour; 3] = [Colour::Red, Colour::Blue, Colour::Yellow];

    /// The board value of a stone of this colour (1, 2 or 3; 0 is empty).
    pub(crate) const fn stone(self) -> u8 {
        match self {
            Colour::Red => 1,
            Colour::Blue => 2,
            Colour::Yellow => 3,
        }
    }

    /// The colour of a board value, if it holds a stone.
    pub(crate) const fn of_stone(stone: u8) -> Option<Colour> {
        match stone {
            1 => Some(Colour::Red),
            2 => Some(Colour::Blue),
            3 => Some(Colour::Yellow),
            _ => None,
        }
    }

    /// The upper-case letter of the notation: `R`, `B`, `Y`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
            Colour::Yellow => 'Y',
        }
    }

    /// The lower-case letter of position text: `r`, `b`, `y`.
    pub(crate) const fn position_letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
            Colour::Yellow => 'y',
        }
    }

    /// The colour word: `red`, `blue`, `yellow`.
    pub const fn word(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
        }
    }
}

/// The colour word, as used in error messages.
impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
