//! The rules of each game written for players (Markdown), shared by `turnpost rules` and the web.

use crate::kind::for_each_game;
use crate::{Game, GameKind};

/// The `match` behind [`rules_for_players`], one arm per line of the table of games.
macro_rules! rules_of_kind {
    (($value:expr) $($kind:ident($engine:ident) $name:tt $title:tt,)*) => {
        match $value {
            $(GameKind::$kind => <crate::$engine as Game>::RULES_FOR_PLAYERS,)*
        }
    };
}

/// The rules of `kind` written for players (Markdown with small text diagrams): the goal, the
/// board and pieces, a move, every option and the notation with examples. The same text serves
/// `turnpost rules KIND` and the web rules page; its example moves are played by a test.
pub const fn rules_for_players(kind: GameKind) -> &'static str {
    for_each_game!(rules_of_kind, (kind))
}
