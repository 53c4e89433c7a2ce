//! A game as the API shows it: alone, in a listing, and its moves.

use serde::{Deserialize, Serialize};

use super::MessageView;
use crate::{
    clock::TimeoutMode, game_result::GameResult, game_status::GameStatus, on_leave::OnLeave,
    result_reason::ResultReason, GameKind,
};

/// One seat of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatView {
    /// 1-based, turn order.
    pub seat: u8,
    /// How the game calls the seat, e.g. `White (seat 1)`.
    pub seat_name: String,
    /// The player's account name.
    pub player: String,
    /// Whether the player accepted the challenge.
    pub accepted: bool,
    /// Seconds left in the seat's Fischer bank (not counting a running turn); none for
    /// days-per-move clocks.
    pub bank_seconds: Option<u64>,
    /// The server bot that plays the seat on since `player` left (`on-leave=bot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_by: Option<String>,
    /// Whether the seat is open and nobody took it yet (a challenge posted with an open seat;
    /// `player` is then `open`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// The player's rating in the game's rating kind (rounded; `?`-provisional when its
    /// deviation is above 110), where the server shows it (game views and listings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<SeatRating>,
    /// Whether the player's account is an engine account: an outside program plays its moves
    /// (`turnpost bot run`), shown so that whoever it challenges or meets knows. Absent (false)
    /// from servers older than engine accounts, and in game listings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub engine: bool,
}

/// A player's rating beside their name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SeatRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Whether it is provisional (deviation above 110).
    pub provisional: bool,
}

impl std::fmt::Display for SeatRating {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.rating)?;
        if self.provisional {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// How the caller's rating would change with each result of a rated two-player challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RatingChanges {
    /// After a win.
    pub win: i32,
    /// After a draw.
    pub draw: i32,
    /// After a loss.
    pub loss: i32,
}

/// One played move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveView {
    /// Moves played before it (0 for the first move, which people call move 1).
    pub ply: u32,
    /// Seat that moved.
    pub seat: u8,
    /// Canonical move text.
    #[serde(rename = "move")]
    pub notation: String,
    /// When it was played.
    pub played_at: String,
    /// True for a `pass` the server played because it was the seat's only legal move.
    pub automatic: bool,
    /// True for an answer the server played from the player's conditional moves (a prepared
    /// answer, played the moment the opponent's move came).
    #[serde(default)]
    pub prepared: bool,
}

