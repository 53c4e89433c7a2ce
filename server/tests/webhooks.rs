//! Webhooks against a real server on both backends, with receivers in the test (tiny HTTP
//! servers on 127.0.0.1) and every signed delivery checked by an independent Standard Webhooks
//! implementation: the `standardwebhooks` package from PyPI, in a virtualenv under
//! `target/webhook-venv` (made here when missing, as `scripts/test` does).
//!
//! - an endpoint answering 500 twice, then 200, gets the event three times with one
//!   `webhook-id`, and its log shows the three attempts;
//! - a URL on 127.0.0.1 is refused without the operator's key, and a name resolving to
//!   loopback is refused at delivery time;
//! - a redirect is not followed (a 3xx is a failure);
//! - the ntfy, Discord and Slack bodies have their documented shapes;
//! - muting a game stops its turn webhooks, and the game's end still comes;
//! - an endpoint failing for three days is switched off and its owner mailed;
//! - the cap, unknown ids, secret rotation.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{get, patch, post, Backend, TestApp};
use serde_json::{json, Value};

both_backends!(
    a_failing_endpoint_gets_one_webhook_id_until_it_answers,
    loopback_is_refused_without_the_operators_key,
    a_redirect_is_not_followed,
    ntfy_discord_and_slack_bodies_have_their_shapes,
    muting_a_game_stops_its_turn_webhooks,
    an_endpoint_failing_for_three_days_is_switched_off_and_its_owner_mailed,
    the_cap_unknown_ids_and_a_rotated_secret,
    webhook_switches_are_apart_from_mail,
    the_settings_page_adds_lists_tests_and_switches,
);

/// One request a receiver took.
#[derive(Debug, Clone)]
struct Arrival {
    path: String,
    /// Header names in lower case.
    headers: BTreeMap<String, String>,
    body: String,
}

/// A tiny HTTP server on 127.0.0.1: answers each request with the next scripted answer
/// (status, extra headers), then 200.
#[derive(Clone)]
struct Receiver {
    port: u16,
    arrivals: Arc<Mutex<Vec<Arrival>>>,
}

