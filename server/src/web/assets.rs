//! The stylesheet, the scripts (the pages' and web push's), the service worker and the icons,
//! compiled into the binary (no CDN).

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use super::WebAnswer;
use super::WebError;

const CSS: &str = include_str!("assets/turnpost.css");
const SCRIPT: &str = include_str!("assets/game.js");
const PUSH_SCRIPT: &str = include_str!("assets/push.js");
/// The service worker: shows a push as a notification, opens its page on a click.
const SERVICE_WORKER: &str = include_str!("assets/sw.js");
const ICON: &str = include_str!("assets/favicon.svg");

/// `GET /assets/{file}`.
///
/// # Errors
/// 404 for any other file.
pub async fn asset(path: web::Path<String>) -> WebAnswer {
    let (body, content_type) = match path.as_str() {
        "turnpost.css" => (CSS, "text/css; charset=utf-8"),
        "game.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "push.js" => (PUSH_SCRIPT, "text/javascript; charset=utf-8"),
        "favicon.svg" => (ICON, "image/svg+xml"),
        other => {
            if let Some(png) = other
                .strip_prefix("icon-")
                .and_then(|rest| rest.strip_suffix(".png"))
                .and_then(|side| side.parse().ok())
                .and_then(|side| super::app_manifest::icon_png(side, ICON))
            {
                return Ok(HttpResponse::Ok()
                    .content_type("image/png")
                    .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
                    .body(png));
            }
            return Err(WebError::not_found(format!(
                "there is no asset called {other}"
            )));
        }
    };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(body))
}

/// `GET /favicon.ico`: the icon, for browsers and tools that ask there whatever the page says
/// (an SVG: every browser that asks reads it by its type).
pub async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(ICON)
}

/// `GET /sw.js`: the service worker, at the root so that its scope is the whole site (`/`).
pub async fn service_worker() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        // Browsers look for a new worker at most daily anyway; no-cache makes it at once.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(SERVICE_WORKER)
}
