//! The web app manifest and its icons: with them a phone offers to put turnpost on its home
//! screen, opening it without the browser's bars. The PNG icons (which home screens want beside
//! the SVG) are drawn from the favicon once, when first asked for.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::HttpResponse;
use serde_json::json;

use crate::mail::picture::square_png;

/// The colour of the site's header: the phone's status bar takes it.
pub const THEME_COLOUR: &str = "#5a3d1a";
/// The page background of the light theme: the splash screen's.
const BACKGROUND_COLOUR: &str = "#fbf8f2";
/// The PNG icons' sides, in pixels: what Android's home screen and splash screen ask for.
pub const ICON_SIDES: [u32; 2] = [192, 512];

/// `GET /manifest.webmanifest`.
pub async fn manifest() -> HttpResponse {
    let mut icons = vec![json!({
        "src": "/assets/favicon.svg",
        "sizes": "any",
        "type": "image/svg+xml",
    })];
    icons.extend(ICON_SIDES.iter().map(|side| {
        json!({
            "src": format!("/assets/icon-{side}.png"),
            "sizes": format!("{side}x{side}"),
            "type": "image/png",
        })
    }));
    let manifest = json!({
        "name": "turnpost",
        "short_name": "turnpost",
        "description": "Abstract strategy games by mail: Kefren, Kechi, SanQi and Chinese Checkers.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    });
    HttpResponse::Ok()
        .content_type("application/manifest+json")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(manifest.to_string())
}

/// The icon `side` px square as a PNG, drawn once; `None` for a side the manifest does not
/// name (or, not expected, a drawing that fails: logged).
#[must_use]
pub fn icon_png(side: u32, svg: &str) -> Option<&'static [u8]> {
    static DRAWN: [OnceLock<Option<Vec<u8>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = ICON_SIDES.iter().position(|known| *known == side)?;
    DRAWN
        .get(index)?
        .get_or_init(|| match square_png(svg, side) {
            Ok(png) => Some(png.bytes),
            Err(error) => {
                tracing::error!(%error, side, "the app icon cannot be drawn");
                None
            }
        })
        .as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = include_str!("assets/favicon.svg");

    #[test]
    fn each_named_side_is_a_png_of_that_size_and_others_are_none() {
        for side in ICON_SIDES {
            let png = icon_png(side, SVG).unwrap();
            assert_eq!(png.get(..8), Some(&b"\x89PNG\r\n\x1a\n"[..]));
            // The IHDR chunk's width and height, big-endian, at bytes 16..24.
            assert_eq!(png.get(16..20), Some(&side.to_be_bytes()[..]));
            assert_eq!(png.get(20..24), Some(&side.to_be_bytes()[..]));
        }
        assert!(icon_png(100, SVG).is_none());
    }
}
