use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The games turnpost knows by name (in the API, the CLI and position text). JSON writes the
/// name and reads it as [`FromStr`] does (any case, surrounding spaces ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GameKind {
    #[serde(rename = "kefren")]
    Kefren,
    #[serde(rename = "kechi")]
    Kechi,
    #[serde(rename = "sanqi")]
    SanQi,
    #[serde(rename = "chinese-checkers")]
    ChineseCheckers,
}

impl GameKind {
    /// Every kind, in the order they are listed to users.
    pub const ALL: [GameKind; 4] = [
        GameKind::Kefren,
        GameKind::Kechi,
        GameKind::SanQi,
        GameKind::ChineseCheckers,
    ];

    /// The kind's name as used in the API, the CLI and position text.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Kefren => "kefren",
            GameKind::Kechi => "kechi",
            GameKind::SanQi => "sanqi",
            GameKind::ChineseCheckers => "chinese-checkers",
        }
    }

    /// The name for people: "Kefren", "Chinese Checkers".
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Kefren => "Kefren",
            GameKind::Kechi => "Kechi",
            GameKind::SanQi => "SanQi",
            GameKind::ChineseCheckers => "Chinese Checkers",
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
#[error("unknown game kind `{0}`: expected one of kefren, kechi, sanqi, chinese-checkers")]
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