impl Receiver {
    fn start(script: Vec<(u16, Vec<(String, String)>)>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let script = Arc::new(Mutex::new(VecDeque::from(script)));
        let seen = arrivals.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    continue;
                }
                let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                let mut headers = BTreeMap::new();
                loop {
                    let mut header = String::new();
                    reader.read_line(&mut header).unwrap();
                    let header = header.trim_end();
                    if header.is_empty() {
                        break;
                    }
                    let (name, value) = header.split_once(':').unwrap();
                    headers.insert(name.trim().to_lowercase(), value.trim().to_owned());
                }
                let length: usize = headers
                    .get("content-length")
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let mut body = vec![0u8; length];
                reader.read_exact(&mut body).unwrap();
                seen.lock().unwrap().push(Arrival {
                    path,
                    headers,
                    body: String::from_utf8(body).unwrap(),
                });
                let (status, extra) = script
                    .lock()
                    .unwrap()
                    .pop_front()
                    .unwrap_or((200, Vec::new()));
                let mut answer =
                    format!("HTTP/1.1 {status} X\r\nContent-Length: 2\r\nConnection: close\r\n");
                for (name, value) in extra {
                    answer.push_str(&format!("{name}: {value}\r\n"));
                }
                answer.push_str("\r\nok");
                let _ = stream.write_all(answer.as_bytes());
            }
        });
        Self { port, arrivals }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn arrivals(&self) -> Vec<Arrival> {
        self.arrivals.lock().unwrap().clone()
    }

    /// Waits until at least `n` requests arrived (at most 60 s: a loaded machine).
    async fn wait_for(&self, n: usize) -> Vec<Arrival> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let now = self.arrivals();
            if now.len() >= n {
                return now;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} of {n} deliveries arrived: {now:#?}",
                now.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The virtualenv with `standardwebhooks`, made when missing (into a fresh directory renamed
/// into place, so two test processes never share a half-made one).
fn verifier_python() -> PathBuf {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    let venv = target.join("webhook-venv");
    let python = venv.join("bin/python");
    let ready = |python: &Path| {
        std::process::Command::new(python)
            .args(["-c", "import standardwebhooks"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return python;
    }
    let fresh = target.join(format!("webhook-venv.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    let made = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(&fresh)
        .status()
        .unwrap();
    assert!(
        made.success(),
        "python3 -m venv failed (Debian: apt-get install python3-venv)"
    );
    let installed = std::process::Command::new(fresh.join("bin/pip"))
        .args(["install", "-q", "standardwebhooks"])
        .status()
        .unwrap();
    assert!(installed.success(), "pip install standardwebhooks failed");
    if std::fs::rename(&fresh, &venv).is_err() {
        // Another test process made it first.
        let _ = std::fs::remove_dir_all(&fresh);
    }
    assert!(ready(&python), "no standardwebhooks in {}", venv.display());
    python
}

/// Checks every arrival's signature with `secret` through the Python package; panics with its
/// message when one does not verify.
fn verify_all(secret: &str, arrivals: &[Arrival]) {
    if let Err(why) = verified(secret, arrivals) {
        panic!("standardwebhooks refused a delivery: {why}");
    }
}

/// Whether every arrival verifies with `secret` (the Python package's message when not).
fn verified(secret: &str, arrivals: &[Arrival]) -> Result<(), String> {
    let items: Vec<Value> = arrivals
        .iter()
        .map(|a| json!({"headers": a.headers, "body": a.body}))
        .collect();
    let input = json!({"secret": secret, "items": items}).to_string();
    let script = "import json, sys\n\
        from standardwebhooks.webhooks import Webhook\n\
        d = json.load(sys.stdin)\n\
        for item in d['items']:\n\
        \x20   try:\n\
        \x20       Webhook(d['secret']).verify(item['body'], item['headers'])\n\
        \x20   except json.JSONDecodeError:\n\
        \x20       pass  # the signature matched; the body (ntfy's) is text\n\
        print('verified', len(d['items']))\n";
    let mut child = std::process::Command::new(verifier_python())
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("verified {}", arrivals.len())
    );
    Ok(())
}

/// A server whose webhooks may reach 127.0.0.0/8 over plain http.
async fn app_allowing_loopback(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, |config| {
        config.outbound_allow = "127.0.0.0/8".parse().unwrap();
        config.outbound_allow_http = true;
    })
    .await
}

/// anna (seat 1) and bert (seat 2) in a started Kefren game anna challenged bert to; answers
/// their tokens and the game's id.
async fn started_game(app: &TestApp) -> (String, String, i64) {
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = post(
        app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "options": {}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    (anna, bert, id)
}

/// Plays the first legal move of `token`'s seat; answers it.
async fn play_first(app: &TestApp, id: i64, token: &str) -> String {
    let view = get(app, &format!("/v1/games/{id}"), token).await;
    let notation = view.body["legal_moves"][0].as_str().unwrap().to_owned();
    let ply = view.body["ply"].as_u64().unwrap();
    let played = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": notation, "ply": ply}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    notation
}

/// Adds a webhook; answers (id, secret).
async fn add(app: &TestApp, token: &str, body: Value) -> (i64, String) {
    let answer = post(app, "/v1/webhooks", token, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let secret = answer.body["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"), "{secret}");
    (answer.body["webhook"]["id"].as_i64().unwrap(), secret)
}

/// The webhook's delivery log once it holds `n` attempts (at most 20 s).
async fn attempts(app: &TestApp, token: &str, id: i64, n: usize) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let shown = get(app, &format!("/v1/webhooks/{id}"), token).await;
        assert_eq!(shown.status, 200, "{shown:?}");
        let log = shown.body["attempts"].as_array().unwrap().clone();
        if log.len() >= n {
            return log;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {n} attempts logged: {shown:?}",
            log.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn a_failing_endpoint_gets_one_webhook_id_until_it_answers(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![(500, vec![]), (500, vec![])]);
    let (anna, bert, game) = started_game(&app).await;
    let (hook, secret) = add(
        &app,
        &bert,
        json!({"url": receiver.url("/hook"), "events": ["move"]}),
    )
    .await;
    let played = play_first(&app, game, &anna).await;

    let arrivals = receiver.wait_for(3).await;
    let log = attempts(&app, &bert, hook, 3).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.arrivals().len(), 3, "delivered after success");
    let ids: Vec<&str> = arrivals
        .iter()
        .map(|a| a.headers["webhook-id"].as_str())
        .collect();
    assert!(ids[0].starts_with("msg_"), "{ids:?}");
    assert!(ids.iter().all(|id| *id == ids[0]), "{ids:?}");
    assert!(arrivals.iter().all(|a| a.body == arrivals[0].body));
    verify_all(&secret, &arrivals);
    // The check can fail: a changed body, or another secret, does not verify.
    let mut tampered = arrivals[0].clone();
    tampered.body = tampered.body.replacen("move", "mové", 1);
    let refused = verified(&secret, &[tampered]).unwrap_err();
    assert!(refused.contains("No matching signature"), "{refused}");
    assert!(verified("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", &arrivals[..1]).is_err());
    // Nothing of the server's: no cookie, no authorization.
    for arrival in &arrivals {
        assert!(!arrival.headers.contains_key("cookie"));
        assert!(!arrival.headers.contains_key("authorization"));
        assert_eq!(arrival.headers["content-type"], "application/json");
    }

    let body: Value = serde_json::from_str(&arrivals[0].body).unwrap();
    assert_eq!(body["type"], "move");
    assert_eq!(body["data"]["game"], game);
    assert_eq!(body["data"]["last_move"], played.as_str());
    assert_eq!(body["data"]["for_you"], "turn");
    assert_eq!(body["url"], format!("http://127.0.0.1:8080/games/{game}"));

    // Newest first: delivered, then the two failures.
    let statuses: Vec<(bool, u64)> = log
        .iter()
        .map(|a| {
            (
                a["delivered"].as_bool().unwrap(),
                a["status"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(statuses, [(true, 200), (false, 500), (false, 500)]);
    assert!(log.iter().all(|a| a["webhook_id"] == ids[0]));
    assert_eq!(log[1]["error"], "answered 500");
    app.shutdown().await;
}

async fn loopback_is_refused_without_the_operators_key(backend: Backend) {
    let mut app = TestApp::spawn_with(backend, |config| config.outbound_allow_http = true).await;
    let receiver = Receiver::start(vec![]);
    let anna = play::player(&app.pool, "anna");
    for url in [
        receiver.url("/hook"),
        format!("https://127.0.0.1:{}/hook", receiver.port),
        "https://[::1]/hook".to_owned(),
        "https://10.0.0.7/hook".to_owned(),
        "https://169.254.169.254/latest".to_owned(),
    ] {
        let refused = post(&app, "/v1/webhooks", &anna, json!({"url": url})).await;
        assert_eq!(refused.status, 422, "{url}: {refused:?}");
        assert_eq!(refused.error_code(), "invalid_webhook");
        assert!(
            refused.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("TURNPOST_OUTBOUND_ALLOW"),
            "{refused:?}"
        );
    }
    let not_https = TestApp::spawn(backend).await;
    let bert = play::player(&not_https.pool, "bert");
    let refused = post(
        &not_https,
        "/v1/webhooks",
        &bert,
        json!({"url": "http://example.org/hook"}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");

    // A name is resolved at delivery time, and refused there.
    let (hook, _) = add(
        &app,
        &anna,
        json!({"url": format!("http://localhost:{}/hook", receiver.port)}),
    )
    .await;
    let queued = post(&app, &format!("/v1/webhooks/{hook}/test"), &anna, json!({})).await;
    assert_eq!(queued.status, 202, "{queued:?}");
    let log = attempts(&app, &anna, hook, 1).await;
    assert_eq!(log[0]["delivered"], false);
    assert!(log[0].get("status").is_none(), "{log:?}");
    let error = log[0]["error"].as_str().unwrap();
    assert!(
        error.contains("refused address") && error.contains("loopback"),
        "{error}"
    );
    assert!(receiver.arrivals().is_empty());
    app.shutdown().await;
}

async fn a_redirect_is_not_followed(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let trap = Receiver::start(vec![]);
    let redirecting = Receiver::start(vec![
        (
            302,
            vec![("Location".to_owned(), trap.url("/inside"))],
        );
        50
    ]);
    let anna = play::player(&app.pool, "anna");
    let (hook, _) = add(&app, &anna, json!({"url": redirecting.url("/hook")})).await;
    let queued = post(&app, &format!("/v1/webhooks/{hook}/test"), &anna, json!({})).await;
    assert_eq!(queued.status, 202, "{queued:?}");
    let log = attempts(&app, &anna, hook, 1).await;
    assert_eq!(log[0]["delivered"], false);
    assert_eq!(log[0]["status"], 302);
    assert!(
        log[0]["error"]
            .as_str()
            .unwrap()
            .contains("redirects are not followed"),
        "{log:?}"
    );
    assert_eq!(log[0]["webhook_id"], queued.body["webhook_id"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(trap.arrivals().is_empty(), "the redirect was followed");
    // Retried (a failure), never elsewhere.
    let tries = redirecting.arrivals();
    assert!(!tries.is_empty());
    assert!(tries
        .iter()
        .all(|t| t.headers["webhook-id"] == queued.body["webhook_id"].as_str().unwrap()));
    let shown = get(&app, &format!("/v1/webhooks/{hook}"), &anna).await;
    assert!(
        shown.body["webhook"]["failing_since"].is_string(),
        "{shown:?}"
    );
    app.shutdown().await;
}

async fn ntfy_discord_and_slack_bodies_have_their_shapes(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![]);
    let (anna, bert, game) = started_game(&app).await;
    let mut secrets = BTreeMap::new();
    for format in ["ntfy", "discord", "slack"] {
        let mut body = json!({"url": receiver.url(&format!("/{format}")), "format": format, "events": ["move"]});
        if format == "ntfy" {
            body["ntfy_token"] = json!("tk_topic_token");
        }
        let (_, secret) = add(&app, &bert, body).await;
        secrets.insert(format!("/{format}"), secret);
    }
    let refused = post(
        &app,
        "/v1/webhooks",
        &bert,
        json!({"url": receiver.url("/x"), "format": "slack", "ntfy_token": "tk"}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");
    // Judged as sent, as the document's pattern says: never trimmed into a token.
    for token in [" tk", "tk ", "t k", "tökén", &"t".repeat(201)] {
        let refused = post(
            &app,
            "/v1/webhooks",
            &bert,
            json!({"url": receiver.url("/x"), "format": "ntfy", "ntfy_token": token}),
        )
        .await;
        assert_eq!(refused.status, 422, "{token:?}: {refused:?}");
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("printable ASCII"), "{message}");
    }
    let refused = post(
        &app,
        "/v1/webhooks",
        &bert,
        json!({"url": receiver.url("/x"), "format": "teams"}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");

    let played = play_first(&app, game, &anna).await;
    let arrivals = receiver.wait_for(3).await;
    let url = format!("http://127.0.0.1:8080/games/{game}");
    let by_path: BTreeMap<String, Arrival> = arrivals
        .iter()
        .map(|a| (a.path.clone(), a.clone()))
        .collect();
    for (path, arrival) in &by_path {
        verify_all(&secrets[path], std::slice::from_ref(arrival));
    }

    let ntfy = &by_path["/ntfy"];
    assert!(ntfy.headers["content-type"].starts_with("text/plain"));
    assert_eq!(ntfy.headers["click"], url);
    assert_eq!(ntfy.headers["title"], format!("Your turn: Kefren #{game}"));
    assert_eq!(ntfy.headers["tags"], "turnpost,move");
    assert_eq!(ntfy.headers["priority"], "4");
    assert_eq!(ntfy.headers["authorization"], "Bearer tk_topic_token");
    assert_eq!(
        ntfy.body,
        format!("Your turn in Kefren #{game}: anna played {played}.")
    );

    let discord: Value = serde_json::from_str(&by_path["/discord"].body).unwrap();
    let content = discord["content"].as_str().unwrap();
    assert!(
        content.contains(&played) && content.contains(&url),
        "{discord}"
    );
    assert!(content.chars().count() <= 2000);
    assert_eq!(discord["embeds"][0]["url"], url.as_str());
    assert_eq!(
        discord["embeds"][0]["title"],
        format!("Your turn: Kefren #{game}")
    );
    assert_eq!(discord["allowed_mentions"]["parse"], json!([]));

    let slack: Value = serde_json::from_str(&by_path["/slack"].body).unwrap();
    assert_eq!(slack.as_object().unwrap().len(), 1, "{slack}");
    let text = slack["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("<{url}|Your turn: Kefren #{game}> ")),
        "{text}"
    );
    assert!(text.contains(&played));
    app.shutdown().await;
}

async fn muting_a_game_stops_its_turn_webhooks(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![]);
    let (anna, bert, game) = started_game(&app).await;
    // The challenge may still be on its way to the consumer: only what follows is watched.
    add(
        &app,
        &bert,
        json!({"url": receiver.url("/hook"), "events": ["move", "game_over"]}),
    )
    .await;
    let muted = patch(&app, "/v1/me/notifications", &bert, json!({"mute": [game]})).await;
    assert_eq!(muted.status, 200, "{muted:?}");
    play_first(&app, game, &anna).await;
    let resigned = post(&app, &format!("/v1/games/{game}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let arrivals = receiver.wait_for(1).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let types: Vec<String> = receiver
        .arrivals()
        .iter()
        .map(|a| {
            serde_json::from_str::<Value>(&a.body).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    // The muted game's turn never came; its end did (as mail does).
    assert_eq!(types, ["game_over"], "{arrivals:#?}");
    app.shutdown().await;
}

async fn an_endpoint_failing_for_three_days_is_switched_off_and_its_owner_mailed(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![(503, vec![]); 10]);
    let anna = play::player(&app.pool, "anna");
    let (hook, _) = add(&app, &anna, json!({"url": receiver.url("/hook")})).await;
    // It has been failing for three days (set in the database: the test cannot wait them).
    {
        use diesel::RunQueryDsl as _;
        let three_days_ago = "2000-01-01 00:00:00";
        diesel::sql_query(format!(
            "UPDATE webhook_endpoints SET failing_since = '{three_days_ago}' WHERE id = {hook}"
        ))
        .execute(&mut *app.conn())
        .unwrap();
    }
    let queued = post(&app, &format!("/v1/webhooks/{hook}/test"), &anna, json!({})).await;
    assert_eq!(queued.status, 202, "{queued:?}");
    let mails = app.smtp.wait_for("anna@example.org", 1).await;
    let notice = mails
        .iter()
        .find(|m| m.data.contains("Your turnpost webhook was switched off"))
        .expect("no notice");
    assert!(notice.data.contains("answered 503"), "{}", notice.data);
    let shown = get(&app, &format!("/v1/webhooks/{hook}"), &anna).await;
    assert!(
        shown.body["webhook"]["disabled_at"].is_string(),
        "{shown:?}"
    );
    assert_eq!(receiver.arrivals().len(), 1);

    // A test switches it on again, and a success clears the failure.
    let queued = post(&app, &format!("/v1/webhooks/{hook}/test"), &anna, json!({})).await;
    assert_eq!(queued.status, 202, "{queued:?}");
    let log = attempts(&app, &anna, hook, 2).await;
    assert_eq!(log[0]["status"], 503);
    app.shutdown().await;
}

async fn the_cap_unknown_ids_and_a_rotated_secret(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![]);
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let (first, old_secret) = add(&app, &anna, json!({"url": receiver.url("/hook")})).await;
    for _ in 1..10 {
        add(&app, &anna, json!({"url": receiver.url("/more")})).await;
    }
    let eleventh = post(
        &app,
        "/v1/webhooks",
        &anna,
        json!({"url": receiver.url("/x")}),
    )
    .await;
    assert_eq!(eleventh.status, 409, "{eleventh:?}");
    assert_eq!(eleventh.error_code(), "webhooks_limit");
    let listed = get(&app, "/v1/webhooks", &anna).await;
    assert_eq!(listed.body["webhooks"].as_array().unwrap().len(), 10);
    assert!(
        !listed.body.to_string().contains("whsec_"),
        "a secret is listed"
    );

    // Another account's webhook is nobody else's.
    for (method, path) in [
        (reqwest::Method::GET, format!("/v1/webhooks/{first}")),
        (reqwest::Method::DELETE, format!("/v1/webhooks/{first}")),
        (reqwest::Method::POST, format!("/v1/webhooks/{first}/test")),
        (
            reqwest::Method::POST,
            format!("/v1/webhooks/{first}/secret"),
        ),
        (reqwest::Method::GET, "/v1/webhooks/999999".to_owned()),
    ] {
        let answer = app.request(method, &path, Some(&bert), None).await;
        assert_eq!(answer.status, 404, "{path}: {answer:?}");
    }
    let bad = app
        .request(
            reqwest::Method::POST,
            "/v1/webhooks",
            Some(&anna),
            Some("{\"url\": 5}"),
        )
        .await;
    assert_eq!(bad.status, 422, "{bad:?}");

    let rotated = post(
        &app,
        &format!("/v1/webhooks/{first}/secret"),
        &anna,
        json!({}),
    )
    .await;
    assert_eq!(rotated.status, 200, "{rotated:?}");
    let new_secret = rotated.body["secret"].as_str().unwrap().to_owned();
    assert!(new_secret.starts_with("whsec_") && new_secret != old_secret);
    let queued = post(
        &app,
        &format!("/v1/webhooks/{first}/test"),
        &anna,
        json!({}),
    )
    .await;
    assert_eq!(queued.status, 202, "{queued:?}");
    let arrivals = receiver.wait_for(1).await;
    verify_all(&new_secret, &arrivals);
    let body: Value = serde_json::from_str(&arrivals[0].body).unwrap();
    assert_eq!(body["type"], "test");
    assert_eq!(
        arrivals[0].headers["webhook-id"],
        queued.body["webhook_id"].as_str().unwrap()
    );

    let removed = app
        .request(
            reqwest::Method::DELETE,
            &format!("/v1/webhooks/{first}"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(removed.status, 204, "{removed:?}");
    let gone = get(&app, &format!("/v1/webhooks/{first}"), &anna).await;
    assert_eq!(gone.status, 404);
    app.shutdown().await;
}

async fn webhook_switches_are_apart_from_mail(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![]);
    let (anna, bert, game) = started_game(&app).await;
    let (hook, _) = add(
        &app,
        &bert,
        json!({"url": receiver.url("/hook"), "events": ["move", "game_over"]}),
    )
    .await;
    // Turn mail off, turn webhooks on; game-over webhooks off, game-over mail on.
    let changed = patch(
        &app,
        "/v1/me/notifications",
        &bert,
        json!({"turn_mail": "off", "webhooks": {"game_over": false}}),
    )
    .await;
    assert_eq!(changed.status, 200, "{changed:?}");
    assert_eq!(changed.body["webhooks"]["game_over"], false);
    assert_eq!(changed.body["webhooks"]["turn"], true);
    assert_eq!(changed.body["categories"]["game_over"], true);
    let shown = get(&app, "/v1/me/notifications", &bert).await;
    assert_eq!(shown.body["webhooks"], changed.body["webhooks"]);
    let refused = patch(
        &app,
        "/v1/me/notifications",
        &bert,
        json!({"webhooks": {"reminders": false}}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");

    play_first(&app, game, &anna).await;
    let arrivals = receiver.wait_for(1).await;
    let first: Value = serde_json::from_str(&arrivals[0].body).unwrap();
    assert_eq!(first["type"], "move");
    let resigned = post(&app, &format!("/v1/games/{game}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    // The game-over mail comes; the game-over webhook does not (a test delivery after it does).
    app.smtp.wait_for("bert@example.org", 1).await;
    app.game_mail_composed().await;
    let queued = post(&app, &format!("/v1/webhooks/{hook}/test"), &bert, json!({})).await;
    assert_eq!(queued.status, 202);
    receiver.wait_for(2).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let types: Vec<String> = receiver
        .arrivals()
        .iter()
        .map(|a| {
            serde_json::from_str::<Value>(&a.body).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(types, ["move", "test"]);
    app.shutdown().await;
}

/// The first hidden CSRF field of a page.
fn csrf_of(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").unwrap() + "name=\"csrf\" value=\"".len();
    page[at..].split('"').next().unwrap().to_owned()
}

async fn the_settings_page_adds_lists_tests_and_switches(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let receiver = Receiver::start(vec![]);
    let anna = play::player(&app.pool, "anna");
    let account_id = get(&app, "/v1/me", &anna).await.body["id"]
        .as_i64()
        .unwrap();
    let (session, _) =
        turnpost_server::browser_sessions::start(&mut app.conn(), account_id, "test").unwrap();
    let cookie = format!("tp_session={session}");
    let page = |path: &'static str| {
        let request = app
            .http
            .get(format!("{}{path}", app.base))
            .header("cookie", cookie.clone());
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    let form = |path: String, fields: Vec<(&'static str, String)>| {
        let request = app
            .http
            .post(format!("{}{path}", app.base))
            .header("cookie", cookie.clone())
            .form(&fields);
        async move {
            let answer = request.send().await.unwrap();
            (answer.status().as_u16(), answer.text().await.unwrap())
        }
    };
    let settings = page("/settings").await;
    assert!(settings.contains("id=\"webhooks\""), "no webhooks section");
    let (status, added) = form(
        "/settings/webhooks".to_owned(),
        vec![
            ("csrf", csrf_of(&settings)),
            ("url", receiver.url("/page")),
            ("format", "slack".to_owned()),
        ],
    )
    .await;
    assert_eq!(status, 200, "{added}");
    assert!(added.contains("shown this once: whsec_"), "{added}");
    assert!(added.contains(&receiver.url("/page")));
    let (status, refused) = form(
        "/settings/webhooks".to_owned(),
        vec![
            ("csrf", csrf_of(&settings)),
            ("url", "https://10.1.1.1/x".to_owned()),
        ],
    )
    .await;
    assert_eq!(status, 422, "{refused}");
    assert!(refused.contains("private"), "{refused}");

    let id = get(&app, "/v1/webhooks", &anna).await.body["webhooks"][0]["id"]
        .as_i64()
        .unwrap();
    let (status, _) = form(
        format!("/settings/webhooks/{id}/test"),
        vec![("csrf", csrf_of(&settings))],
    )
    .await;
    assert!(status == 200 || status == 303, "{status}");
    let arrivals = receiver.wait_for(1).await;
    let slack: Value = serde_json::from_str(&arrivals[0].body).unwrap();
    assert!(
        slack["text"].as_str().unwrap().contains("test delivery"),
        "{slack}"
    );
    attempts(&app, &anna, id, 1).await;
    let settings = page("/settings").await;
    assert!(
        settings.contains("Recent deliveries") && settings.contains("200 delivered"),
        "{settings}"
    );

    let (status, _) = form(
        "/settings/webhooks/switches".to_owned(),
        vec![("csrf", csrf_of(&settings)), ("turn", "on".to_owned())],
    )
    .await;
    assert!(status == 200 || status == 303, "{status}");
    let shown = get(&app, "/v1/me/notifications", &anna).await;
    assert_eq!(
        shown.body["webhooks"],
        json!({"turn": true, "challenges": false, "challenge_replies": false, "game_over": false, "draw_offers": false})
    );
    let (status, _) = form(
        format!("/settings/webhooks/{id}/remove"),
        vec![("csrf", csrf_of(&settings))],
    )
    .await;
    assert!(status == 200 || status == 303, "{status}");
    let listed = get(&app, "/v1/webhooks", &anna).await;
    assert_eq!(listed.body["webhooks"], json!([]));
    app.shutdown().await;
}
