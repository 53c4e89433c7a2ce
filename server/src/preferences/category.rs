//! The kinds of mail a player can switch off one by one.

turnpost_shared::named_value! {
    noun: "mail category";
    /// A kind of mail, as preferences and unsubscribe links name it.
    pub enum Category {
        /// "Your turn" (immediate, digest or off).
        Turn = "turn",
        /// A challenge for you, or an invitation to a tournament (an invitation is a challenge
        /// to play: `crate::notify::tournament_mail::announcement`).
        Challenges = "challenges",
        /// Your challenge was accepted or declined; a game started.
        ChallengeReplies = "challenge_replies",
        /// A game ended.
        GameOver = "game_over",
        /// A draw offer.
        DrawOffers = "draw_offers",
        /// A deadline is near, or a win on time may be claimed.
        Reminders = "reminders",
        /// The confirmation of a command sent by mail.
        MailConfirmations = "mail_confirmations",
    }
}

impl Category {
    /// How a person reads it ("turn mail", "reminders").
    #[must_use]
    pub fn described(self) -> &'static str {
        match self {
            Self::Turn => "turn mail",
            Self::Challenges => "challenge mail",
            Self::ChallengeReplies => "mail about answers to your challenges",
            Self::GameOver => "game-over mail",
            Self::DrawOffers => "draw-offer mail",
            Self::Reminders => "deadline reminders",
            Self::MailConfirmations => "confirmations of commands sent by mail",
        }
    }

    /// Whether muting a game silences this category, on every channel: its turns, reminders
    /// and draw offers; the game's end still comes.
    #[must_use]
    pub fn silenced_by_game_mute(self) -> bool {
        matches!(self, Self::Turn | Self::Reminders | Self::DrawOffers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for category in Category::ALL {
            assert_eq!(category.as_str().parse(), Ok(category));
        }
        assert!("everything".parse::<Category>().is_err());
    }
}
