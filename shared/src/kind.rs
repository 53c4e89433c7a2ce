use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The table of games: one line per game, in the order they are listed to users. A line gives
/// the [`GameKind`] variant, the engine type (exported from the crate root, implementing
/// [`crate::Game`]), the kind's name (API, CLI, position text) and its title (for people).
///
/// `for_each_game!(generate)` calls the macro `generate` with the table, and
/// `for_each_game!(generate, context)` with one token tree (say `(a, b)`) before it, so the
/// kind ([`GameKind`] here) and the engine dispatch ([`crate::AnyGame`]) are both generated
/// from it: a new game is its folder, its module and export in `lib.rs`, and a line here.
macro_rules! for_each_game {
    ($generate:ident $(, $context:tt)?) => {
        $generate! {
            $($context)?
            Kefren(Kefren) "kefren" "Kefren",
            Kechi(Kechi) "kechi" "Kechi",
            SanQi(SanQi) "sanqi" "SanQi",
            ChineseCheckers(ChineseCheckers) "chinese-checkers" "Chinese Checkers",
        }
    };
}
pub(crate) use for_each_game;

/// Generates [`GameKind`] from the table (the engine column is not used here: the kinds do
/// not depend on the engines, the engines name their kind).
macro_rules! define_game_kind {
    ($($kind:ident($engine:ident) $name:tt $title:tt,)*) => {
        /// The games turnpost knows by name (in the API, the CLI and position text). JSON writes
        /// the name and reads it as [`FromStr`] does (any case, surrounding spaces ignored).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub enum GameKind {
            $(
                #[serde(rename = $name)]
                $kind,
            )*
        }

        impl GameKind {
            /// Every kind, in the order they are listed to users.
            pub const ALL: [GameKind; [$($name),*].len()] = [$(GameKind::$kind),*];

            /// The kind's name as used in the API, the CLI and position text.
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameKind::$kind => $name,)*
                }
            }

            /// The name for people: "Kefren", "Chinese Checkers".
            pub const fn title(self) -> &'static str {
                match self {
                    $(GameKind::$kind => $title,)*
                }
            }
        }
    };
}

for_each_game!(define_game_kind);

impl GameKind {
    /// Every kind's name, in the listed order, separated by commas: "kefren, kechi, …", for
    /// messages that say which names are known.
    pub fn name_list() -> String {
        GameKind::ALL.map(GameKind::name).join(", ")
    }

    /// For games whose move has several parts, how such a move is written, for people
    /// reading example moves (a Kechi turn is one or more stone moves joined by commas).
    pub const fn multi_part_move(self) -> Option<&'static str> {
        match self {
            GameKind::Kechi => Some(
                "A Kechi turn moves one or more of your stones: each part is one stone's move \
                 (a13-a8; a capture is written a1:a7), the parts are joined by commas, and \
                 their distances add up to the turn's total.",
            ),
            _ => None,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game kind name that turnpost does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game kind `{0}`: expected one of {known}", known = GameKind::name_list())]
pub struct UnknownGameKind(pub String);

/// How the message of [`UnknownGameKind`] begins.
pub const UNKNOWN_GAME_KIND: &str = "unknown game kind";

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl TryFrom<String> for GameKind {
    type Error = UnknownGameKind;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl FromStr for GameKind {
    type Err = UnknownGameKind;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownGameKind(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn every_kind_of_the_table_round_trips_by_name() {
        assert_eq!(GameKind::ALL.len(), 4);
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(
                format!(" {} ", kind.name().to_uppercase()).parse::<GameKind>(),
                Ok(kind)
            );
            assert_eq!(kind.to_string(), kind.name());
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), kind);
            assert_eq!(GameKind::try_from(kind.name().to_string()), Ok(kind));
            let others = GameKind::ALL.into_iter().filter(|other| *other != kind);
            for other in others {
                assert_ne!(other.name(), kind.name());
                assert_ne!(other.title(), kind.title());
            }
        }
        assert_eq!(GameKind::ChineseCheckers.name(), "chinese-checkers");
        assert_eq!(GameKind::ChineseCheckers.title(), "Chinese Checkers");
    }

    #[test]
    fn an_unknown_name_lists_the_names_of_the_table() {
        let error = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown game kind `chess`: expected one of kefren, kechi, sanqi, chinese-checkers"
        );
        assert!(error.to_string().starts_with(UNKNOWN_GAME_KIND));
        assert!(serde_json::from_str::<GameKind>("\"chess\"").is_err());
    }
}
