//! Challenging players to a game (`POST /v1/games`) and the challenges open to anyone
//! (`GET /v1/challenges`).

use serde::{Deserialize, Serialize};

use super::GameView;
use crate::{clock::TimeoutMode, on_leave::OnLeave, GameKind};

/// A challenge option's value: JSON strings, numbers and booleans are all read as their text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum OptionValue {
    /// `"die"`.
    Text(String),
    /// `3`.
    Whole(u64),
    /// `-1` (no option takes one; the game's error names the key).
    Signed(i64),
    /// `1.5` (likewise refused by the game, with the key named).
    Number(f64),
    /// `true`.
    Flag(bool),
}

impl OptionValue {
    /// The value as option text: `die`, `3`, `true`.
    pub fn to_text(&self) -> String {
        match self {
            OptionValue::Text(text) => text.clone(),
            OptionValue::Whole(n) => n.to_string(),
            OptionValue::Signed(n) => n.to_string(),
            OptionValue::Number(n) => n.to_string(),
            OptionValue::Flag(b) => b.to_string(),
        }
    }
}

/// `POST /v1/games`: challenge players to a game. The caller must hold one of the seats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    /// `kefren`, `kechi`, `sanqi` or `chinese-checkers`.
    #[cfg_attr(feature = "openapi", schema(example = "kefren"))]
    pub kind: GameKind,
    /// The game's options (`{"players": 3}`); none means the standard game.
    #[serde(default)]
    pub options: std::collections::BTreeMap<String, OptionValue>,
    /// Account names in turn order, one per seat (every game has at least two). `open`
    /// ([`OPEN_SEAT`]) posts a seat open: anyone signed in may take it
    /// (`POST /v1/challenges/{id}/join`), and the challenge is listed at `GET /v1/challenges`.
    #[cfg_attr(feature = "openapi", schema(min_items = 2, example = json!(["anna", "open"])))]
    pub seats: Vec<String>,
    /// The clock: `3d` (days per move, 1–30; the default) or `7d+1d/14d` (a Fischer bank:
    /// initial days 1–30 + increment days 0–30 / maximum days, from the initial days to 60).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(?:[1-9]|[12][0-9]|30)d(?:\+(?:[0-9]|[12][0-9]|30)d/(?:[1-9]|[1-5][0-9]|60)d)?$"
        )
    )]
    pub clock: Option<String>,
    /// What happens when a seat runs out of time: `auto` (the server ends the game as a loss
    /// on time; the default) or `claim` (the other players may claim the win).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<TimeoutMode>,
    /// What becomes of a seat whose player leaves (resigns, runs out of time, loses by a
    /// claim) while three or more seats play: `remove` (its pegs leave the board; the default)
    /// or `bot` (a server bot plays the seat on with its pegs). Games of three or more seats
    /// only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_leave: Option<OnLeave>,
    /// Whether the game counts for ratings. The default: rated between people, unrated with a
    /// bot or with an option its kind marks unrated (a non-standard board size); `true` with
    /// such an option is refused (422).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

/// The seat name of a challenge that posts the seat open, for anyone to take; no account may
/// be called so.
pub const OPEN_SEAT: &str = "open";

/// Answer to `GET /v1/challenges`: the challenges with a seat open for anyone to take,
/// newest first, a page (50) at a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeList {
    /// The open challenges (status `invited`; each open seat has `open: true`).
    pub challenges: Vec<GameView>,
    /// When older challenges wait too: ask again with `?before=` this (the last one's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_before: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_timeout_modes_keep_their_json() {
        let request: CreateGameRequest = serde_json::from_str(
            r#"{"kind": " Chinese-Checkers ", "seats": ["a", "b"], "timeout": "CLAIM"}"#,
        )
        .unwrap();
        assert_eq!(request.kind, GameKind::ChineseCheckers);
        assert_eq!(request.timeout, Some(TimeoutMode::Claim));
        let written = serde_json::to_value(&request).unwrap();
        assert_eq!(written["kind"], "chinese-checkers");
        assert_eq!(written["timeout"], "claim");
        for (text, start) in [
            (
                r#"{"kind": "chess", "seats": []}"#,
                crate::rules::UNKNOWN_GAME_KIND,
            ),
            (
                r#"{"kind": "kefren", "seats": [], "timeout": "never"}"#,
                crate::play::UNKNOWN_TIMEOUT_MODE,
            ),
        ] {
            let error = serde_json::from_str::<CreateGameRequest>(text)
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(start), "{error}");
        }
    }
}
