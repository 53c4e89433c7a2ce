//! Signing up, in and out in a real headless Chromium at 375 px (a phone), with the code read
//! from the SMTP sink, and signing in by the mailed link; changing a mail switch on the
//! settings page. No API call and no CLI: only what a person does in the browser.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

#[path = "common/chromium.rs"]
mod chromium;
mod common;
#[path = "common/web.rs"]
mod web;

use chromium::Chromium;
use common::{code_in, Backend, TestApp};

#[actix_web::test]
async fn sign_up_and_in_at_375_px() {
    let mut app = TestApp::spawn(Backend::Postgres).await;
    let phone = Chromium::start(375).await;
    by_code(&app, &phone).await;
    phone.stop().await;
    let phone = Chromium::start(375).await;
    by_link(&app, &phone).await;
    phone.stop().await;
    // The process exits right after this test: its workers must be done with PostgreSQL
    // first (`TestApp::shutdown`).
    app.shutdown().await;
}

/// Sign up from the home page, type the code, change a mail switch, sign out.
async fn by_code(app: &TestApp, phone: &Chromium) {
    phone.open(&format!("{}/", app.base)).await;
    phone.wait_for_text("Play in your browser").await;
    phone.fits("home-signed-out-375").await;
    phone.click("main a[href=\"/signup\"]").await;
    phone.wait_for_text("id=\"name\"").await;
    phone.fits("sign-up-375").await;
    phone.fill("#name", "Pia").await;
    phone.fill("#email", "pia@example.org").await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("id=\"code\"").await;
    phone.fits("code-375").await;
    let mail = app.smtp.wait_for("pia@example.org", 1).await;
    phone.fill("#code", &code_in(&mail[0].data)).await;
    phone.click("form.stack button[type=submit]").await;
    let home = phone.wait_for_text("action=\"/signout\"").await;
    assert!(home.contains(">Pia<"), "{home}");
    phone.fits("home-signed-in-375").await;

    // The account links are in the site menu (issue 47).
    phone.click("header details.menu summary").await;
    phone.click("header a[href=\"/settings\"]").await;
    phone.wait_for_text("All mail is on.").await;
    phone.fits("settings-375").await;
    phone.click("input[name=reminders]").await;
    phone
        .click("form[action=\"/settings/notifications\"] button[type=submit]")
        .await;
    phone
        .wait_for_text("Switched off: <strong>deadline reminders</strong>.")
        .await;
    // The account links are in the site menu (issue 47).
    phone.click("header details.menu summary").await;
    phone.click("header form[action=\"/signout\"] button").await;
    let home = phone.wait_for_text("href=\"/signin\"").await;
    assert!(!home.contains(">Pia<"), "{home}");
}

/// Sign in by the link in the code mail.
async fn by_link(app: &TestApp, phone: &Chromium) {
    phone.open(&format!("{}/signin", app.base)).await;
    phone.wait_for_text("id=\"email\"").await;
    phone.fill("#email", "pia@example.org").await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("id=\"code\"").await;
    let mail = app.smtp.wait_for("pia@example.org", 2).await;
    let text = web::text_of(&mail[1].data);
    let line = text
        .lines()
        .find(|l| l.contains("/signin/link/"))
        .unwrap_or_else(|| panic!("no sign-in link in:\n{text}"));
    let link = &line[line.find("/signin/link/").unwrap()..];
    phone.open(&format!("{}{}", app.base, link.trim())).await;
    phone.wait_for_text("action=\"/signin/link\"").await;
    phone.fits("sign-in-link-375").await;
    phone.click("form.stack button[type=submit]").await;
    let home = phone.wait_for_text("action=\"/signout\"").await;
    assert!(home.contains(">Pia<"), "{home}");
}
