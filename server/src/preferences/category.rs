//! The kinds of mail a player can switch off one by one.

/// A kind of mail, as preferences and unsubscribe links name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// "Your turn" (immediate, digest or off).
    Turn,
    /// A challenge for you.
    Challenges,
    /// Your challenge was accepted or declined; a game started.
    ChallengeReplies,
    /// A game ended.
    GameOver,
    /// A draw offer.
    DrawOffers,
    /// A deadline is near, or a win on time may be claimed.
    Reminders,
    /// The confirmation of a command sent by mail.
    MailConfirmations,
}

impl Category {
    /// Every category.
    pub const ALL: [Self; 7] = [
        Self::Turn,
        Self::Challenges,
        Self::ChallengeReplies,
        Self::GameOver,
        Self::DrawOffers,
        Self::Reminders,
        Self::MailConfirmations,
    ];

    /// The name in links and the API.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Turn => "turn",
            Self::Challenges => "challenges",
            Self::ChallengeReplies => "challenge_replies",
            Self::GameOver => "game_over",
            Self::DrawOffers => "draw_offers",
            Self::Reminders => "reminders",
            Self::MailConfirmations => "mail_confirmations",
        }
    }

    /// The category called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for category in Category::ALL {
            assert_eq!(Category::from_name(category.name()), Some(category));
        }
        assert_eq!(Category::from_name("everything"), None);
    }
}
