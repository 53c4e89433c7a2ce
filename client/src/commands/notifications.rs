//! `turnpost notifications`: show or change which mail you get, when, and in which time zone,
//! and what your webhooks and browsers (web push) are told.

use clap::{Args, ValueEnum};
use turnpost_shared::api::{
    CategoriesPatch, ChannelCategories, ChannelCategoriesPatch, NotificationCategories,
    NotificationSettings, NotificationSettingsPatch, TurnMail,
};

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Show your mail preferences; with any option, change those it names and show the result.
#[derive(Args, Debug)]
pub struct NotificationsArgs {
    /// Your time zone, an IANA name such as Europe/Berlin or UTC: deadlines in mail are shown
    /// in it and the digest hour counts in it.
    #[arg(long, value_name = "ZONE")]
    pub time_zone: Option<String>,
    /// How "your turn" mail comes; a digest comes at --digest-hour and lists the most urgent
    /// game first.
    #[arg(long, value_name = "MODE")]
    pub turn_mail: Option<TurnMailChoice>,
    /// The hour of the day (0–23, in your time zone) when the digest is sent.
    #[arg(long, value_name = "HOUR", value_parser = clap::value_parser!(u8).range(0..=23))]
    pub digest_hour: Option<u8>,
    /// Which channel --on and --off switch: mail (the default), your webhooks, or web push to
    /// your browsers. Each channel has its own switches: turn mail may be off and push on.
    #[arg(long, value_name = "CHANNEL", default_value = "mail")]
    pub channel: Channel,
    /// Turn a kind of message on (repeatable or comma-separated).
    #[arg(long, value_name = "CATEGORY", value_delimiter = ',')]
    pub on: Vec<Category>,
    /// Turn a kind of message off (repeatable or comma-separated).
    #[arg(long, value_name = "CATEGORY", value_delimiter = ',')]
    pub off: Vec<Category>,
    /// Mute games (ids, repeatable or comma-separated): no turn cards, reminders or draw
    /// offers for them; the game-over mail still comes.
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    pub mute: Vec<i64>,
    /// Unmute games muted with --mute.
    #[arg(long, value_name = "ID", value_delimiter = ',')]
    pub unmute: Vec<i64>,
}

/// How "your turn" mail is sent (the API's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TurnMailChoice {
    /// A turn card after each move.
    Immediate,
    /// One mail a day listing every game waiting for you (reminders still come).
    Digest,
    /// No turn mail (reminders are their own switch: --off reminders).
    Off,
}

/// Where --on and --off apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Channel {
    /// Mail (turn mail itself is --turn-mail).
    Mail,
    /// Your webhooks (`turnpost webhooks`).
    Webhooks,
    /// Web push to the browsers you turned notifications on in.
    Push,
}

/// A kind of message, by the API's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Category {
    /// It is your turn (webhooks and push; for mail use --turn-mail).
    Turn,
    /// Someone challenges you.
    Challenges,
    /// Your challenge was accepted or declined, or a game started.
    #[value(name = "challenge_replies", alias = "challenge-replies")]
    ChallengeReplies,
    /// A game of yours ended (still sent for muted games).
    #[value(name = "game_over", alias = "game-over")]
    GameOver,
    /// An opponent offers a draw.
    #[value(name = "draw_offers", alias = "draw-offers")]
    DrawOffers,
    /// Your deadline is 24 h or 2 h away, or an opponent ran out of time.
    Reminders,
    /// A confirmation with the new board after each command you send by mail.
    #[value(name = "mail_confirmations", alias = "mail-confirmations")]
    MailConfirmations,
}

impl NotificationsArgs {
    /// The change these options ask for, or None when they ask for none.
    ///
    /// # Errors
    /// A usage failure when one category is both turned on and off, or one game both muted
    /// and unmuted.
    fn patch(&self) -> Result<Option<NotificationSettingsPatch>, Failure> {
        if let Some(both) = self.on.iter().find(|c| self.off.contains(c)) {
            return Err(Failure::usage(format!(
                "--on and --off both name {}: choose one",
                category_name(*both)
            )));
        }
        if let Some(both) = self.mute.iter().find(|id| self.unmute.contains(id)) {
            return Err(Failure::usage(format!(
                "--mute and --unmute both name game {both}: choose one"
            )));
        }
        let mut categories = CategoriesPatch::default();
        let mut channel = ChannelCategoriesPatch::default();
        let switches = self.on.iter().map(|c| (*c, true));
        for (category, on) in switches.chain(self.off.iter().map(|c| (*c, false))) {
            let slot = if self.channel == Channel::Mail {
                mail_switch(&mut categories, category)?
            } else {
                channel_switch(&mut channel, self.channel, category)?
            };
            *slot = Some(on);
        }
        let channel = (channel != ChannelCategoriesPatch::default()).then_some(channel);
        let patch = NotificationSettingsPatch {
            time_zone: self.time_zone.clone(),
            turn_mail: self.turn_mail.map(|mode| match mode {
                TurnMailChoice::Immediate => TurnMail::Immediate,
                TurnMailChoice::Digest => TurnMail::Digest,
                TurnMailChoice::Off => TurnMail::Off,
            }),
            digest_hour: self.digest_hour,
            categories: (categories != CategoriesPatch::default()).then_some(categories),
            mute: self.mute.clone(),
            unmute: self.unmute.clone(),
            webhooks: if self.channel == Channel::Webhooks {
                channel
            } else {
                None
            },
            push: if self.channel == Channel::Push {
                channel
            } else {
                None
            },
        };
        Ok((patch != NotificationSettingsPatch::default()).then_some(patch))
    }
}

