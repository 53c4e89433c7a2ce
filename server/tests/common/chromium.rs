//! A headless Chromium (Debian's `chromium` and `chromium-driver`) driven over WebDriver, for
//! page tests that run in a real browser: start, open, fill, click, wait for text, and check a
//! page at a phone's width. Each [`Chromium`] is one browser with its own profile (its own
//! cookies), so two of them are two people.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

#[path = "chromedriver.rs"]
mod chromedriver;

use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

/// chromedriver on a port it picked and announced, and one Chromium session.
pub struct Chromium {
    driver: Child,
    /// The WebDriver session.
    pub client: Client,
    profile: PathBuf,
}

impl Chromium {
    /// Starts chromedriver and a browser `width` px wide.
    pub async fn start(width: u32) -> Self {
        let (driver, port) = chromedriver::start();
        let profile = chromedriver::unique_temp_path("turnpost-chromium");
        std::fs::create_dir_all(&profile).unwrap();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", format!("--window-size={width},900"),
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a Chromium session");
        client.set_window_size(width, 900).await.unwrap();
        Self {
            driver,
            client,
            profile,
        }
    }

    /// Closes the browser and removes its profile.
    pub async fn stop(mut self) {
        let _ = self.client.close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }

    /// Opens `url`.
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.unwrap();
    }

    /// Waits until the page's HTML contains `text`; the HTML.
    pub async fn wait_for_text(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let source = self.client.source().await.unwrap();
            if source.contains(text) {
                return source;
            }
            assert!(Instant::now() < deadline, "no {text:?} in:\n{source}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Clicks the element `css`.
    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    /// Types `text` into the field `css` (emptied first).
    pub async fn fill(&self, css: &str, text: &str) {
        let field = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    /// Fails when the page scrolls sideways; saves a screenshot as `name` under
    /// `target/screenshots/`.
    pub async fn fits(&self, name: &str) {
        let inner = self
            .client
            .execute("return window.innerWidth", vec![])
            .await
            .unwrap();
        let scroll = self
            .client
            .execute("return document.documentElement.scrollWidth", vec![])
            .await
            .unwrap();
        assert!(
            scroll.as_u64() <= inner.as_u64(),
            "{name} scrolls sideways: content {scroll} px in {inner} px"
        );
        let png = self.client.screenshot().await.unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}
