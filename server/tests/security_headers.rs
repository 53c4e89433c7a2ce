//! Security headers over real HTTP: every page may not be framed (CSP `frame-ancestors 'none'`
//! and `X-Frame-Options: DENY`), runs no inline script, is not sniffed; play pages (the link,
//! and pages fetched with a play cookie) send no referrer and are not stored by caches, nor is
//! any answer to a request with an API token; the JSON API is not sniffed either.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;
#[path = "common/web.rs"]
mod web;

use common::{Backend, TestApp};
use reqwest::header::HeaderMap;
use serde_json::json;

both_backends!(pages_and_the_api_carry_security_headers);

/// A GET that does not follow redirects, with an optional cookie and token.
async fn fetch(
    app: &TestApp,
    path: &str,
    cookie: Option<&str>,
    token: Option<&str>,
) -> (u16, HeaderMap, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut request = client.get(format!("{}{path}", app.base));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {headers:?}"))
        .to_str()
        .unwrap()
}

/// The headers every answer carries, whatever it is.
fn assert_common(headers: &HeaderMap, what: &str) {
    let policy = header(headers, "content-security-policy");
    for directive in [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'none'",
    ] {
        assert!(policy.contains(directive), "{what}: {policy}");
    }
    assert!(!policy.contains("unsafe-inline"), "{what}: {policy}");
    assert_eq!(header(headers, "x-frame-options"), "DENY", "{what}");
    assert_eq!(
        header(headers, "x-content-type-options"),
        "nosniff",
        "{what}"
    );
}

async fn pages_and_the_api_carry_security_headers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = web::started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;

    // Public pages: not framed, not sniffed, the referrer cut to the origin across sites,
    // cacheable.
    for path in [
        "/",
        "/games",
        &format!("/games/{id}"),
        "/rules/kefren",
        "/players/anna",
        "/docs",
        "/assets/game.js",
        "/no/such/page",
    ] {
        let (status, headers, body) = fetch(&app, path, None, None).await;
        assert!(status == 200 || status == 404, "{path}: {status}");
        assert_common(&headers, path);
        assert_eq!(
            header(&headers, "referrer-policy"),
            "strict-origin-when-cross-origin",
            "{path}"
        );
        assert!(
            !headers.contains_key("cache-control")
                || header(&headers, "cache-control") != "no-store",
            "{path}"
        );
        // No inline script for the policy to break: scripts come from /assets only, and the
        // one <script> element with content is a JSON data block.
        for (at, _) in body.match_indices("<script") {
            let tag = &body[at..at + body[at..].find('>').unwrap()];
            assert!(
                tag.contains("src=\"/assets/") || tag.contains("type=\"application/json\""),
                "{path}: inline script {tag}"
            );
        }
        assert!(!body.contains(" style=\""), "{path}: an inline style");
        assert!(!body.contains("<style"), "{path}: an inline style sheet");
    }

    // The JSON API: nosniff too; with a token, never stored.
    let (status, headers, _) = fetch(&app, "/v1/health", None, None).await;
    assert_eq!(status, 200);
    assert_common(&headers, "/v1/health");
    let (status, headers, _) = fetch(&app, "/v1/me", None, Some(&anna)).await;
    assert_eq!(status, 200);
    assert_common(&headers, "/v1/me");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    let (status, headers, _) = fetch(&app, "/v1/me", None, Some("tp_unknown")).await;
    assert_eq!(status, 401);
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
    assert_eq!(header(&headers, "cache-control"), "no-store");

    // The play link and the page fetched with its cookie: no referrer, not stored.
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let link = web::play_link_in(&web::text_of(&card.data), id);
    let path = link[link.find("/games/").unwrap()..].to_owned();
    let (status, headers, _) = fetch(&app, &path, None, None).await;
    assert_eq!(status, 303);
    assert_common(&headers, "play link");
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    let cookie = header(&headers, "set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let (status, headers, body) = fetch(&app, &format!("/games/{id}"), Some(&cookie), None).await;
    assert_eq!(status, 200);
    assert!(body.contains("id=\"move-form\""), "{body}");
    assert_common(&headers, "play page");
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    // Even a refused link (a damaged signature) is a play page.
    let damaged = format!(
        "{}{}",
        &path[..path.len() - 1],
        if path.ends_with('0') { "1" } else { "0" }
    );
    let (status, headers, _) = fetch(&app, &damaged, None, None).await;
    assert_eq!(status, 403);
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(header(&headers, "cache-control"), "no-store");
}
