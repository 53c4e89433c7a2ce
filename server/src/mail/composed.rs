//! A composed message: everything a mail says and looks like, before it has a recipient
//! address, a Message-ID or a MIME layout.

use std::borrow::Cow;

use super::picture::{BoardSource, PictureError};

/// The content of one mail. Composers build it from plain data; [`super::enqueue`] stores it
/// whole, so a retry rebuilds the identical message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComposedMail {
    /// Subject line (stable per game, so mail clients keep one thread).
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part, when there is one (`multipart/alternative` with the text).
    pub html: Option<String>,
    /// A picture shown inline by the HTML part (`cid:` reference).
    pub image: Option<InlineImage>,
    /// The thread's root Message-ID, `<game-42@domain>`: sent as `In-Reply-To` and
    /// `References` so every mail of one game forms one thread.
    pub thread: Option<String>,
    /// One-click unsubscribe URL: sent as `List-Unsubscribe` with `List-Unsubscribe-Post`
    /// (RFC 8058).
    pub unsubscribe_url: Option<String>,
    /// `Reply-To:` address: the recipient's reply address for the game.
    pub reply_to: Option<String>,
    /// An answer to a message the player sent: sent as `Auto-Submitted: auto-replied`, every
    /// other mail as `auto-generated` (RFC 3834), so the other side's autoresponders leave
    /// both unanswered.
    pub auto_replied: bool,
}

impl ComposedMail {
    /// A plain-text mail outside any thread.
    #[must_use]
    pub fn plain(subject: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            text: text.into(),
            html: None,
            image: None,
            thread: None,
            unsubscribe_url: None,
            reply_to: None,
            auto_replied: false,
        }
    }
}

/// A picture shown inside the HTML part: composed as its source (cheap, inside the event's
/// transaction), sent as PNG (rasterised by the outbox worker, [`super::picture`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineImage {
    /// Content-ID without angle brackets (`board-42-7@domain`); the HTML says `cid:` + this.
    pub content_id: String,
    /// What it is drawn from.
    pub drawing: Drawing,
    /// Width of the PNG in pixels.
    pub width: u32,
    /// Height of the PNG in pixels.
    pub height: u32,
}

/// What an inline picture is drawn from.
#[derive(Clone, PartialEq, Eq)]
pub enum Drawing {
    /// A board: its position and marked moves, a few hundred bytes in the outbox.
    Board(BoardSource),
    /// An SVG document (a board whose source would not draw it identically; not expected).
    Svg(String),
}

impl Drawing {
    /// The SVG document.
    ///
    /// # Errors
    /// [`PictureError::Board`] for a board source that does not read.
    pub fn svg(&self) -> Result<Cow<'_, str>, PictureError> {
        match self {
            Self::Board(board) => board.svg().map(Cow::Owned),
            Self::Svg(svg) => Ok(Cow::Borrowed(svg)),
        }
    }
}

// A drawing is not worth printing.
impl std::fmt::Debug for Drawing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Board(board) => f.debug_tuple("Board").field(&board.position).finish(),
            Self::Svg(svg) => write!(f, "Svg({} bytes)", svg.len()),
        }
    }
}
