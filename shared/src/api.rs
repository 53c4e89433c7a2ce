//! Request and response bodies of the HTTP API under `/v1` (JSON, serde only).
//!
//! Times are RFC 3339 strings in UTC (`2026-11-22T01:02:03Z`); ids are 64-bit integers.
//! Request types refuse unknown fields, so a typo in a field name is an error, not a silent default.

use serde::{Deserialize, Serialize};

use crate::{GameKind, GameResult, GameStatus, OnLeave, ResultReason, TimeoutMode};

/// `POST /v1/accounts`: sign up; a one-time code is mailed to `email`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SignUpRequest {
    /// 2–32 letters, digits, `-` or `_`; unique regardless of case.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 2,
            max_length = 32,
            pattern = r"^[A-Za-z0-9_-]+$",
            example = "anna"
        )
    )]
    pub name: String,
    /// Where codes and turn emails go.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 3,
            max_length = 254,
            pattern = r#"^[^\s<>(),;:\\"\[\]@]+@[^\s<>(),;:\\"\[\]@]+\.[^\s<>(),;:\\"\[\]@]+$"#,
            example = "anna@example.org"
        )
    )]
    pub email: String,
}

/// `POST /v1/sessions`: ask for a one-time sign-in code by email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    /// The account's email address.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 3,
            max_length = 254,
            pattern = r#"^[^\s<>(),;:\\"\[\]@]+@[^\s<>(),;:\\"\[\]@]+\.[^\s<>(),;:\\"\[\]@]+$"#,
            example = "anna@example.org"
        )
    )]
    pub email: String,
}

/// `POST /v1/sessions/verify`: trade a one-time code for a personal API token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The account's email address.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 3,
            max_length = 254,
            pattern = r#"^[^\s<>(),;:\\"\[\]@]+@[^\s<>(),;:\\"\[\]@]+\.[^\s<>(),;:\\"\[\]@]+$"#,
            example = "anna@example.org"
        )
    )]
    pub email: String,
    /// The code from the email (case and spaces or dashes do not matter).
    #[cfg_attr(feature = "openapi", schema(max_length = 64, example = "K7QX2MRD"))]
    pub code: String,
    /// A label for the token, e.g. the machine it is used on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Answer to sign-up and sign-in: a code is on its way (sign-in answers the same whether or not
/// the address has an account).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeSent {
    /// Always `"code_sent"`.
    pub status: String,
    /// How long the code stays valid.
    pub expires_in_seconds: u64,
}

/// A player account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Account {
    /// Account id.
    pub id: i64,
    /// Name as the player spelled it.
    pub name: String,
    /// Verified email address.
    pub email: String,
    /// When the account was created.
    pub created_at: String,
}

/// A personal API token, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenInfo {
    /// Token id, for `DELETE /v1/tokens/{id}`.
    pub id: i64,
    /// The label given when the token was made.
    pub label: String,
    /// When the token was made.
    pub created_at: String,
    /// When the token was last used (to the minute), if ever.
    pub last_used_at: Option<String>,
}

/// Answer to `POST /v1/sessions/verify`: the token's secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewToken {
    /// `tp_` followed by 32 random letters and digits. Send as `Authorization: Bearer …`.
    pub token: String,
    /// The token's listing entry.
    pub info: TokenInfo,
    /// The account the token belongs to.
    pub account: Account,
}

/// Answer to `GET /v1/tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenList {
    /// The account's tokens, oldest first.
    pub tokens: Vec<TokenInfo>,
}

/// Answer to `GET /v1/health`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    /// `"ok"`.
    pub status: String,
    /// `"postgres"` or `"sqlite"`.
    pub database: String,
    /// Emails waiting to be delivered (due now or waiting for a retry).
    #[serde(default)]
    pub mail_backlog: i64,
    /// Seconds since the oldest of them was queued; `null` when none waits.
    #[serde(default)]
    pub oldest_pending_mail_secs: Option<i64>,
}

/// Every error answer: `{"error": {"code": "...", "message": "..."}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// A machine-readable code and a human-readable message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// Stable snake_case code, e.g. `invalid_email`, `rate_limited`.
    pub code: String,
    /// What went wrong and what to do about it.
    pub message: String,
}

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
    /// initial days + increment days / maximum days).
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// What a message came with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MessageAction {
    /// A move.
    Move,
    /// A resignation.
    Resign,
    /// A draw offer.
    DrawOffer,
    /// Accepting a draw offer.
    DrawAccept,
    /// Declining a draw offer.
    DrawDecline,
    /// Accepting a challenge.
    Accept,
}

impl MessageAction {
    /// The stored (and JSON) name: `move`, `draw_offer`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            MessageAction::Move => "move",
            MessageAction::Resign => "resign",
            MessageAction::DrawOffer => "draw_offer",
            MessageAction::DrawAccept => "draw_accept",
            MessageAction::DrawDecline => "draw_decline",
            MessageAction::Accept => "accept",
        }
    }

    /// The action of a stored name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        [
            MessageAction::Move,
            MessageAction::Resign,
            MessageAction::DrawOffer,
            MessageAction::DrawAccept,
            MessageAction::DrawDecline,
            MessageAction::Accept,
        ]
        .into_iter()
        .find(|action| action.as_str() == name)
    }

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

/// The seat name of a challenge that posts the seat open, for anyone to take; no account may
/// be called so.
pub const OPEN_SEAT: &str = "open";

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

/// Answer to `GET /v1/challenges`: the challenges with a seat open for anyone to take,
/// newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChallengeList {
    /// The open challenges (status `invited`; each open seat has `open: true`).
    pub challenges: Vec<GameView>,
}

/// Answer to `GET /v1/games/{id}/moves`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MoveList {
    /// Every move, first first.
    pub moves: Vec<MoveView>,
    /// The messages the players sent with their actions, oldest first: shown to the game's
    /// players only (never to others), without those the caller muted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<MessageView>,
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
                crate::UNKNOWN_GAME_KIND,
            ),
            (
                r#"{"kind": "kefren", "seats": [], "timeout": "never"}"#,
                crate::UNKNOWN_TIMEOUT_MODE,
            ),
        ] {
            let error = serde_json::from_str::<CreateGameRequest>(text)
                .unwrap_err()
                .to_string();
            assert!(error.starts_with(start), "{error}");
        }
    }
}
