//! Notification preferences (`/v1/me/notifications`) and vacations (`/v1/me/vacation`).

use serde::{Deserialize, Serialize};

crate::named_value! {
    noun: "turn mail";
    /// How "your turn" mail is sent.
    #[derive(Default)]
    pub enum TurnMail {
        /// A turn card at once (the default).
        #[default]
        Immediate = "immediate",
        /// One mail a day at the chosen local hour listing every game waiting for you.
        Digest = "digest",
        /// No turn mail. Reminders are their own switch
        /// ([`NotificationCategories::reminders`]).
        Off = "off",
    }
}

/// Declares the mail categories twice from one list: the switches as stored and shown
/// ([`NotificationCategories`], every one on by default) and as a `PATCH` changes them
/// ([`CategoriesPatch`], absent ones stay as they are). Each switch is written with its doc
/// comment, its name and, after `=>`, its patch field's description (written out: the API
/// document reads doc comments only as plain strings).
macro_rules! categories {
    ($($(#[doc = $doc:literal])* $(#[serde($($serde:tt)*)])? $field:ident => $patch:literal,)*) => {
        /// Which kinds of mail besides turn mail are wanted.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub struct NotificationCategories {
            $($(#[doc = $doc])* $(#[serde($($serde)*)])? pub $field: bool,)*
        }

        impl Default for NotificationCategories {
            fn default() -> Self {
                Self { $($field: true,)* }
            }
        }

        /// Category switches for `PATCH /v1/me/notifications`; absent ones stay as they are.
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(deny_unknown_fields)]
        pub struct CategoriesPatch {
            $(
                #[doc = $patch]
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<bool>,
            )*
        }
    };
}

categories! {
    /// Someone challenges you, or invites you to a tournament (an invitation is a challenge
    /// to play).
    challenges => "See [`NotificationCategories::challenges`].",
    /// Your challenge was accepted or declined, or a game started.
    challenge_replies => "See [`NotificationCategories::challenge_replies`].",
    /// A game of yours ended.
    game_over => "See [`NotificationCategories::game_over`].",
    /// An opponent offers a draw.
    draw_offers => "See [`NotificationCategories::draw_offers`].",
    /// Your deadline is 24 h or 2 h away, or an opponent ran out of time.
    reminders => "See [`NotificationCategories::reminders`].",
    /// A short confirmation with the new board after each command you sent by mail.
    #[serde(default = "switched_on")]
    mail_confirmations => "See [`NotificationCategories::mail_confirmations`].",
}

fn switched_on() -> bool {
    true
}

/// Reads a patch's switches ([`NotificationSettingsPatch::categories`], `webhooks`) from a
/// JSON object (or `null`) only: serde reads a struct from an array too, its fields in order,
/// so `[null, null]` would pass for a patch that changes nothing, where the API document says
/// an object.
fn switches_object<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct SwitchesObject<T>(std::marker::PhantomData<T>);

    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for SwitchesObject<T> {
        type Value = Option<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object of switches, such as {\"reminders\": false}, or null")
        }

        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D2>(self, deserializer: D2) -> Result<Self::Value, D2::Error>
        where
            D2: serde::Deserializer<'de>,
        {
            deserializer.deserialize_map(self)
        }

        fn visit_map<A>(self, map: A) -> Result<Self::Value, A::Error>
        where
            A: serde::de::MapAccess<'de>,
        {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Some)
        }
    }

    deserializer.deserialize_option(SwitchesObject(std::marker::PhantomData))
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
    /// still comes). Webhooks follow the mutes too.
    pub muted_games: Vec<i64>,
    /// What your webhooks carry, by category (every one on by default; mail's switches above
    /// are apart: turn mail may be off and turn webhooks on).
    #[serde(default)]
    pub webhooks: ChannelCategories,
    /// What web push brings to your browsers, by category (apart from mail and webhooks).
    #[serde(default)]
    pub push: ChannelCategories,
}

/// One channel's switches other than mail (webhooks): the categories of game events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChannelCategories {
    /// Your turn.
    pub turn: bool,
    /// Someone challenges you.
    pub challenges: bool,
    /// Your challenge was accepted or declined, or a game started.
    pub challenge_replies: bool,
    /// A game of yours ended, or a player left it.
    pub game_over: bool,
    /// An opponent offers a draw.
    pub draw_offers: bool,
}

impl Default for ChannelCategories {
    fn default() -> Self {
        Self {
            turn: true,
            challenges: true,
            challenge_replies: true,
            game_over: true,
            draw_offers: true,
        }
    }
}

/// Switches of one channel for `PATCH /v1/me/notifications`; absent ones stay as they are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ChannelCategoriesPatch {
    /// See [`ChannelCategories::turn`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<bool>,
    /// See [`ChannelCategories::challenges`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenges: Option<bool>,
    /// See [`ChannelCategories::challenge_replies`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_replies: Option<bool>,
    /// See [`ChannelCategories::game_over`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_over: Option<bool>,
    /// See [`ChannelCategories::draw_offers`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offers: Option<bool>,
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
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "switches_object"
    )]
    pub categories: Option<CategoriesPatch>,
    /// Games to mute (yours).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mute: Vec<i64>,
    /// Games to unmute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmute: Vec<i64>,
    /// Webhook switches.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "switches_object"
    )]
    pub webhooks: Option<ChannelCategoriesPatch>,
    /// Web push switches.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "switches_object"
    )]
    pub push: Option<ChannelCategoriesPatch>,
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
