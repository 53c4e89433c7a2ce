//! An account's notification preferences as the rest of the server uses them, and
//! `GET/PATCH /v1/me/notifications`.

use chrono_tz::Tz;
use turnpost_shared::api::{
    NotificationCategories, NotificationSettings, NotificationSettingsPatch, TurnMail,
};

use super::channel::{self, Channel};
use super::{Category, PreferenceError};
use crate::db::notifications::NotificationSettingsRow;
use crate::db::transaction as tx;
use crate::db::{self, games as game_queries, notifications as q, DbConnection, DbError};

/// Default local hour of the digest.
pub const DEFAULT_DIGEST_HOUR: u8 = 8;

/// Preferences read from storage, defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct Preferences {
    /// Time zone for deadlines and the digest.
    pub time_zone: Tz,
    /// How turn mail goes.
    pub turn_mail: TurnMail,
    /// Local hour of the digest.
    pub digest_hour: u8,
    /// Other categories.
    pub categories: NotificationCategories,
    /// Local date of the last digest.
    pub last_digest_on: Option<String>,
}

impl Default for Preferences {
    fn default() -> Self {
        Self {
            time_zone: Tz::UTC,
            turn_mail: TurnMail::Immediate,
            digest_hour: DEFAULT_DIGEST_HOUR,
            categories: NotificationCategories::default(),
            last_digest_on: None,
        }
    }
}

impl Preferences {
    /// From a stored row (unknown values fall back to the defaults).
    #[must_use]
    pub fn from_row(row: &NotificationSettingsRow) -> Self {
        Self {
            time_zone: row.time_zone.parse().unwrap_or(Tz::UTC),
            turn_mail: row.turn_mail,
            digest_hour: u8::try_from(row.digest_hour)
                .ok()
                .filter(|h| *h < 24)
                .unwrap_or(DEFAULT_DIGEST_HOUR),
            categories: NotificationCategories {
                challenges: row.challenges,
                challenge_replies: row.challenge_replies,
                game_over: row.game_over,
                draw_offers: row.draw_offers,
                reminders: row.reminders,
                mail_confirmations: row.mail_confirmations,
            },
            last_digest_on: row.last_digest_on.clone(),
        }
    }

    /// An account's preferences.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub fn load(conn: &mut DbConnection, account_id: i64) -> Result<Self, DbError> {
        Ok(q::settings(conn, account_id)?
            .map(|row| Self::from_row(&row))
            .unwrap_or_default())
    }

    /// Whether `category` is switched on (turn mail: not `off`).
    #[must_use]
    pub fn wants(&self, category: Category) -> bool {
        let c = &self.categories;
        match category {
            Category::Turn => self.turn_mail != TurnMail::Off,
            Category::Challenges => c.challenges,
            Category::ChallengeReplies => c.challenge_replies,
            Category::GameOver => c.game_over,
            Category::DrawOffers => c.draw_offers,
            Category::Reminders => c.reminders,
            Category::MailConfirmations => c.mail_confirmations,
        }
    }

    /// Switches `category` off (an unsubscribe link).
    pub fn switch_off(&mut self, category: Category) {
        match self.switch_of(category) {
            Some(switch) => *switch = false,
            None => self.turn_mail = TurnMail::Off,
        }
    }

    /// Switches `category` on again (the undo of an unsubscribe link); turn mail comes back
    /// as `turn_mail` (immediate or digest; `off` counts as immediate).
    pub fn switch_on(&mut self, category: Category, turn_mail: TurnMail) {
        match self.switch_of(category) {
            Some(switch) => *switch = true,
            None => {
                self.turn_mail = match turn_mail {
                    TurnMail::Off => TurnMail::Immediate,
                    other => other,
                }
            }
        }
    }

    /// The on/off switch of `category`; `None` for turn mail, which has its own setting.
    fn switch_of(&mut self, category: Category) -> Option<&mut bool> {
        let c = &mut self.categories;
        match category {
            Category::Turn => None,
            Category::Challenges => Some(&mut c.challenges),
            Category::ChallengeReplies => Some(&mut c.challenge_replies),
            Category::GameOver => Some(&mut c.game_over),
            Category::DrawOffers => Some(&mut c.draw_offers),
            Category::Reminders => Some(&mut c.reminders),
            Category::MailConfirmations => Some(&mut c.mail_confirmations),
        }
    }

    /// What is switched off, as a person reads it ("turn mail", "deadline reminders").
    #[must_use]
    pub fn switched_off(&self) -> Vec<Category> {
        Category::ALL
            .into_iter()
            .filter(|category| !self.wants(*category))
            .collect()
    }

    fn to_row(&self, account_id: i64) -> NotificationSettingsRow {
        let c = &self.categories;
        NotificationSettingsRow {
            account_id,
            time_zone: self.time_zone.name().to_owned(),
            turn_mail: self.turn_mail,
            digest_hour: i32::from(self.digest_hour),
            challenges: c.challenges,
            challenge_replies: c.challenge_replies,
            game_over: c.game_over,
            draw_offers: c.draw_offers,
            reminders: c.reminders,
            mail_confirmations: c.mail_confirmations,
            last_digest_on: self.last_digest_on.clone(),
            updated_at: db::now(),
        }
    }

    /// Writes these preferences for `account_id`.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub fn save(&self, conn: &mut DbConnection, account_id: i64) -> Result<(), DbError> {
        let exists = q::settings(conn, account_id)?.is_some();
        q::save_settings(conn, self.to_row(account_id), exists)
    }

    fn to_api(&self, muted_games: Vec<i64>) -> NotificationSettings {
        NotificationSettings {
            time_zone: self.time_zone.name().to_owned(),
            turn_mail: self.turn_mail,
            digest_hour: self.digest_hour,
            categories: self.categories,
            muted_games,
            // Filled in by the callers, which read the channel's switches.
            webhooks: turnpost_shared::api::ChannelCategories::default(),
            push: turnpost_shared::api::ChannelCategories::default(),
        }
    }
}

