//! Colours in two-player games (seat 1 is white) and what a player's history asks for next.

/// The colour a player had in a two-player game: seat 1 (moves first) is white.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Colour {
    White,
    Black,
}

impl Colour {
    pub(super) fn other(self) -> Self {
        match self {
            Self::White => Self::Black,
            Self::Black => Self::White,
        }
    }

    /// +1 for white, −1 for black: a colour difference counts whites minus blacks.
    pub(super) fn sign(self) -> i32 {
        match self {
            Self::White => 1,
            Self::Black => -1,
        }
    }
}

/// How much a player wants a colour (FIDE's wording): absolute when the other colour would take
/// their difference past 2 or give them three in a row, strong at a difference of 1, mild when
/// even (the other colour than last time), none before their first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A player's colour history, in round order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ColourHistory {
    pub(super) colours: Vec<Colour>,
}

/// The largest colour difference (whites minus blacks, either way) Swiss pairing allows.
pub(super) const MAX_COLOUR_DIFFERENCE: i32 = 2;

/// Whether two players with these colour differences (whites minus blacks) can meet, one
/// white and one black, with both staying within the limit.
pub(super) fn colours_can_fit(a: i32, b: i32) -> bool {
    let limit = MAX_COLOUR_DIFFERENCE;
    (a < limit && b > -limit) || (a > -limit && b < limit)
}

impl ColourHistory {
    /// Whites minus blacks.
    pub(super) fn difference(&self) -> i32 {
        self.colours.iter().map(|colour| colour.sign()).sum()
    }

    /// Whether `colour` next keeps the difference within ±2.
    pub(super) fn difference_allows(&self, colour: Colour) -> bool {
        (self.difference() + colour.sign()).abs() <= MAX_COLOUR_DIFFERENCE
    }

    /// Whether `colour` next would be the third of that colour in a row.
    pub(super) fn third_in_a_row(&self, colour: Colour) -> bool {
        matches!(self.colours.as_slice(), [.., a, b] if *a == colour && *b == colour)
    }

    /// The colour this player should have next, and how strongly.
    pub(super) fn preference(&self) -> Option<(Colour, Strength)> {
        let difference = self.difference();
        let last = self.colours.last().copied()?;
        let due = match difference.signum() {
            1 => Colour::Black,
            -1 => Colour::White,
            _ => last.other(),
        };
        let strength =
            if difference.abs() >= MAX_COLOUR_DIFFERENCE || self.third_in_a_row(due.other()) {
                Strength::Absolute
            } else if difference.abs() == 1 {
                Strength::Strong
            } else {
                Strength::Mild
            };
        Some((due, strength))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black, White};

    fn history(colours: &[Colour]) -> ColourHistory {
        ColourHistory {
            colours: colours.to_vec(),
        }
    }

    #[test]
    fn preferences_follow_the_difference_and_the_last_colours() {
        assert_eq!(history(&[]).preference(), None);
        assert_eq!(
            history(&[White]).preference(),
            Some((Black, Strength::Strong))
        );
        assert_eq!(
            history(&[White, Black]).preference(),
            Some((White, Strength::Mild))
        );
        assert_eq!(
            history(&[Black, White]).preference(),
            Some((Black, Strength::Mild))
        );
        assert_eq!(
            history(&[White, White]).preference(),
            Some((Black, Strength::Absolute))
        );
        assert_eq!(
            history(&[White, Black, Black]).preference(),
            Some((White, Strength::Absolute))
        );
        assert_eq!(
            history(&[Black, White, White, Black]).preference(),
            Some((White, Strength::Mild))
        );
        assert!(!history(&[White, White]).difference_allows(White));
        assert!(history(&[White, White]).difference_allows(Black));
        assert!(history(&[Black, White, White]).third_in_a_row(White));
        assert!(!history(&[White, Black, White]).third_in_a_row(White));
    }
}
