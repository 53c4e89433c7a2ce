//! The HTTP API's types for notification preferences (`/v1/me/notifications`) and vacations
//! (`/v1/me/vacation`).

use serde::{Deserialize, Serialize};

/// How "your turn" mail is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TurnMail {
    /// A turn card at once (the default).
    #[default]
    Immediate,
    /// One mail a day at the chosen local hour listing every game waiting for you.
    Digest,
    /// No turn mail. Reminders are their own switch
    /// ([`NotificationCategories::reminders`]).
    Off,
}

impl TurnMail {
    /// `immediate`, `digest` or `off`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Immediate => "immediate",
            Self::Digest => "digest",
            Self::Off => "off",
        }
    }

    /// Reads the stored name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "immediate" => Some(Self::Immediate),
            "digest" => Some(Self::Digest),
            "off" => Some(Self::Off),
            _ => None,
        }
    }
}

/// A name that is no [`TurnMail`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown turn mail `{0}`: expected immediate, digest or off")]
pub struct UnknownTurnMail(pub String);

impl std::str::FromStr for TurnMail {
    type Err = UnknownTurnMail;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::from_name(name).ok_or_else(|| UnknownTurnMail(name.to_owned()))
    }
}

/// Which kinds of mail besides turn mail are wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationCategories {
    /// Someone challenges you.
    pub challenges: bool,
    /// Your challenge was accepted or declined, or a game started.
    pub challenge_replies: bool,
    /// A game of yours ended.
    pub game_over: bool,
    /// An opponent offers a draw.
    pub draw_offers: bool,
    /// Your deadline is 24 h or 2 h away, or an opponent ran out of time.
    pub reminders: bool,
    /// A short confirmation with the new board after each command you sent by mail.
    #[serde(default = "switched_on")]
    pub mail_confirmations: bool,
}

fn switched_on() -> bool {
    true
}

impl Default for NotificationCategories {
    fn default() -> Self {
        Self {
            challenges: true,
            challenge_replies: true,
            game_over: true,
            draw_offers: true,
            reminders: true,
            mail_confirmations: true,
        }
    }
}

/// `GET /v1/me/notifications`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationSettings {
    /// IANA time zone for deadlines and the digest hour, e.g. `Europe/Berlin`.
    pub time_zone: String,
    /// `immediate`, `digest` or `off`.
    pub turn_mail: TurnMail,
    /// Local hour (0–23) at which the digest is sent.
    pub digest_hour: u8,
    /// The other kinds of mail.
    pub categories: NotificationCategories,
    /// Games you muted: no turn cards, reminders or draw offers for them (the game-over mail
    /// still comes).
    pub muted_games: Vec<i64>,
}

/// Category switches for `PATCH /v1/me/notifications`; absent ones stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CategoriesPatch {
    /// See [`NotificationCategories::challenges`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenges: Option<bool>,
    /// See [`NotificationCategories::challenge_replies`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_replies: Option<bool>,
    /// See [`NotificationCategories::game_over`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over: Option<bool>,
    /// See [`NotificationCategories::draw_offers`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offers: Option<bool>,
    /// See [`NotificationCategories::reminders`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminders: Option<bool>,
    /// See [`NotificationCategories::mail_confirmations`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail_confirmations: Option<bool>,
}

/// `PATCH /v1/me/notifications`: every field optional; answers the new settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NotificationSettingsPatch {
    /// IANA time zone name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// `immediate`, `digest` or `off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_mail: Option<TurnMail>,
    /// Local hour 0–23.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(maximum = 23))]
    pub digest_hour: Option<u8>,
    /// Category switches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<CategoriesPatch>,
    /// Games to mute (yours).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mute: Vec<i64>,
    /// Games to unmute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmute: Vec<i64>,
}

/// `POST /v1/me/vacation`: pause all your clocks for this many days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    /// Whole days, at least 1, at most what is left this year.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 15))]
    pub days: u32,
}

/// `GET /v1/me/vacation` and the answer to `POST`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Vacation {
    /// The calendar year (UTC) the allowance counts in.
    pub year: i32,
    /// Days taken this year.
    pub days_used: u32,
    /// Days left this year.
    pub days_left: u32,
    /// When the current vacation ends, if one is running.
    pub until: Option<String>,
}