/// `GET /v1/me/notifications`.
///
/// # Errors
/// Storage failures.
pub fn show(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<NotificationSettings, PreferenceError> {
    let preferences = Preferences::load(conn, account_id)?;
    let mut shown = preferences.to_api(q::muted_games(conn, account_id)?);
    shown.webhooks = channel::view(conn, account_id, Channel::Webhooks)?;
    shown.push = channel::view(conn, account_id, Channel::Push)?;
    Ok(shown)
}

/// `PATCH /v1/me/notifications`: changes what the patch names, in one transaction.
///
/// # Errors
/// [`PreferenceError::InvalidTimeZone`], [`PreferenceError::InvalidDigestHour`],
/// [`PreferenceError::UnknownGame`] (muting a game there is not),
/// [`PreferenceError::NotYourGame`] (muting a game without a seat in it); storage failures.
pub fn update(
    conn: &mut DbConnection,
    account_id: i64,
    patch: &NotificationSettingsPatch,
) -> Result<NotificationSettings, PreferenceError> {
    let time_zone = match patch.time_zone.as_deref() {
        None => None,
        Some(name) => {
            Some(
                name.trim()
                    .parse::<Tz>()
                    .map_err(|_| PreferenceError::InvalidTimeZone {
                        name: name.to_owned(),
                    })?,
            )
        }
    };
    if let Some(hour) = patch.digest_hour.filter(|h| *h > 23) {
        return Err(PreferenceError::InvalidDigestHour { hour });
    }
    tx::write_with(
        conn,
        |conn| -> Result<NotificationSettings, PreferenceError> {
            let mut preferences = Preferences::load(conn, account_id)?;
            if let Some(zone) = time_zone {
                preferences.time_zone = zone;
            }
            if let Some(turn_mail) = patch.turn_mail {
                preferences.turn_mail = turn_mail;
            }
            if let Some(hour) = patch.digest_hour {
                preferences.digest_hour = hour;
            }
            if let Some(switches) = &patch.categories {
                let c = &mut preferences.categories;
                for (value, field) in [
                    (switches.challenges, &mut c.challenges),
                    (switches.challenge_replies, &mut c.challenge_replies),
                    (switches.game_over, &mut c.game_over),
                    (switches.draw_offers, &mut c.draw_offers),
                    (switches.reminders, &mut c.reminders),
                    (switches.mail_confirmations, &mut c.mail_confirmations),
                ] {
                    if let Some(value) = value {
                        *field = value;
                    }
                }
            }
            preferences.save(conn, account_id)?;
            for (games, muted) in [(&patch.mute, true), (&patch.unmute, false)] {
                for &game_id in games {
                    let seated = game_queries::seats(conn, game_id)?
                        .iter()
                        .any(|(seat, _)| seat.account_id == account_id);
                    // Unmuting a game you have no seat in changes nothing: it is not muted.
                    if !seated && !muted {
                        continue;
                    }
                    if !seated {
                        return Err(if game_queries::find(conn, game_id)?.is_none() {
                            PreferenceError::UnknownGame { game_id }
                        } else {
                            PreferenceError::NotYourGame { game_id }
                        });
                    }
                    q::set_muted(conn, account_id, game_id, muted)?;
                }
            }
            if let Some(switches) = &patch.webhooks {
                channel::apply(conn, account_id, Channel::Webhooks, switches)?;
            }
            if let Some(switches) = &patch.push {
                channel::apply(conn, account_id, Channel::Push, switches)?;
            }
            let mut shown = preferences.to_api(q::muted_games(conn, account_id)?);
            shown.webhooks = channel::view(conn, account_id, Channel::Webhooks)?;
            shown.push = channel::view(conn, account_id, Channel::Push)?;
            Ok(shown)
        },
    )
}
