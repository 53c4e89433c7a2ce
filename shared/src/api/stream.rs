//! The events of the live streams, `GET /v1/stream` (the signed-in account's games) and
//! `GET /v1/games/{id}/stream` (one game, for its players and for spectators): one JSON object
//! an event, as Server-Sent Events (`id:`, `event:`, `data:`) or as NDJSON (one line each).

use serde::{Deserialize, Serialize};

use crate::play::{GameStatus, ResultReason};
use crate::GameKind;

crate::named_value! {
    noun: "stream event";
    /// What happened (the SSE `event:` field).
    pub enum StreamEventType {
        /// A challenge was made (to you, on the account stream).
        Challenge = "challenge",
        /// A player accepted a challenge and others still have to.
        Accepted = "accepted",
        /// The last accept started the game.
        Started = "started",
        /// A player declined a challenge.
        Declined = "declined",
        /// A move was played: the turn passed to `to_move`.
        Move = "move",
        /// A draw was offered.
        DrawOffer = "draw_offer",
        /// A draw offer was declined; the game goes on.
        DrawDeclined = "draw_declined",
        /// A seat left a game that goes on (`seat`), or its player left and a bot plays on.
        Left = "left",
        /// The game ended (`result`, `reason`).
        GameOver = "game_over",
        /// An open challenge lapsed with a seat nobody took.
        Lapsed = "lapsed",
    }
}

/// One event of a stream. What it carries is what any spectator may see (no position: read
/// the game for it; no seed), but for `for_you`, only on events told to the reader, and
/// `messages`, only to the game's players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StreamEvent {
    /// The event's id in the log: send it back as `Last-Event-ID` (or `?after=`) to resume
    /// after it.
    pub id: i64,
    /// What happened.
    #[serde(rename = "type")]
    pub event: StreamEventType,
    /// The game.
    pub game: i64,
    /// Its kind.
    pub kind: GameKind,
    /// Moves played at the event.
    pub ply: i32,
    /// The game's status at the event.
    pub status: GameStatus,
    /// The seat to move after the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<i32>,
    /// The name of the player to move after the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move_name: Option<String>,
    /// Who acted: who moved, challenged, accepted, declined, offered a draw; the bot that plays
    /// a seat on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The seat that left (`left`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<i32>,
    /// The move that was played (`move`, and a `game_over` a move caused), in the game's
    /// notation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<String>,
    /// True when `last_move` is an answer the server played from its player's conditional
    /// moves (a prepared answer, played in the same moment as the opponent's move before it);
    /// `by` then names that player.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prepared: bool,
    /// The result (`game_over`), as `GET /v1/games/{id}` shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why the game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ResultReason>,
    /// When it happened (RFC 3339, UTC).
    pub at: String,
    /// What the event is to the reader, when they are told of it: `turn` (your move),
    /// `challenges`, `challenge_replies`, `draw_offers`, `game_over` (the names of the
    /// notification categories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_you: Option<String>,
    /// The message a player sent with the action (a move, a draw offer or its answer, a
    /// resignation, an accept): only on the streams of the game's players who may read it
    /// (never a spectator's; not when the reader muted the game or the sender).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<crate::api::MessageView>,
}
