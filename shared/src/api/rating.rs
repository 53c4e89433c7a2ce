//! The HTTP API's rating types (issue 27): a player's ratings (`GET /v1/players/{name}`) and a
//! rating kind's leaderboard (`GET /v1/ratings/{kind}`).

use serde::{Deserialize, Serialize};

/// A player's rating in one rating kind, as shown: its deviation grown for the days without
/// games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KindRating {
    /// The rating kind: a game kind (`kefren`; two-player games) or `chinese-checkers-multi`
    /// (Chinese Checkers with three to six seats).
    pub kind: String,
    /// The rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub deviation: i32,
    /// Whether the rating is provisional (deviation above 110).
    pub provisional: bool,
    /// Rated games played in this kind.
    pub games: u32,
    /// The rating after each rated game, oldest first.
    pub history: Vec<RatingPoint>,
}

/// The rating after one rated game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingPoint {
    /// The game.
    pub game: i64,
    /// When it ended (RFC 3339).
    pub at: String,
    /// The rating before it, rounded.
    pub before: i32,
    /// The rating after it, rounded.
    pub after: i32,
}

/// `GET /v1/players/{name}`: a player and their ratings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerProfile {
    /// The account name.
    pub name: String,
    /// Whether the account is a built-in bot.
    pub bot: bool,
    /// Whether its owner marked it as an engine account: an outside program plays its moves
    /// (`turnpost bot run`). Absent from servers older than engine accounts.
    #[serde(default)]
    pub engine: bool,
    /// One entry per rating kind the player has played rated games in.
    pub ratings: Vec<KindRating>,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LeaderboardEntry {
    /// 1 for the highest rating.
    pub rank: u32,
    /// The account name.
    pub player: String,
    /// Whether the account is a built-in bot.
    pub bot: bool,
    /// Whether its owner marked it as an engine account: an outside program plays its moves
    /// (`turnpost bot run`). Absent from servers older than engine accounts.
    #[serde(default)]
    pub engine: bool,
    /// The rating, rounded.
    pub rating: i32,
    /// The rating deviation, rounded.
    pub deviation: i32,
    /// Whether the rating is provisional (deviation above 110).
    pub provisional: bool,
    /// Rated games played.
    pub games: u32,
}

/// `GET /v1/ratings/{kind}`: a page of everyone rated in a kind, highest rating first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    /// The rating kind.
    pub kind: String,
    /// This page's players, highest rating first (the first is ranked `offset + 1`).
    pub players: Vec<LeaderboardEntry>,
    /// How many players are ranked in the kind, on every page.
    pub total: u32,
    /// How many ranks come before this page.
    pub offset: u32,
    /// Pass as `offset` for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u32>,
}
