//! What a player sends to act in a game: a move, conditional moves, a draw offer or answer.

use serde::{Deserialize, Serialize};

/// `POST /v1/games/{id}/moves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayMoveRequest {
    /// The move in the game's notation (any accepted spelling).
    #[serde(rename = "move")]
    #[cfg_attr(feature = "openapi", schema(example = "F2-F3"))]
    pub notation: String,
    /// How many moves the client saw played; a different number answers 409 with the game.
    pub ply: u32,
    /// A word for the other players, sent with the move: at most 500 characters once control
    /// characters are dropped (more answers 422 and plays nothing). Only the game's players
    /// ever see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "your turn, good luck"))]
    pub message: Option<String>,
}

/// `GET`/`PUT /v1/games/{id}/conditional`: the caller's conditional moves in a two-player game,
/// private to the caller. The server plays an answer the moment the opponent plays the move a
/// line expects; any other move drops them all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ConditionalMoves {
    /// The ply the lines start at (the moves played so far, the opponent to move): send the
    /// game's `ply` with `PUT`; a different number answers 409 with the game.
    pub ply: u32,
    /// Each line a list of moves from there, the opponent's first, then alternately yours and
    /// theirs (forced passes are played by the server and not written); lines sharing a start
    /// form one tree. At most 12 moves a line and 200 different moves in all; `PUT` with none
    /// clears them.
    pub lines: Vec<Vec<String>>,
}

/// What `POST /v1/games/{id}/draw` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    /// Offer a draw (it lapses when you move again).
    Offer,
    /// Accept the opponent's offer: the game ends drawn.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// `POST /v1/games/{id}/draw`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// `offer`, `accept` or `decline`.
    pub action: DrawAction,
    /// A word for the other players, sent with the offer or answer (as with a move: at most
    /// 500 characters; seen by the game's players only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}
