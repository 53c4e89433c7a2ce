//! A headless Chromium at a phone's width (375 CSS px) over WebDriver, or at a desktop's (1280
//! px, for its screenshots), and the checks every page kind gets there: no sideways scrolling,
//! no serious or critical axe-core violation, and targets big enough for a finger. axe-core is the npm package, installed with npm under
//! `target/axe-core/` when it is missing (README, Test).
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
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// A phone's width in CSS pixels.
pub const PHONE_WIDTH: u32 = 375;
/// A desktop's width in CSS pixels (a laptop's screen).
pub const DESKTOP_WIDTH: u32 = 1280;

/// chromedriver on a port it picked and announced, and one Chromium session.
pub struct Phone {
    driver: Child,
    pub client: Client,
    profile: PathBuf,
    axe: String,
    /// The screen's width in CSS pixels.
    pub width: u32,
}

impl Phone {
    pub async fn start() -> Self {
        Self::start_with(false, PHONE_WIDTH).await
    }

    /// A phone whose system asks for the dark theme (`prefers-color-scheme: dark`).
    pub async fn start_dark() -> Self {
        Self::start_with(true, PHONE_WIDTH).await
    }

    /// A phone whose screen is `width` CSS px wide (320: the narrowest phones).
    pub async fn start_at(width: u32) -> Self {
        Self::start_with(false, width).await
    }

    /// A desktop browser's window, 1280 × 1100 px (its page about 960 px high), with a mouse (in the dark theme when
    /// `dark`).
    pub async fn start_desktop(dark: bool) -> Self {
        Self::start_with(dark, DESKTOP_WIDTH).await
    }

