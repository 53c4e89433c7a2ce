//! A rough edge of the game page only a browser's layout shows (issue 47, point 5), in a real
//! headless Chromium at 375 CSS px: the conditional move's legend sits inside its fieldset's
//! box, below the top border, not astride it (the default rendering).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

#[path = "common/chromedriver.rs"]
mod chromedriver;
mod common;
#[path = "common/play.rs"]
mod play;
#[path = "common/web.rs"]
mod web;

use std::time::{Duration, Instant};

use common::{Backend, TestApp};
use fantoccini::ClientBuilder;
use serde_json::{json, Value};

#[actix_web::test]
async fn the_conditional_legend_is_inside_its_box() {
    let app = TestApp::spawn(Backend::Sqlite).await;
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
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let link = web::play_link_in(&web::text_of(&card.data), id);
    let path = &link[link.find("/games/").unwrap()..];

    let (mut driver, port) = chromedriver::start();
    let profile = chromedriver::unique_temp_path("turnpost-rough-edges");
    std::fs::create_dir_all(&profile).unwrap();
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
            ],
            "mobileEmulation": {
                "deviceMetrics": {"width": 375, "height": 700, "pixelRatio": 2.0, "touch": true},
            },
        },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session");
    // The play link sets the seat's cookie and leads to the page with the move form.
    client.goto(&format!("{}{path}", app.base)).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let ready = "return document.readyState === 'complete' \
                 && !!document.querySelector('fieldset.conditional legend')";
    while client.execute(ready, vec![]).await.unwrap() != json!(true) {
        assert!(
            Instant::now() < deadline,
            "no conditional fieldset on the page"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let measured = client
        .execute(
            "const set = document.querySelector('fieldset.conditional');
             const legend = set.querySelector('legend');
             const label = set.querySelector('label');
             const box = set.getBoundingClientRect();
             const border = parseFloat(getComputedStyle(set).borderTopWidth);
             const l = legend.getBoundingClientRect();
             return {box_top: box.top, border: border, legend_top: l.top,
                     legend_bottom: l.bottom, label_top: label.getBoundingClientRect().top};",
            vec![],
        )
        .await
        .unwrap();
    let _ = client.close().await;
    let _ = driver.kill();
    let _ = driver.wait();
    let _ = std::fs::remove_dir_all(&profile);
    let number = |key: &str| measured[key].as_f64().unwrap();
    // Drawn astride the border, the legend's top is the box's top; inside, it is below the
    // border, and the fields below it.
    assert!(
        number("legend_top") >= number("box_top") + number("border"),
        "{measured}"
    );
    assert!(
        number("label_top") >= number("legend_bottom") - 0.5,
        "{measured}"
    );
}