/// The mail switch of `category`.
fn mail_switch(
    categories: &mut CategoriesPatch,
    category: Category,
) -> Result<&mut Option<bool>, Failure> {
    Ok(match category {
        Category::Turn => {
            return Err(Failure::usage(
                "turn mail has its own option: --turn-mail immediate|digest|off (turn is a \
                 category of --channel webhooks and --channel push)",
            ))
        }
        Category::Challenges => &mut categories.challenges,
        Category::ChallengeReplies => &mut categories.challenge_replies,
        Category::GameOver => &mut categories.game_over,
        Category::DrawOffers => &mut categories.draw_offers,
        Category::Reminders => &mut categories.reminders,
        Category::MailConfirmations => &mut categories.mail_confirmations,
    })
}

/// The webhook or push switch of `category`: those channels carry game events only.
fn channel_switch(
    switches: &mut ChannelCategoriesPatch,
    channel: Channel,
    category: Category,
) -> Result<&mut Option<bool>, Failure> {
    Ok(match category {
        Category::Turn => &mut switches.turn,
        Category::Challenges => &mut switches.challenges,
        Category::ChallengeReplies => &mut switches.challenge_replies,
        Category::GameOver => &mut switches.game_over,
        Category::DrawOffers => &mut switches.draw_offers,
        Category::Reminders | Category::MailConfirmations => {
            return Err(Failure::usage(format!(
                "{} is mail only; --channel {} carries turn, challenges, challenge_replies, \
                 game_over and draw_offers",
                category_name(category),
                channel_name(channel)
            )))
        }
    })
}

fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Mail => "mail",
        Channel::Webhooks => "webhooks",
        Channel::Push => "push",
    }
}

fn category_name(category: Category) -> &'static str {
    match category {
        Category::Turn => "turn",
        Category::Challenges => "challenges",
        Category::ChallengeReplies => "challenge_replies",
        Category::GameOver => "game_over",
        Category::DrawOffers => "draw_offers",
        Category::Reminders => "reminders",
        Category::MailConfirmations => "mail_confirmations",
    }
}

/// Runs `turnpost notifications`.
///
/// # Errors
/// A usage failure for contradictory options; a refusal (exit 1) with the server's message for
/// an unknown time zone or a game you have no seat in; network failures.
pub fn run(args: &NotificationsArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let patch = args.patch()?;
    let session = Session::open(profile)?;
    let settings: NotificationSettings = match &patch {
        Some(patch) => session.client.patch("/me/notifications", patch)?,
        None => session.client.get("/me/notifications")?,
    };
    if json {
        return Ok(print_json("notifications", &settings)?);
    }
    let saved = if patch.is_some() {
        "Notification settings saved.\n"
    } else {
        ""
    };
    Ok(print(&format!("{saved}{}", describe(&settings)))?)
}