    async fn start_with(dark: bool, width: u32) -> Self {
        let axe = axe_source();
        let (driver, port) = chromedriver::start();
        let profile = chromedriver::unique_temp_path("turnpost-phone");
        std::fs::create_dir_all(&profile).unwrap();
        let mut options = json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars",
                format!("--user-data-dir={}", profile.display()),
                // The dark theme's media query (checked: matchMedia answers true).
                if dark { "--force-dark-mode" } else { "--no-default-browser-check" },
            ],
        });
        if width < 500 {
            // Headless windows are at least 500 px wide: a phone's screen is emulated (with
            // touch input, as a phone has).
            options["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": 800, "pixelRatio": 2.0, "touch": true},
            });
        } else if let Some(args) = options["args"].as_array_mut() {
            args.push(json!(format!("--window-size={width},1100")));
        }
        let capabilities = json!({"browserName": "chrome", "goog:chromeOptions": options});
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a Chromium session");
        Self {
            driver,
            client,
            profile,
            axe,
            width,
        }
    }

    pub async fn stop(mut self) {
        let _ = self.client.close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }

    /// Saves what the screen shows as `target/screenshots/<name>.png` (for looking at the pages,
    /// issue 47; the few judged are kept in docs/screenshots/).
    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let name: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Signs `name` in from the sign-in form with the mailed code (the first mail to them: sign
    /// in before anything else mails them).
    pub async fn sign_in(&self, app: &crate::common::TestApp, name: &str) {
        let email = format!("{name}@example.org");
        self.open(&format!("{}/signin", app.base)).await;
        self.fill("#email", &email).await;
        self.click("form.stack button[type=submit]").await;
        self.wait_for_text("id=\"code\"").await;
        let mail = app.smtp.wait_for(&email, 1).await;
        self.fill("#code", &crate::common::code_in(&mail[0].data))
            .await;
        self.click("form.stack button[type=submit]").await;
        self.wait_for_text("Your games").await;
    }

    /// Opens `url` and waits until the page has loaded.
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.unwrap();
        self.wait_until("return document.readyState === 'complete'", url)
            .await;
    }

    /// What `script` returns, run with `args`.
    pub async fn run(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute(script, args).await.unwrap()
    }

    /// The text of the element `css`, trimmed.
    pub async fn text_of(&self, css: &str) -> String {
        let text = self
            .run(
                "return document.querySelector(arguments[0]).textContent.trim()",
                vec![json!(css)],
            )
            .await;
        text.as_str().unwrap_or_default().to_owned()
    }

    /// The number a script returns.
    pub async fn number(&self, script: &str) -> f64 {
        let value = self.client.execute(script, vec![]).await.unwrap();
        value
            .as_f64()
            .unwrap_or_else(|| panic!("{script} gave {value}"))
    }

    /// Waits until `script` returns true (`what` names it in the failure).
    pub async fn wait_until(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let value = self.client.execute(script, vec![]).await.unwrap();
            if value == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the page's HTML contains `text`; the HTML.
    pub async fn wait_for_text(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let source = self.client.source().await.unwrap();
            if source.contains(text) {
                return source;
            }
            let shown = source.split("</svg>").last().unwrap_or(&source);
            assert!(Instant::now() < deadline, "no {text:?} in:\n{shown}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    /// Taps board cell `name` (the page's script adds a target to each cell); where the zoom is
    /// offered and off, "Zoom board" first (the tap would zoom the board).
    pub async fn tap_cell(&self, name: &str) {
        let zoom_off = "const z = document.getElementById('zoom-board');\
                        return !!z && !z.hidden && z.getAttribute('aria-pressed') === 'false'";
        if self.client.execute(zoom_off, vec![]).await.unwrap() == json!(true) {
            self.click("#zoom-board").await;
        }
        let css = format!("g[data-cell=\"{name}\"] .cell-hit");
        // A board wider than the screen scrolls inside its frame: bring the cell into view.
        self.client
            .execute(
                "document.querySelector(arguments[0]).scrollIntoView({block: 'center', inline: 'center'});",
                vec![json!(css)],
            )
            .await
            .unwrap();
        self.click(&css).await;
    }

    /// Types `text` into the empty field `css`.
    pub async fn fill(&self, css: &str, text: &str) {
        let field = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    pub async fn value_of(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap()
            .unwrap_or_default()
    }

    /// The page is no wider than the screen: `scrollWidth` of the document at most its width.
    pub async fn assert_fits(&self, what: &str) {
        let width = self.width;
        // A phone widens the layout viewport to fit a page wider than the screen.
        let inner = self.number("return window.innerWidth").await;
        assert!(
            inner <= f64::from(width),
            "{what} is laid out {inner} px wide on a {width} px screen; reaching past it: {}",
            self.wider_than_the_screen().await
        );
        let scroll = self
            .number("return document.documentElement.scrollWidth")
            .await;
        assert!(
            scroll <= f64::from(width),
            "{what} is {scroll} px wide on a {width} px screen"
        );
    }

    /// The innermost elements that reach past the screen's right edge, as `tag.class#id`.
    async fn wider_than_the_screen(&self) -> String {
        let found = self
            .client
            .execute(
                "return [...document.querySelectorAll('body *')]\
                   .filter(e => e.getBoundingClientRect().right > arguments[0] + 0.5)\
                   .filter(e => ![...e.children].some(c => c.getBoundingClientRect().right > arguments[0] + 0.5))\
                   .slice(0, 8)\
                   .map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right))\
                   .join(', ')",
                vec![json!(self.width)],
            )
            .await
            .unwrap();
        found.as_str().unwrap_or_default().to_owned()
    }

    /// Runs axe-core on the page; fails on any serious or critical violation, listing each
    /// with the elements it concerns.
    pub async fn assert_accessible(&self, what: &str) {
        let loaded = self
            .client
            .execute(&format!("{};\nreturn typeof axe;", self.axe), vec![])
            .await
            .unwrap();
        assert_eq!(loaded, json!("object"), "axe-core loads into {what}");
        let found = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];\
                 axe.run(document, {resultTypes: ['violations']})\
                   .then(r => done(r.violations\
                     .filter(v => v.impact === 'serious' || v.impact === 'critical')\
                     .map(v => ({id: v.id, impact: v.impact, help: v.help,\
                                 nodes: v.nodes.slice(0, 5).map(n => n.html)}))))\
                   .catch(e => done([{id: 'axe-error', help: String(e), nodes: []}]));",
                vec![],
            )
            .await
            .unwrap();
        let violations = found.as_array().cloned().unwrap_or_default();
        assert!(
            violations.is_empty(),
            "{what}: axe-core finds {} serious or critical violation(s):\n{}",
            violations.len(),
            serde_json::to_string_pretty(&violations).unwrap()
        );
    }

    /// The bounding boxes (width, height) of the elements `css` selects.
    pub async fn boxes(&self, css: &str) -> Vec<(f64, f64)> {
        let found = self
            .client
            .execute(
                "return Array.from(document.querySelectorAll(arguments[0])).map(e => {\
                   const r = e.getBoundingClientRect(); return [r.width, r.height]; });",
                vec![json!(css)],
            )
            .await
            .unwrap();
        found
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b[0].as_f64().unwrap(), b[1].as_f64().unwrap()))
            .collect()
    }

    /// Every element `css` selects (at least one) is at least `least` × `least` CSS px.
    pub async fn assert_targets(&self, css: &str, least: f64) -> usize {
        let boxes = self.boxes(css).await;
        assert!(!boxes.is_empty(), "no {css} on the page");
        for (width, height) in &boxes {
            assert!(
                *width >= least && *height >= least,
                "a {css} is {width:.1} × {height:.1} px, less than {least} × {least}"
            );
        }
        let smallest = boxes
            .iter()
            .copied()
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))
            .unwrap_or_default();
        eprintln!(
            "{css}: {} targets, the smallest {:.1} × {:.1} px",
            boxes.len(),
            smallest.0,
            smallest.1
        );
        boxes.len()
    }
}

/// axe-core's script, installed with npm under `target/axe-core/` on first use (once a
/// process: tests running at once wait for the one installing it).
fn axe_source() -> String {
    static SOURCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SOURCE.get_or_init(install_axe).clone()
}

fn install_axe() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/axe-core");
    let script = dir.join("node_modules/axe-core/axe.min.js");
    if !script.exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .arg("axe-core@4")
            .status()
            .expect("npm (README, Test: Node and npm install axe-core for the accessibility test)");
        assert!(status.success(), "npm install axe-core failed: {status}");
    }
    std::fs::read_to_string(&script).expect("axe-core's axe.min.js")
}
