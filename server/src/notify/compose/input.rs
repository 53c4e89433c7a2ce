//! The plain data composers read. Notify code builds it inside the event's transaction, sweeps
//! build it from their own queries; composers never touch the database.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use turnpost_shared::{AnyGame, GameKind, Seat};

/// Where mail points and which domain names its ids (from `MailContext`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Public base URL of the server, for links (`https://turnpost.example`).
    pub public_url: String,
    /// Domain of Message-IDs, thread ids and Content-IDs.
    pub domain: String,
}

impl Site {
    /// The game's web page (public; `/games/{id}/record` is its record as text).
    #[must_use]
    pub fn game_url(&self, game_id: i64) -> String {
        format!("{}/games/{game_id}", self.public_url.trim_end_matches('/'))
    }

    /// The page of open challenges.
    #[must_use]
    pub fn challenges_url(&self) -> String {
        format!("{}/challenges", self.public_url.trim_end_matches('/'))
    }

    /// The root of a game's thread: every mail of the game answers it.
    #[must_use]
    pub fn thread_id(&self, game_id: i64) -> String {
        format!("<game-{game_id}@{}>", self.domain)
    }
}

/// Who a mail is for, with their mail settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    /// Account name (greeting; the seat they hold is found by it in [`GameFacts::players`]).
    pub name: String,
    /// Address.
    pub email: String,
    /// Time zone deadlines are shown in.
    pub time_zone: Tz,
    /// Signed one-click unsubscribe link, when the mail's category can be turned off.
    pub unsubscribe_url: Option<String>,
    /// Their reply address for this game (`Reply-To:`), when a reply can act: it carries the
    /// seat's key and the ply the mail shows.
    pub reply_to: Option<String>,
    /// The recipient's personal play link for their seat in the game, while it is being played
    /// (`crate::play_link`): turn cards carry it.
    pub play_url: Option<String>,
}

/// A player of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Seat number, 1-based, turn order.
    pub seat: u8,
    /// How the game calls the seat: "Black (seat 1)".
    pub seat_name: String,
    /// Account name.
    pub name: String,
    /// The player's rating in a rated game (`1523`, `1500?` while provisional).
    pub rating: Option<String>,
}

/// A move already played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// Moves before it.
    pub ply: u32,
    /// Seat that played it.
    pub seat: u8,
    /// Canonical move text.
    pub notation: String,
    /// Played by the server (a forced pass).
    pub automatic: bool,
    /// Played by the server from the seat's conditional moves (a prepared answer).
    pub prepared: bool,
}

/// A game as mail shows it.
#[derive(Debug, Clone)]
pub struct GameFacts {
    /// Game id.
    pub id: i64,
    /// Canonical options, `key=value` pairs (shown in challenges).
    pub options: String,
    /// Players in seat order.
    pub players: Vec<Player>,
    /// The current position (the final one when the game is over).
    pub position: AnyGame,
    /// Moves played so far: the ply the next move is sent with.
    pub ply: u32,
    /// The moves to report, oldest first (since the recipient last moved); highlighted on the
    /// board.
    pub last_moves: Vec<PlayedMove>,
    /// The winning seats or a draw, once over.
    pub result: Option<crate::games::GameResult>,
    /// Why it ended.
    pub result_reason: Option<crate::games::ResultReason>,
    /// When the seat to move runs out of time (None: no clock, or not running).
    pub deadline: Option<DateTime<Utc>>,
    /// The other players' messages to the recipient since they last moved, oldest first
    /// (none they muted; none for mails not meant for one seat).
    pub messages: Vec<turnpost_shared::api::MessageView>,
}

impl GameFacts {
    /// The kind of game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.position.kind()
    }

    /// The game as mails name it: "Kefren #42".
    #[must_use]
    pub fn title(&self) -> String {
        format!("{} #{}", self.kind().title(), self.id)
    }

    /// The player at `seat`.
    #[must_use]
    pub fn player(&self, seat: u8) -> Option<&Player> {
        self.players.iter().find(|p| p.seat == seat)
    }

    /// The seat `name` plays (names are unique, compared without case).
    #[must_use]
    pub fn seat_of(&self, name: &str) -> Option<u8> {
        self.players
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .map(|p| p.seat)
    }

    /// The seat to move, if the game goes on.
    #[must_use]
    pub fn to_move(&self) -> Option<u8> {
        self.position.status().to_move().map(Seat::number)
    }
}
