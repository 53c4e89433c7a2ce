//! The HTTP API's types for tournaments (`/v1/tournaments`): round-robin, Swiss and Chinese
//! Checkers table tournaments that the server pairs and whose games it creates.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{
    api::OptionValue, clock::TimeoutMode, game_result::GameResult, game_status::GameStatus,
    GameKind,
};

crate::named_value! {
    noun: "tournament format";
    /// How a tournament pairs its rounds.
    pub enum TournamentFormat {
        /// Everyone plays everyone (twice with `double`), Berger tables; two-seat games.
        RoundRobin = "round_robin",
        /// Swiss over a fixed number of rounds; two-seat games.
        Swiss = "swiss",
        /// Chinese Checkers with 3–6 seats: the players split into tables each round.
        Tables = "tables",
    }
}

crate::named_value! {
    noun: "tournament status";
    /// Where a tournament is in its life.
    pub enum TournamentStatus {
        /// The entry window is open.
        Entry = "entry",
        /// Rounds are being played.
        Running = "running",
        /// The last round ended; the standings are final.
        Finished = "finished",
        /// Too few players entered before the window closed.
        Cancelled = "cancelled",
    }
}

/// `POST /v1/tournaments`: create a tournament; you are its organiser (you do not enter it
/// unless you join).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateTournamentRequest {
    /// 1–80 characters, at least one of them seen: white space and hidden characters
    /// (control, bidirectional and zero-width ones) alone make no name; they are dropped from
    /// it, each run of white space made one space.
    #[cfg_attr(
        feature = "openapi",
        schema(
            example = "Winter Kefren",
            max_length = 80,
            pattern = r"[^\s\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
        )
    )]
    pub name: String,
    /// The kind of game.
    pub kind: GameKind,
    /// The games' options, as in a challenge (a table tournament sets `players` per table).
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// The games' clock, as in a challenge (`3d`, `7d+1d/14d`; a Fischer bank's maximum is at
    /// least its initial days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(?:[1-9]|[12][0-9]|30)d(?:\+(?:[0-9]|[12][0-9]|30)d/(?:[1-9]|[1-5][0-9]|60)d)?$"
        )
    )]
    pub clock: Option<String>,
    /// `auto` (default) or `claim`, as in a challenge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<TimeoutMode>,
    /// `round_robin`, `swiss` or `tables`.
    pub format: TournamentFormat,
    /// Round-robin: everyone meets twice, colours reversed.
    #[serde(default)]
    pub double: bool,
    /// Round-robin: every round's games start together when the tournament starts.
    #[serde(default)]
    pub all_at_once: bool,
    /// Tables: the seats of a table, 3–6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 3, maximum = 6))]
    pub table_seats: Option<u8>,
    /// Swiss and tables: how many rounds (1–50; round-robin works them out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 50))]
    pub rounds: Option<u32>,
    /// When the entry window closes (RFC 3339, in the future, at most 90 days ahead); round 1
    /// starts then.
    #[cfg_attr(
        feature = "openapi",
        schema(format = DateTime, example = "2026-12-01T18:00:00Z")
    )]
    pub entry_closes_at: String,
    /// The most players who may enter (2–200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 200))]
    pub max_players: Option<u32>,
    /// Start the moment the entry that fills `max_players` is taken, rather than when the
    /// window closes; needs `max_players`. Left out: on for an invitation event (`invite`
    /// given) with a maximum, off otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_when_full: Option<bool>,
    /// Accounts to mail the announcement to (each may reply `join`).
    #[serde(default)]
    pub invite: Vec<String>,
}

/// One tournament in a listing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentSummary {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The organiser's account name.
    pub organiser: String,
    /// The kind of game.
    pub kind: GameKind,
    /// How rounds are paired.
    pub format: TournamentFormat,
    /// Where it is.
    pub status: TournamentStatus,
    /// How many have entered.
    pub entrants: u32,
    /// The most who may enter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// How many rounds (round-robin: known once it starts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// The latest round paired (0 before the start).
    pub current_round: u32,
    /// When the entry window closes (RFC 3339).
    pub entry_closes_at: String,
}

