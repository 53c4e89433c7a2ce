//! Turning on web push from the settings page, in real headless Chromium, on SQLite and on
//! PostgreSQL: the service worker registers (`navigator.serviceWorker.ready` resolves with
//! scope `/`), "Turn on notifications in this browser" subscribes with the server's VAPID key
//! and posts the subscription with the page's CSRF token, the device appears in the list and
//! in the database, the push switches save apart from the webhooks', and its Remove button
//! removes the device.
//!
//! What is faked, and why: headless Chromium here has no push service to reach (no Firebase
//! Cloud Messaging in a sandbox without the network), so the real `pushManager.subscribe`
//! fails. The test replaces `PushManager.prototype.subscribe` through WebDriver with a
//! function that records the options it was given and returns a subscription-like object
//! made from keys the test generated. Everything else — the service worker, the page script,
//! the CSRF-checked form, the server — is the real thing.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/phone.rs"]
mod phone;
#[path = "common/play.rs"]
mod play;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use common::{Backend, TestApp};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use phone::Phone;
use serde_json::json;

#[actix_web::test]
async fn the_settings_page_turns_on_push_in_this_browser() {
    let browser = Phone::start().await;
    let sqlite = TestApp::spawn(Backend::Sqlite).await;
    turn_on_and_remove(&sqlite, &browser).await;
    browser.open("about:blank").await;
    browser.client.delete_all_cookies().await.unwrap();
    drop(sqlite);
    let mut postgres = TestApp::spawn(Backend::Postgres).await;
    turn_on_and_remove(&postgres, &browser).await;
    browser.stop().await;
    // The process exits right after this test: its workers must be done with PostgreSQL
    // first (`TestApp::shutdown`).
    postgres.shutdown().await;
}

/// A browser's push keys, as the test's stand-in for the push service gives them.
fn browser_keys() -> (String, String) {
    let secret = loop {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap();
        if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
            break secret;
        }
    };
    let mut auth = [0u8; 16];
    getrandom::fill(&mut auth).unwrap();
    (
        URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false)),
        URL_SAFE_NO_PAD.encode(auth),
    )
}

/// The fake `subscribe`: records `applicationServerKey` (base64url) and `userVisibleOnly`,
/// answers a subscription-like object with the test's endpoint and keys.
const FAKE_SUBSCRIBE: &str = r"
const given = arguments[0];
PushManager.prototype.subscribe = function (options) {
  const key = new Uint8Array(options.applicationServerKey);
  let binary = '';
  key.forEach(function (b) { binary += String.fromCharCode(b); });
  // Kept across the reload the form makes.
  sessionStorage.setItem('subscribedWith', JSON.stringify({
    key: btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    userVisibleOnly: options.userVisibleOnly,
  }));
  return Promise.resolve({
    endpoint: given.endpoint,
    expirationTime: null,
    toJSON: function () {
      return { endpoint: given.endpoint, expirationTime: null,
               keys: { p256dh: given.p256dh, auth: given.auth } };
    },
  });
};
return true;
";

async fn turn_on_and_remove(app: &TestApp, browser: &Phone) {
    let bert = play::player(&app.pool, "bert");
    browser.sign_in(app, "bert").await;
    browser.open(&format!("{}/settings", app.base)).await;
    browser
        .wait_for_text("Turn on notifications in this browser")
        .await;

    // The service worker registers, for the whole site.
    browser
        .client
        .execute(
            "navigator.serviceWorker.ready.then(function (r) { window.workerScope = r.scope; }); \
             return true;",
            vec![],
        )
        .await
        .unwrap();
    let scope = format!("{}/", app.base);
    browser
        .wait_until(
            &format!("return window.workerScope === {}", json!(scope)),
            "the service worker with scope /",
        )
        .await;

    let (p256dh, auth) = browser_keys();
    let endpoint = format!("https://push.example.org/send/{}", &auth[..8]);
    browser
        .client
        .execute(
            FAKE_SUBSCRIBE,
            vec![json!({"endpoint": endpoint, "p256dh": p256dh, "auth": auth})],
        )
        .await
        .unwrap();
    browser.click("#push-subscribe button[type=submit]").await;
    let page = browser
        .wait_for_text("Notifications are on in this browser")
        .await;
    assert!(page.contains("id=\"push-devices\""), "{page}");
    // Named from Chromium's User-Agent.
    assert!(page.contains("Chrome on Linux"), "{page}");

    // It subscribed with the server's key, for notifications the user sees.
    let subscribed = browser
        .client
        .execute(
            "return JSON.parse(sessionStorage.getItem('subscribedWith'))",
            vec![],
        )
        .await
        .unwrap();
    let key = app.get("/v1/push/key", None).await;
    let public_key = key.body["public_key"].as_str().unwrap();
    assert_eq!(subscribed["key"], public_key, "{subscribed}");
    assert_eq!(subscribed["userVisibleOnly"], true);

    // In the database, for bert, with the browser's keys.
    let rows = {
        let mut conn = app.conn();
        let account = turnpost_server::db::accounts::by_name_key(&mut conn, "bert")
            .unwrap()
            .unwrap();
        turnpost_server::db::push::subscriptions_of_all(&mut conn, &[account.id]).unwrap()
    };
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].endpoint, endpoint);
    assert_eq!(rows[0].p256dh, p256dh);
    assert_eq!(rows[0].auth, auth);
    let listed = common::get(app, "/v1/push/subscriptions", &bert).await;
    assert_eq!(listed.body["subscriptions"][0]["id"], rows[0].id);

    // The push switches are their own: "Your turn" off here leaves the webhooks' on.
    browser
        .click("form[action=\"/settings/push/switches\"] input[name=\"turn\"]")
        .await;
    browser
        .click("form[action=\"/settings/push/switches\"] button[type=submit]")
        .await;
    browser.wait_for_text("Notification switches saved").await;
    let shown = common::get(app, "/v1/me/notifications", &bert).await;
    assert_eq!(shown.body["push"]["turn"], false, "{shown:?}");
    assert_eq!(shown.body["push"]["game_over"], true, "{shown:?}");
    assert_eq!(shown.body["webhooks"]["turn"], true, "{shown:?}");

    // Its Remove button.
    browser
        .click(&format!(
            "button[aria-label=\"Remove device {}\"]",
            rows[0].id
        ))
        .await;
    let page = browser
        .wait_for_text("That device gets no more notifications")
        .await;
    assert!(!page.contains("id=\"push-devices\""), "{page}");
    let listed = common::get(app, "/v1/push/subscriptions", &bert).await;
    assert_eq!(listed.body["subscriptions"], json!([]));
}
