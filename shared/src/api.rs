//! Request and response bodies of the HTTP API under `/v1` (JSON, serde only), one file an area.
//!
//! Times are RFC 3339 strings in UTC (`2026-11-22T01:02:03Z`); ids are 64-bit integers. Request
//! types refuse unknown fields, so a typo in a field name is an error, not a silent default.

mod account;
mod challenge;
mod error;
mod game;
mod health;
mod message;
mod notification;
mod play;
mod push;
mod rating;
mod stream;
mod token;
mod tournament;
mod webhook;

pub use account::{Account, CodeSent, SignInRequest, SignUpRequest, VerifyRequest};
pub use challenge::{ChallengeList, CreateGameRequest, OptionValue, OPEN_SEAT};
pub use error::{ErrorBody, ErrorDetail};
pub use game::{
    GameList, GameSummary, GameView, MoveList, MoveView, RatingChanges, SeatRating, SeatView,
};
pub use health::Health;
pub use message::{ActionMessage, MessageAction, MessageMutes, MessageView};
pub use notification::{
    CategoriesPatch, ChannelCategories, ChannelCategoriesPatch, NotificationCategories,
    NotificationSettings, NotificationSettingsPatch, TurnMail, Vacation, VacationRequest,
};
pub use play::{ConditionalMoves, DrawAction, DrawRequest, PlayMoveRequest};
pub use push::{
    CreatePushSubscriptionRequest, PushKey, PushKeys, PushNotification, PushSubscriptionList,
    PushSubscriptionView,
};
pub use rating::{KindRating, Leaderboard, LeaderboardEntry, PlayerProfile, RatingPoint};
pub use stream::{StreamEvent, StreamEventType};
pub use token::{NewToken, TokenInfo, TokenList};
pub use tournament::{
    CreateTournamentRequest, EntrantView, RoundView, StandingView, TournamentFormat,
    TournamentGameView, TournamentList, TournamentStatus, TournamentSummary, TournamentView,
};
pub use webhook::{
    CreateWebhookRequest, WebhookAttempt, WebhookCreated, WebhookDetail, WebhookFormat,
    WebhookList, WebhookPayload, WebhookSecret, WebhookTestQueued, WebhookView,
};
