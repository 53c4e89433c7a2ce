//! The games turnpost knows, by name and title, and the table of games they come from.

#[cfg(doc)]
use std::str::FromStr;

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
        crate::named_value! {
            noun: "game kind";
            /// The games turnpost knows by name (in the API, the CLI and position text). JSON
            /// writes the name and reads it as [`FromStr`] does (any case, surrounding spaces
            /// ignored).
            #[derive(PartialOrd, Ord)]
            pub enum GameKind {
                $($kind = $name,)*
            }
        }

        impl GameKind {
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
    /// The kind's name as used in the API, the CLI and position text (its
    /// [`as_str`](Self::as_str)).
    pub const fn name(self) -> &'static str {
        self.as_str()
    }

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

/// How the message of a game kind that cannot be read begins.
pub const UNKNOWN_GAME_KIND: &str = "unknown game kind";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn every_kind_of_the_table_has_its_own_name_and_title() {
        assert_eq!(GameKind::ALL.len(), 4);
        for kind in GameKind::ALL {
            assert_eq!(kind.name(), kind.as_str());
            let others = GameKind::ALL.into_iter().filter(|other| *other != kind);
            for other in others {
                assert_ne!(other.title(), kind.title());
            }
        }
        assert_eq!(GameKind::ChineseCheckers.name(), "chinese-checkers");
        assert_eq!(GameKind::ChineseCheckers.title(), "Chinese Checkers");
        assert_eq!(
            GameKind::name_list(),
            "kefren, kechi, sanqi, chinese-checkers"
        );
    }

    #[test]
    fn an_unknown_name_lists_the_names_of_the_table() {
        let error = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown game kind `chess`: expected one of `kefren`, `kechi`, `sanqi`, \
             `chinese-checkers`"
        );
        assert!(error.to_string().starts_with(UNKNOWN_GAME_KIND));
        assert!(serde_json::from_str::<GameKind>("\"chess\"").is_err());
    }
}