/// `GET /v1/tournaments`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentList {
    /// Newest first.
    pub tournaments: Vec<TournamentSummary>,
}

/// An entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct EntrantView {
    /// Account name.
    pub player: String,
    /// Entry order from 1 (the seeding).
    pub entry_number: u32,
    /// Not paired from this round on: withdrew or lost on time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_before_round: Option<u32>,
    /// `withdrew` or `timeout`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_reason: Option<String>,
}

/// A game of a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentGameView {
    /// The game's id (`GET /v1/games/{id}`).
    pub id: i64,
    /// Players in seat order (seat 1 moves first).
    pub players: Vec<String>,
    /// `active` or `finished`.
    pub status: GameStatus,
    /// Once over: the engine's result (`won 2`, `draw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Once over: each seat's place (index seat − 1; equal numbers share a place).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placings: Option<Vec<u32>>,
}

/// A round: its games and its bye. A tournament of more than a hundred games lists the games
/// of one round an answer (`listed`); the others give their counts only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoundView {
    /// 1-based.
    pub round: u32,
    /// The games made, when the round is `listed` (else empty).
    pub games: Vec<TournamentGameView>,
    /// The player sitting out (scored as a win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<String>,
    /// Whether `games` lists this round's games (`GET /v1/tournaments/{id}?round=N` lists
    /// round N).
    #[serde(default)]
    pub listed: bool,
    /// How many games the round has, counting those paired and still being made.
    #[serde(default)]
    pub game_count: u32,
    /// How many of them have ended.
    #[serde(default)]
    pub ended_count: u32,
}

/// A line of the standings. Points count a win 1, a draw ½ (at a table: 1 for each player
/// placed below you, ½ for each sharing your place); a bye is a win.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StandingView {
    /// 1-based; equal on points and tie-breaks share a rank.
    pub rank: u32,
    /// Account name.
    pub player: String,
    /// Points.
    pub points: f64,
    /// Sum of the points of every opponent met.
    pub buchholz: f64,
    /// Sum over opponents met of (your result against them × their points).
    pub sonneborn_berger: f64,
    /// Games ended.
    pub games_played: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
}

/// `GET /v1/tournaments/{id}`: settings, entrants, rounds and standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TournamentView {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// The organiser's account name.
    pub organiser: String,
    /// The kind of game.
    pub kind: GameKind,
    /// The games' options (`key=value` pairs; may be empty).
    pub options: String,
    /// The games' clock.
    pub clock: String,
    /// `auto` or `claim`.
    pub timeout: TimeoutMode,
    /// How rounds are paired.
    pub format: TournamentFormat,
    /// Round-robin: twice.
    pub double: bool,
    /// Round-robin: every round at once.
    pub all_at_once: bool,
    /// Tables: seats of a table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_seats: Option<u8>,
    /// How many rounds (round-robin: known once it starts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// When the entry window closes (RFC 3339).
    pub entry_closes_at: String,
    /// The most who may enter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// Whether it starts the moment its last place is taken.
    #[serde(default)]
    pub start_when_full: bool,
    /// Where it is.
    pub status: TournamentStatus,
    /// The latest round paired (0 before the start).
    pub current_round: u32,
    /// Creation time (RFC 3339).
    pub created_at: String,
    /// When round 1 started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// When it finished or was cancelled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// Whether the caller has entered (and not withdrawn).
    pub you_entered: bool,
    /// Entrants in entry order.
    pub entrants: Vec<EntrantView>,
    /// The rounds paired so far, each with its games when `listed`.
    pub round_games: Vec<RoundView>,
    /// Best first, after the games that have ended.
    pub standings: Vec<StandingView>,
}
