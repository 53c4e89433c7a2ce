//! The words players send with their actions, and the mutes that hide them.

use serde::{Deserialize, Serialize};

/// The optional body of `POST /v1/games/{id}/resign` and `POST /v1/games/{id}/accept`: a word
/// for the other players with the action (as with a move: at most 500 characters; seen by the
/// game's players only). No body, `{}` and `{"message": null}` send none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ActionMessage {
    /// The message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(example = "well played"))]
    pub message: Option<String>,
}

crate::named_value! {
    noun: "message action";
    /// What a message came with.
    pub enum MessageAction {
        /// A move.
        Move = "move",
        /// A resignation.
        Resign = "resign",
        /// A draw offer.
        DrawOffer = "draw_offer",
        /// Accepting a draw offer.
        DrawAccept = "draw_accept",
        /// Declining a draw offer.
        DrawDecline = "draw_decline",
        /// Accepting a challenge.
        Accept = "accept",
    }
}

impl MessageAction {
    /// For people: "with their move", "with their resignation".
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            MessageAction::Move => "move",
            MessageAction::Resign => "resignation",
            MessageAction::DrawOffer => "draw offer",
            MessageAction::DrawAccept => "draw acceptance",
            MessageAction::DrawDecline => "draw decline",
            MessageAction::Accept => "acceptance",
        }
    }
}

/// A message a player sent with an action, as the game's players see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageView {
    /// The game's ply when it was sent: for a move, the move's ply (move `ply + 1`).
    pub ply: u32,
    /// The sender's seat.
    pub seat: u8,
    /// The sender's account name.
    pub player: String,
    /// What it came with.
    pub action: MessageAction,
    /// The text (plain text: links are not made links).
    pub text: String,
    /// When it was sent.
    pub sent_at: String,
}

/// Answer to the mute routes: what the caller has muted now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageMutes {
    /// Games whose messages the caller does not see, ascending.
    pub games: Vec<i64>,
    /// Players whose messages the caller does not see (in any game), by name.
    pub players: Vec<String>,
}
