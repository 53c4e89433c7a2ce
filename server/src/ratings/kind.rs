//! Rating kinds: one per game kind for its two-player games (`kefren`, `chinese-checkers`),
//! and `chinese-checkers-multi` for the Chinese Checkers games of three to six seats.

use std::fmt;
use std::str::FromStr;

use turnpost_shared::rules::PLAYERS_OPTION;
use turnpost_shared::{AnyGame, GameKind};

/// What a rating is a rating in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RatingKind {
    game: GameKind,
    multi: bool,
}

/// The suffix of the multi-player rating kinds.
const MULTI: &str = "-multi";

impl RatingKind {
    /// The rating kind of a game of `kind` with `seats` seats.
    #[must_use]
    pub fn of_game(game: GameKind, seats: usize) -> RatingKind {
        RatingKind {
            game,
            multi: seats > 2,
        }
    }

    /// Every rating kind: each game kind's two-player kind, then the multi-player kinds of the
    /// games that seat more than two.
    #[must_use]
    pub fn all() -> Vec<RatingKind> {
        let two = GameKind::ALL
            .iter()
            .map(|&game| RatingKind { game, multi: false });
        let multi = GameKind::ALL
            .iter()
            .filter(|&&game| seats_more_than_two(game))
            .map(|&game| RatingKind { game, multi: true });
        two.chain(multi).collect()
    }

    /// The game kind rated.
    #[must_use]
    pub fn game(self) -> GameKind {
        self.game
    }

    /// Its name for people: "Kefren", "Chinese Checkers, 3 or more players" (the URL and API
    /// name, `chinese-checkers-multi`, is [`Display`](fmt::Display)'s).
    #[must_use]
    pub fn title(self) -> String {
        if self.multi {
            format!("{}, 3 or more players", self.game.title())
        } else {
            self.game.title().to_owned()
        }
    }

    /// Whether this is a multi-player kind (Weng–Lin over placings).
    #[must_use]
    pub fn is_multi(self) -> bool {
        self.multi
    }
}

/// Whether games of `game` may have more than two seats (a `players` option).
fn seats_more_than_two(game: GameKind) -> bool {
    AnyGame::option_specs(game)
        .iter()
        .any(|spec| spec.key == PLAYERS_OPTION)
}

impl fmt::Display for RatingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.game.name())?;
        if self.multi {
            f.write_str(MULTI)?;
        }
        Ok(())
    }
}

/// A rating kind name that is none of [`RatingKind::all`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rating kind `{given}`: expected one of {expected}")]
pub struct UnknownRatingKind {
    /// What was given.
    pub given: String,
    /// The kinds there are, comma-separated.
    pub expected: String,
}

impl FromStr for RatingKind {
    type Err = UnknownRatingKind;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        RatingKind::all()
            .into_iter()
            .find(|kind| kind.to_string() == wanted)
            .ok_or_else(|| UnknownRatingKind {
                given: text.to_owned(),
                expected: RatingKind::all()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}