/// The settings, one per line.
fn describe(settings: &NotificationSettings) -> String {
    let turn_mail = match settings.turn_mail {
        TurnMail::Immediate => "immediate (a turn card after each move)".to_string(),
        TurnMail::Digest => format!(
            "digest (one mail a day at {:02}:00 {})",
            settings.digest_hour, settings.time_zone
        ),
        TurnMail::Off => "off (no turn mail)".to_string(),
    };
    let NotificationCategories {
        challenges,
        challenge_replies,
        game_over,
        draw_offers,
        reminders,
        mail_confirmations,
    } = settings.categories;
    let mut text = format!(
        "time zone:          {}\nturn mail:          {turn_mail}\ndigest hour:        {:02}:00\n",
        settings.time_zone, settings.digest_hour
    );
    for (name, on) in [
        ("challenges", challenges),
        ("challenge_replies", challenge_replies),
        ("game_over", game_over),
        ("draw_offers", draw_offers),
        ("reminders", reminders),
        ("mail_confirmations", mail_confirmations),
    ] {
        let state = if on { "on" } else { "off" };
        text.push_str(&format!("{:<20}{state}\n", format!("{name}:")));
    }
    let off: Vec<&str> = (settings.turn_mail == TurnMail::Off)
        .then_some("turn mail")
        .into_iter()
        .chain(
            [
                ("challenges", challenges),
                ("challenge_replies", challenge_replies),
                ("game_over", game_over),
                ("draw_offers", draw_offers),
                ("reminders", reminders),
                ("mail_confirmations", mail_confirmations),
            ]
            .into_iter()
            .filter(|(_, on)| !on)
            .map(|(name, _)| name),
        )
        .collect();
    let off = if off.is_empty() {
        "nothing".to_owned()
    } else {
        off.join(", ")
    };
    text.push_str(&format!("switched off:       {off}\n"));
    let muted = if settings.muted_games.is_empty() {
        "none".to_string()
    } else {
        settings
            .muted_games
            .iter()
            .map(|id| format!("#{id}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    text.push_str(&format!("muted games:        {muted}\n"));
    for (name, switches) in [("webhooks:", &settings.webhooks), ("push:", &settings.push)] {
        text.push_str(&format!("{name:<20}{}\n", describe_channel(switches)));
    }
    text
}

/// "everything" or "everything but turn, game_over" for a channel's switches.
fn describe_channel(switches: &ChannelCategories) -> String {
    let off: Vec<&str> = [
        ("turn", switches.turn),
        ("challenges", switches.challenges),
        ("challenge_replies", switches.challenge_replies),
        ("game_over", switches.game_over),
        ("draw_offers", switches.draw_offers),
    ]
    .into_iter()
    .filter(|(_, on)| !on)
    .map(|(name, _)| name)
    .collect();
    match off.len() {
        0 => "every category on".to_owned(),
        5 => "every category off".to_owned(),
        _ => format!("on, but off for {}", off.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args() -> NotificationsArgs {
        NotificationsArgs {
            time_zone: None,
            turn_mail: None,
            digest_hour: None,
            channel: Channel::Mail,
            on: Vec::new(),
            off: Vec::new(),
            mute: Vec::new(),
            unmute: Vec::new(),
        }
    }

    #[test]
    fn no_options_ask_for_no_change() {
        assert!(args().patch().unwrap().is_none());
    }

    #[test]
    fn options_become_one_patch() {
        let patch = NotificationsArgs {
            turn_mail: Some(TurnMailChoice::Digest),
            digest_hour: Some(7),
            on: vec![Category::GameOver],
            off: vec![Category::Reminders],
            mute: vec![42],
            ..args()
        }
        .patch()
        .unwrap()
        .unwrap();
        assert_eq!(patch.turn_mail, Some(TurnMail::Digest));
        assert_eq!(patch.digest_hour, Some(7));
        let categories = patch.categories.unwrap();
        assert_eq!(categories.game_over, Some(true));
        assert_eq!(categories.reminders, Some(false));
        assert_eq!(categories.challenges, None);
        assert_eq!(patch.mute, [42]);
    }

    #[test]
    fn contradictions_are_usage_errors() {
        let both = NotificationsArgs {
            on: vec![Category::Reminders],
            off: vec![Category::Reminders],
            ..args()
        };
        let failure = both.patch().unwrap_err();
        assert_eq!(failure.kind, crate::failure::FailureKind::Usage);
        assert!(failure.message.contains("reminders"), "{}", failure.message);
        let both = NotificationsArgs {
            mute: vec![3],
            unmute: vec![3],
            ..args()
        };
        assert!(both.patch().is_err());
    }

    #[test]
    fn channel_switches_go_to_their_channel_only() {
        let patch = NotificationsArgs {
            channel: Channel::Push,
            off: vec![Category::Turn, Category::GameOver],
            ..args()
        }
        .patch()
        .unwrap()
        .unwrap();
        let push = patch.push.unwrap();
        assert_eq!(push.turn, Some(false));
        assert_eq!(push.game_over, Some(false));
        assert_eq!(push.challenges, None);
        assert!(patch.webhooks.is_none() && patch.categories.is_none());
        let mail_only = NotificationsArgs {
            channel: Channel::Webhooks,
            off: vec![Category::Reminders],
            ..args()
        };
        let failure = mail_only.patch().unwrap_err();
        assert!(failure.message.contains("mail only"), "{}", failure.message);
        let turn_mail = NotificationsArgs {
            on: vec![Category::Turn],
            ..args()
        };
        assert!(turn_mail
            .patch()
            .unwrap_err()
            .message
            .contains("--turn-mail"));
    }
}
