//! How the parts of a mail beyond its plain text are kept in the outbox row (`parts`, JSON):
//! enough to rebuild the identical message at every retry.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use super::picture::{self, BoardSource, Png};
use super::{ComposedMail, Drawing};

/// The stored rest of a message. Every field is optional so that later parts can be added
/// without touching rows already queued.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredParts {
    /// The HTML part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Content-ID of the inline picture, without angle brackets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_cid: Option<String>,
    /// The inline picture as queued: an SVG document, until the worker rasterises it (rows
    /// of earlier versions, and a board whose source would not draw it identically).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_svg: Option<String>,
    /// The inline picture as queued: a board's source, until the worker rasterises it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_board: Option<BoardSource>,
    /// The inline picture as sent, PNG in standard base64 (kept for every later attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_png: Option<String>,
    /// One-click unsubscribe URL (`List-Unsubscribe`, `List-Unsubscribe-Post`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_unsubscribe: Option<String>,
    /// `Reply-To:` address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// An answer to the player's message (`Auto-Submitted: auto-replied`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_replied: bool,
}

impl StoredParts {
    /// The parts of `mail` beyond its text; None for a plain-text mail.
    #[must_use]
    pub fn of(mail: &ComposedMail) -> Option<Self> {
        let (image_svg, image_board) = match mail.image.as_ref().map(|image| &image.drawing) {
            Some(Drawing::Svg(svg)) => (Some(svg.clone()), None),
            Some(Drawing::Board(board)) => (None, Some(board.clone())),
            None => (None, None),
        };
        let parts = Self {
            html: mail.html.clone(),
            image_cid: mail.image.as_ref().map(|image| image.content_id.clone()),
            image_svg,
            image_board,
            image_png: None,
            list_unsubscribe: mail.unsubscribe_url.clone(),
            reply_to: mail.reply_to.clone(),
            auto_replied: mail.auto_replied,
        };
        (parts != Self::default()).then_some(parts)
    }

    /// The column's text.
    ///
    /// # Errors
    /// A serde error (not expected for strings).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// Reads the column's text.
    ///
    /// # Errors
    /// A serde error for text this version cannot read.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// Whether the picture still has to be rasterised.
    #[must_use]
    pub fn needs_png(&self) -> bool {
        (self.image_svg.is_some() || self.image_board.is_some()) && self.image_png.is_none()
    }

    /// The picture rasterised from what was queued; `None` when there is nothing to draw.
    ///
    /// # Errors
    /// The drawing's error: a source that does not read, an SVG that does not parse.
    pub fn rasterise(&self) -> Option<Result<Png, picture::PictureError>> {
        if let Some(svg) = &self.image_svg {
            return Some(picture::svg_png(svg));
        }
        self.image_board
            .as_ref()
            .map(|board| board.svg().and_then(|svg| picture::svg_png(&svg)))
    }

    /// Forgets the picture (it could not be drawn; the text board is in both parts).
    pub fn drop_picture(&mut self) {
        self.image_svg = None;
        self.image_board = None;
        self.image_cid = None;
    }

    /// Keeps `png` as the picture from now on, in place of what it was drawn from.
    pub fn set_png(&mut self, png: &[u8]) {
        self.image_png = Some(base64::engine::general_purpose::STANDARD.encode(png));
        self.image_svg = None;
        self.image_board = None;
    }

    /// The picture's bytes, if it was rasterised.
    ///
    /// # Errors
    /// A base64 error for a damaged row.
    pub fn image_bytes(&self) -> Result<Option<Vec<u8>>, base64::DecodeError> {
        self.image_png
            .as_deref()
            .map(|png| base64::engine::general_purpose::STANDARD.decode(png))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::InlineImage;

    #[test]
    fn plain_mails_store_nothing_and_rich_ones_round_trip() {
        assert_eq!(StoredParts::of(&ComposedMail::plain("s", "t")), None);
        let mut mail = ComposedMail::plain("s", "t");
        mail.html = Some("<p>t</p>".into());
        mail.image = Some(InlineImage {
            content_id: "board-1-0@x".into(),
            drawing: Drawing::Svg("<svg/>".into()),
            width: 1,
            height: 1,
        });
        mail.unsubscribe_url = Some("https://x/u".into());
        let mut parts = StoredParts::of(&mail).unwrap();
        assert!(parts.needs_png());
        assert_eq!(parts.image_bytes().unwrap(), None);
        parts.set_png(&[0x89, b'P', b'N', b'G', 0, 255]);
        assert!(!parts.needs_png());
        let back = StoredParts::from_json(&parts.to_json().unwrap()).unwrap();
        assert_eq!(back, parts);
        assert_eq!(back.image_svg, None);
        assert_eq!(
            back.image_bytes().unwrap().unwrap(),
            [0x89, b'P', b'N', b'G', 0, 255]
        );
        assert_eq!(back.image_cid.as_deref(), Some("board-1-0@x"));
    }

    #[test]
    fn a_row_queued_with_the_drawing_draws_as_one_queued_with_the_source() {
        use turnpost_shared::render::render_svg;
        use turnpost_shared::{AnyGame, GameKind, Options};
        let game = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
        let view = game.board_view();
        let source = BoardSource::of(&game, &[], &view).unwrap();
        // A row of an earlier version holds the SVG; rows now hold the source.
        let earlier = StoredParts::from_json(
            &serde_json::json!({ "image_cid": "b@x", "image_svg": render_svg(&view) }).to_string(),
        )
        .unwrap();
        let now = StoredParts {
            image_cid: Some("b@x".into()),
            image_board: Some(source),
            ..StoredParts::default()
        };
        assert!(earlier.needs_png() && now.needs_png());
        let (earlier_png, now_png) = (
            earlier.rasterise().unwrap().unwrap(),
            now.rasterise().unwrap().unwrap(),
        );
        assert_eq!(earlier_png, now_png);
        let mut broken = now.clone();
        if let Some(board) = &mut broken.image_board {
            board.position = "kefren nonsense".into();
        }
        assert!(matches!(
            broken.rasterise(),
            Some(Err(picture::PictureError::Board(_)))
        ));
        broken.drop_picture();
        assert!(!broken.needs_png());
        assert_eq!((broken.image_board, broken.image_cid), (None, None));
    }
}
