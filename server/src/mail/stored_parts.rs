//! How the parts of a mail beyond its plain text are kept in the outbox row (`parts`, JSON):
//! enough to rebuild the identical message at every retry.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use super::ComposedMail;

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
    /// The inline picture as queued: an SVG document, until the worker rasterises it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_svg: Option<String>,
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
        let parts = Self {
            html: mail.html.clone(),
            image_cid: mail.image.as_ref().map(|image| image.content_id.clone()),
            image_svg: mail.image.as_ref().map(|image| image.svg.clone()),
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
        self.image_svg.is_some() && self.image_png.is_none()
    }

    /// Rasterises the picture if it still has to be; a picture that cannot be drawn is
    /// dropped (the text board is in both parts), and the error returned for the log. Returns
    /// whether the parts changed.
    ///
    /// # Errors
    /// The drawing error (the parts are already without the picture).
    pub fn draw(&mut self) -> Result<bool, super::picture::PictureError> {
        if !self.needs_png() {
            return Ok(false);
        }
        match self.image_svg.as_deref().map(super::picture::svg_png) {
            Some(Ok(png)) => {
                self.set_png(&png.bytes);
                Ok(true)
            }
            Some(Err(error)) => {
                self.image_svg = None;
                self.image_cid = None;
                Err(error)
            }
            None => Ok(false),
        }
    }

    /// Keeps `png` as the picture from now on, in place of its SVG.
    pub fn set_png(&mut self, png: &[u8]) {
        self.image_png = Some(base64::engine::general_purpose::STANDARD.encode(png));
        self.image_svg = None;
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
            svg: "<svg/>".into(),
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
}