/// A game as `GET /v1/games/{id}` shows it (and the answer to every change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameView {
    /// Game id.
    pub id: i64,
    /// Kind.
    pub kind: GameKind,
    /// Every option with its value, defaults included. The dice seed the server draws (Kechi's
    /// `seed`) is left out until the game is finished: see `seed_sha256`.
    pub options: std::collections::BTreeMap<String, String>,
    /// For a game whose dice come from a seed (Kechi): the commitment to it, the SHA-256 (hex)
    /// of the seed's decimal digits, from the start of the game on (a challenge has no seed yet,
    /// and no roll: its position shows `?` as the total). Once the game is finished
    /// the seed itself is in `options`, so anyone can check it and replay every roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_sha256: Option<String>,
    /// The clock: `3d` (days per move) or `7d+1d/14d` (Fischer: initial+increment/maximum).
    pub clock: Option<String>,
    /// `auto` (running out of time loses at once) or `claim` (the others may claim the win).
    pub timeout: TimeoutMode,
    /// `remove` or `bot`: what becomes of a seat whose player leaves while three or more
    /// seats play.
    #[serde(default)]
    pub on_leave: OnLeave,
    /// When the seat to move runs out of time (active games).
    pub deadline: Option<String>,
    /// Whether the caller may claim the win on time now (`POST /v1/games/{id}/claim`).
    pub claimable: bool,
    /// Seats in turn order.
    pub seats: Vec<SeatView>,
    /// `invited`, `active`, `finished` or `cancelled`.
    pub status: GameStatus,
    /// Once over: `won 2`, `won 1 3` or `draw`.
    pub result: Option<GameResult>,
    /// Why it ended: `rules`, `resignation`, `agreement`, `timeout`, `declined`, `expired`.
    pub result_reason: Option<ResultReason>,
    /// Moves played so far: send it back as `ply` with the next move (which is move `ply + 1`).
    pub ply: u32,
    /// Seat to move while active.
    pub to_move: Option<u8>,
    /// The caller's seat, if they have one.
    pub your_seat: Option<u8>,
    /// Whether the caller is to move.
    pub your_turn: bool,
    /// Seat whose draw offer stands.
    pub draw_offered_by: Option<u8>,
    /// Position text.
    pub position: String,
    /// The board as text.
    pub board: String,
    /// The last moves, oldest first (all of them at `GET /v1/games/{id}/moves`).
    pub last_moves: Vec<MoveView>,
    /// Legal moves, sorted, for the caller when it is their turn.
    pub legal_moves: Option<Vec<String>>,
    /// When the challenge was made.
    pub created_at: String,
    /// When an unanswered challenge lapses (invited games only).
    pub expires_at: Option<String>,
    /// When the last seat accepted.
    pub started_at: Option<String>,
    /// When it ended or was cancelled.
    pub finished_at: Option<String>,
    /// Last change.
    pub last_activity_at: String,
    /// Seats that accepted the standing draw offer (games of more than two seats: the draw
    /// is agreed once every seat still playing has accepted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw_accepted_by: Vec<u8>,
    /// Seats whose players left the game (resigned, ran out of time, lost by a claim), first
    /// to leave first; in games of three or more seats play goes on without them (or, with
    /// `on_leave` `bot`, a bot plays the seat on: see the seat's `played_by`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub departed: Vec<u8>,
    /// Once over: every seat's place (index: seat − 1), the winner first; seats whose players
    /// left are ranked by when they left, the last to leave highest (also when a bot played
    /// the seat on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placings: Option<Vec<u8>>,
    /// Whether the game counts for ratings.
    #[serde(default)]
    pub rated: bool,
    /// For a rated two-player challenge not yet started: how the caller's rating would change
    /// after a win, a draw or a loss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_changes: Option<RatingChanges>,
}

/// A game in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameSummary {
    /// Game id.
    pub id: i64,
    /// Kind.
    pub kind: GameKind,
    /// `invited`, `active`, `finished` or `cancelled`.
    pub status: GameStatus,
    /// Seats in turn order.
    pub seats: Vec<SeatView>,
    /// Moves played.
    pub ply: u32,
    /// Seat to move while active.
    pub to_move: Option<u8>,
    /// Whether the caller is to move.
    pub your_turn: bool,
    /// When the seat to move runs out of time (active games).
    pub deadline: Option<String>,
    /// Once over: `won 2`, `draw`.
    pub result: Option<GameResult>,
    /// Last change.
    pub last_activity_at: String,
    /// Seats whose players left the game (resigned, ran out of time, lost by a claim), first
    /// to leave first; in games of three or more seats play goes on without them (or, with
    /// `on_leave` `bot`, a bot plays the seat on: see the seat's `played_by`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub departed: Vec<u8>,
    /// Once over: every seat's place (index: seat − 1), the winner first; seats whose players
    /// left are ranked by when they left, the last to leave highest (also when a bot played
    /// the seat on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placings: Option<Vec<u8>>,
    /// The player who made the challenge (the game's creator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenger: Option<String>,
}

/// Answer to `GET /v1/games`: newest activity first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameList {
    /// This page.
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// Answer to `GET /v1/games/{id}/moves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveList {
    /// The moves asked for (by default the last 2000: every move of a game within its move
    /// limit), first first.
    pub moves: Vec<MoveView>,
    /// The messages the players sent with their actions, oldest first: shown to the game's
    /// players only (never to others), without those the caller muted; those sent with the
    /// moves listed (and, on the last page, those sent since).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<MessageView>,
    /// When earlier moves were left out: the `before` that lists them (the first ply listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<u32>,
    /// When later moves were left out: the `after` that lists them (the last ply listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub later: Option<u32>,
}
