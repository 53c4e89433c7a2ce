//! Web push against a real server on both backends, with a push service in the test (a tiny
//! HTTP server on 127.0.0.1, which the server may reach: `outbound_allow` 127.0.0.0/8 and
//! plain http). The test subscribes as a browser would (a P-256 key pair and a 16-byte auth
//! secret of its own), and every notification is decrypted, and its VAPID JWT verified, by
//! independent implementations: `http_ece` (RFC 8291) and `py_vapid` (ES256) from PyPI, in
//! the virtualenv under `target/webhook-venv` (made here when missing, as `scripts/test` does).
//!
//! - a move reaches the opponent's device: TTL, Urgency, `Content-Encoding: aes128gcm`, a
//!   VAPID JWT for the push service's origin, and {title, body, url, tag} inside;
//! - a 410 removes that device; a 500 is tried again;
//! - muting a game stops its turn pushes (its end still comes);
//! - the push switch `turn` off stops turn pushes while turn mail stays on;
//! - bad subscriptions are refused with 422, others' devices are not found.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use common::{get, patch, post, Backend, TestApp};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::{json, Value};

both_backends!(
    a_move_is_pushed_encrypted_and_signed,
    a_410_removes_the_device_and_a_500_is_tried_again,
    muting_a_game_stops_its_turn_pushes,
    the_turn_switch_off_stops_turn_pushes_while_mail_stays_on,
    bad_subscriptions_are_refused,
);

/// One request the push service took.
#[derive(Debug, Clone)]
struct Arrival {
    path: String,
    /// Header names in lower case.
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

/// A push service on 127.0.0.1: answers each request to a path with that path's next
/// scripted status, then 201 (as push services answer).
#[derive(Clone)]
struct PushService {
    port: u16,
    arrivals: Arc<Mutex<Vec<Arrival>>>,
}

impl PushService {
    fn start(script: &[(&str, &[u16])]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let script: HashMap<String, VecDeque<u16>> = script
            .iter()
            .map(|(path, statuses)| ((*path).to_owned(), statuses.iter().copied().collect()))
            .collect();
        let script = Arc::new(Mutex::new(script));
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
                let status = script
                    .lock()
                    .unwrap()
                    .get_mut(&path)
                    .and_then(VecDeque::pop_front)
                    .unwrap_or(201);
                seen.lock().unwrap().push(Arrival {
                    path,
                    headers,
                    body,
                });
                let answer = format!(
                    "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
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

    /// Waits until at least `n` requests arrived (at most 20 s).
    async fn wait_for(&self, n: usize) -> Vec<Arrival> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let now = self.arrivals();
            if now.len() >= n {
                return now;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} of {n} pushes arrived: {now:#?}",
                now.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A browser's push keys, made as a browser makes them: a P-256 key pair and 16 random
/// bytes of auth secret.
struct BrowserKeys {
    private: String,
    p256dh: String,
    auth: String,
}

impl BrowserKeys {
    fn new() -> Self {
        let secret = loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).unwrap();
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap();
        Self {
            private: URL_SAFE_NO_PAD.encode(secret.to_bytes()),
            p256dh: URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false)),
            auth: URL_SAFE_NO_PAD.encode(auth),
        }
    }
}

/// The virtualenv with `http_ece` and `py_vapid`, made when missing (into a fresh directory
/// renamed into place, so two test processes never share a half-made one).
fn checker_python() -> PathBuf {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target");
    let venv = target.join("webhook-venv");
    let python = venv.join("bin/python");
    let ready = |python: &Path| {
        std::process::Command::new(python)
            .args(["-c", "import http_ece, py_vapid"])
            .status()
            .is_ok_and(|s| s.success())
    };
    if ready(&python) {
        return python;
    }
    if python.exists() {
        // The webhooks' venv without the push packages yet: add them.
        let installed = std::process::Command::new(venv.join("bin/pip"))
            .args(["install", "-q", "http_ece", "py_vapid"])
            .status()
            .unwrap();
        assert!(installed.success(), "pip install http_ece py_vapid failed");
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
        .args(["install", "-q", "standardwebhooks", "http_ece", "py_vapid"])
        .status()
        .unwrap();
    assert!(installed.success(), "pip install failed");
    if std::fs::rename(&fresh, &venv).is_err() {
        // Another test process made it first.
        let _ = std::fs::remove_dir_all(&fresh);
    }
    assert!(
        ready(&python),
        "no http_ece or py_vapid in {}",
        venv.display()
    );
    python
}

/// Decrypts each arrival with the browser's keys (`http_ece`) and verifies its VAPID JWT
/// (`py_vapid`); answers per arrival {text | decrypt_error, scheme, k, verified, jwt_header,
/// claims}.
fn opened(keys: &BrowserKeys, arrivals: &[Arrival]) -> Vec<Value> {
    let items: Vec<Value> = arrivals
        .iter()
        .map(|a| {
            json!({
                "body": STANDARD.encode(&a.body),
                "authorization": a.headers.get("authorization").cloned().unwrap_or_default(),
            })
        })
        .collect();
    let input = json!({"private": keys.private, "auth": keys.auth, "items": items}).to_string();
    let script = r#"
import base64, json, sys
import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

d = json.load(sys.stdin)
key = ec.derive_private_key(int.from_bytes(unb64(d["private"]), "big"), ec.SECP256R1())
out = []
for item in d["items"]:
    r = {}
    try:
        r["text"] = http_ece.decrypt(base64.b64decode(item["body"]), private_key=key,
                                     auth_secret=unb64(d["auth"]), version="aes128gcm").decode()
    except Exception as error:
        r["decrypt_error"] = repr(error)
    scheme, rest = item["authorization"].split(" ", 1)
    parts = dict(part.strip().split("=", 1) for part in rest.split(","))
    signed, signature = parts["t"].rsplit(".", 1)
    r["scheme"] = scheme
    r["k"] = parts["k"]
    r["verified"] = bool(Vapid02.from_raw_public(parts["k"].encode()).verify_token(
        validation_token=signed.encode(), verification_token=signature))
    header, claims = signed.split(".")
    r["jwt_header"] = json.loads(unb64(header))
    r["claims"] = json.loads(unb64(claims))
    out.append(r)
print(json.dumps(out))
"#;
    let mut child = std::process::Command::new(checker_python())
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
    assert!(
        output.status.success(),
        "the checker failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The notifications inside `arrivals` (each must decrypt and verify).
fn notifications(keys: &BrowserKeys, arrivals: &[Arrival]) -> Vec<Value> {
    opened(keys, arrivals)
        .into_iter()
        .map(|item| {
            assert_eq!(item["verified"], true, "{item}");
            serde_json::from_str(item["text"].as_str().unwrap_or_else(|| panic!("{item}"))).unwrap()
        })
        .collect()
}

/// A server whose outbound requests may reach 127.0.0.0/8 over plain http.
async fn app_allowing_loopback(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, |config| {
        config.outbound_allow = "127.0.0.0/8".parse().unwrap();
        config.outbound_allow_http = true;
    })
    .await
}

/// anna (seat 1) and bert (seat 2) in a started Kefren game; answers their tokens and the
/// game's id.
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
    // Only what follows is watched: the challenge is behind the consumer before a device is
    // added (else it may reach the device, rightly, and the counts below would vary).
    consumed(app).await;
    (anna, bert, id)
}

/// Waits until push's consumer of the event log has read every event recorded (at most 20 s).
async fn consumed(app: &TestApp) {
    use turnpost_server::db::events::{self, LogFilter};
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        // Past the newest event itself: on PostgreSQL an empty read may only mean that a
        // running transaction holds the newer events back for now.
        let caught_up = {
            let mut conn = app.conn();
            let newest = events::newest_id(&mut conn).unwrap();
            let newest = events::by_id(&mut conn, newest)
                .unwrap()
                .map(|e| e.position());
            let at = events::cursor(&mut conn, turnpost_server::push::PUSH_CONSUMER).unwrap();
            match (at, newest) {
                (Some(at), Some(newest)) => at >= newest,
                (Some(at), None) => events::read_after(&mut conn, at, LogFilter::All, 1)
                    .unwrap()
                    .is_empty(),
                (None, _) => false,
            }
        };
        if caught_up {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "push's consumer is behind the log"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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

/// Subscribes `token`'s "browser" at `endpoint` with `keys` (a phone's User-Agent); answers
/// the device's id.
async fn subscribe(app: &TestApp, token: &str, endpoint: &str, keys: &BrowserKeys) -> i64 {
    let answer = app
        .http
        .post(format!("{}/v1/push/subscriptions", app.base))
        .bearer_auth(token)
        .header(
            "user-agent",
            "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
        )
        .json(&json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 201);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["name"], "Firefox on Android", "{body}");
    body["id"].as_i64().unwrap()
}

async fn a_move_is_pushed_encrypted_and_signed(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let service = PushService::start(&[]);
    let (anna, bert, game) = started_game(&app).await;
    let keys = BrowserKeys::new();
    let device = subscribe(&app, &bert, &service.url("/push/bert-phone"), &keys).await;
    let listed = get(&app, "/v1/push/subscriptions", &bert).await;
    assert_eq!(listed.status, 200, "{listed:?}");
    assert_eq!(listed.body["subscriptions"][0]["id"], device);
    assert!(
        get(&app, "/v1/push/subscriptions", &anna).await.body["subscriptions"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let key = app.get("/v1/push/key", None).await;
    assert_eq!(key.status, 200, "{key:?}");
    let public_key = key.body["public_key"].as_str().unwrap().to_owned();
    assert_eq!(URL_SAFE_NO_PAD.decode(&public_key).unwrap().len(), 65);

    play_first(&app, game, &anna).await;
    let arrivals = service.wait_for(1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(service.arrivals().len(), 1, "one push for one device");
    let push = &arrivals[0];
    assert_eq!(push.path, "/push/bert-phone");
    assert_eq!(push.headers["content-encoding"], "aes128gcm");
    assert_eq!(push.headers["urgency"], "high");
    // A newer notification of the game replaces one not fetched yet (RFC 8030, 5.4).
    assert_eq!(push.headers["topic"], format!("game-{game}"));
    let ttl: u32 = push.headers["ttl"].parse().unwrap();
    assert!((3 * 86_400 - 60..=3 * 86_400).contains(&ttl), "TTL {ttl}");
    assert!(!push.headers.contains_key("cookie"));

    let opened = opened(&keys, &arrivals);
    let item = &opened[0];
    assert_eq!(item["scheme"], "vapid", "{item}");
    assert_eq!(item["k"], public_key.as_str());
    assert_eq!(item["verified"], true, "{item}");
    assert_eq!(item["jwt_header"]["alg"], "ES256");
    let claims = &item["claims"];
    assert_eq!(claims["aud"], format!("http://127.0.0.1:{}", service.port));
    let exp = claims["exp"].as_i64().unwrap();
    let now = chrono::Utc::now().timestamp();
    assert!(exp > now && exp <= now + 24 * 3600, "exp {exp}, now {now}");
    assert!(
        claims["sub"].as_str().unwrap().starts_with("mailto:"),
        "{claims}"
    );
    let shown: Value = serde_json::from_str(item["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        shown["title"],
        format!("Your turn: Kefren #{game}"),
        "{shown}"
    );
    assert!(
        shown["body"].as_str().unwrap().contains("anna played"),
        "{shown}"
    );
    assert_eq!(shown["url"], format!("http://127.0.0.1:8080/games/{game}"));
    assert_eq!(shown["tag"], format!("game-{game}"));

    // The checks can fail: another browser's auth secret does not decrypt it.
    let other = BrowserKeys {
        auth: BrowserKeys::new().auth,
        ..keys
    };
    let refused = self::opened(&other, &arrivals);
    assert!(refused[0].get("text").is_none(), "{refused:?}");
    assert!(refused[0]["decrypt_error"].is_string());

    // The device is marked used; removing it stops its pushes.
    let listed = get(&app, "/v1/push/subscriptions", &bert).await;
    assert!(
        listed.body["subscriptions"][0]["last_used"].is_string(),
        "{listed:?}"
    );
    let removed = app
        .delete(&format!("/v1/push/subscriptions/{device}"), Some(&bert))
        .await;
    assert_eq!(removed.status, 204, "{removed:?}");
    play_first(&app, game, &bert).await;
    play_first(&app, game, &anna).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(service.arrivals().len(), 1);
    app.shutdown().await;
}

async fn a_410_removes_the_device_and_a_500_is_tried_again(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let service = PushService::start(&[("/phone", &[500]), ("/gone", &[410])]);
    let (anna, bert, game) = started_game(&app).await;
    let keys = BrowserKeys::new();
    let phone = subscribe(&app, &bert, &service.url("/phone"), &keys).await;
    let gone = subscribe(&app, &bert, &service.url("/gone"), &BrowserKeys::new()).await;
    play_first(&app, game, &anna).await;
    // The phone's push: 500, then taken; the other device's: 410, once.
    service.wait_for(3).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let arrivals = service.arrivals();
    let to = |path: &str| -> Vec<Arrival> {
        arrivals
            .iter()
            .filter(|a| a.path == path)
            .cloned()
            .collect()
    };
    assert_eq!(to("/phone").len(), 2, "{arrivals:#?}");
    assert_eq!(to("/gone").len(), 1, "{arrivals:#?}");
    // The retry is the same notification, encrypted anew.
    let both = notifications(&keys, &to("/phone"));
    assert_eq!(both[0], both[1]);
    assert_ne!(to("/phone")[0].body, to("/phone")[1].body);
    let listed = get(&app, "/v1/push/subscriptions", &bert).await;
    let ids: Vec<i64> = listed.body["subscriptions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [phone], "the 410 device {gone} is removed");
    let stored = turnpost_server::db::push::deliveries_of(&mut app.conn(), phone).unwrap();
    assert_eq!(stored, [("delivered".to_owned(), 2, Some(201))]);
    app.shutdown().await;
}

async fn muting_a_game_stops_its_turn_pushes(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let service = PushService::start(&[]);
    let (anna, bert, game) = started_game(&app).await;
    let keys = BrowserKeys::new();
    subscribe(&app, &bert, &service.url("/phone"), &keys).await;
    let muted = patch(&app, "/v1/me/notifications", &bert, json!({"mute": [game]})).await;
    assert_eq!(muted.status, 200, "{muted:?}");
    play_first(&app, game, &anna).await;
    let resigned = post(&app, &format!("/v1/games/{game}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    service.wait_for(1).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let arrivals = service.arrivals();
    let shown = notifications(&keys, &arrivals);
    // The muted game's turn never came; its end did (as mail does), at normal urgency.
    let titles: Vec<&str> = shown.iter().map(|n| n["title"].as_str().unwrap()).collect();
    assert_eq!(titles, [format!("Game over: Kefren #{game}")], "{shown:?}");
    assert_eq!(arrivals[0].headers["urgency"], "normal");
    app.shutdown().await;
}

async fn the_turn_switch_off_stops_turn_pushes_while_mail_stays_on(backend: Backend) {
    let mut app = app_allowing_loopback(backend).await;
    let service = PushService::start(&[]);
    let (anna, bert, game) = started_game(&app).await;
    let keys = BrowserKeys::new();
    subscribe(&app, &bert, &service.url("/phone"), &keys).await;
    let changed = patch(
        &app,
        "/v1/me/notifications",
        &bert,
        json!({"push": {"turn": false}}),
    )
    .await;
    assert_eq!(changed.status, 200, "{changed:?}");
    assert_eq!(changed.body["push"]["turn"], false);
    assert_eq!(changed.body["push"]["game_over"], true);
    assert_eq!(
        changed.body["webhooks"]["turn"], true,
        "apart from webhooks"
    );
    assert_eq!(changed.body["turn_mail"], "immediate", "apart from mail");
    let shown = get(&app, "/v1/me/notifications", &bert).await;
    assert_eq!(shown.body["push"], changed.body["push"]);

    // Turn mail still comes: a mail to bert with anna's move.
    let played = play_first(&app, game, &anna).await;
    app.game_mail_composed().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !app
        .smtp
        .messages_to("bert@example.org")
        .iter()
        .any(|m| m.data.contains(&played))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no turn mail to bert"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let resigned = post(&app, &format!("/v1/games/{game}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    service.wait_for(1).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let shown = notifications(&keys, &service.arrivals());
    let titles: Vec<&str> = shown.iter().map(|n| n["title"].as_str().unwrap()).collect();
    assert_eq!(titles, [format!("Game over: Kefren #{game}")], "{shown:?}");
    app.shutdown().await;
}

async fn bad_subscriptions_are_refused(backend: Backend) {
    let mut app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let keys = BrowserKeys::new();
    let good_keys = json!({"p256dh": keys.p256dh, "auth": keys.auth});
    for (body, why) in [
        (
            json!({"endpoint": "http://push.example.org/x", "keys": good_keys}),
            "https",
        ),
        (
            json!({"endpoint": "https://127.0.0.1/x", "keys": good_keys}),
            "TURNPOST_OUTBOUND_ALLOW",
        ),
        (
            json!({"endpoint": "https://push.example.org/x",
                   "keys": {"p256dh": "AAAA", "auth": keys.auth}}),
            "p256dh",
        ),
        (
            json!({"endpoint": "https://push.example.org/x",
                   "keys": {"p256dh": keys.p256dh, "auth": "c2hvcnQ"}}),
            "16 bytes",
        ),
    ] {
        let refused = post(&app, "/v1/push/subscriptions", &anna, body.clone()).await;
        assert_eq!(refused.status, 422, "{body}: {refused:?}");
        assert_eq!(refused.error_code(), "invalid_push_subscription");
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{why}: {message}");
    }
    let missing = post(
        &app,
        "/v1/push/subscriptions",
        &anna,
        json!({"endpoint": "x"}),
    )
    .await;
    assert!([400, 422].contains(&missing.status), "{missing:?}");
    let added = post(
        &app,
        "/v1/push/subscriptions",
        &anna,
        json!({"endpoint": "https://push.example.org/anna", "keys": good_keys, "name": "Work laptop"}),
    )
    .await;
    assert_eq!(added.status, 201, "{added:?}");
    assert_eq!(added.body["name"], "Work laptop");
    let id = added.body["id"].as_i64().unwrap();
    let not_hers = app
        .delete(&format!("/v1/push/subscriptions/{id}"), Some(&bert))
        .await;
    assert_eq!(not_hers.status, 404, "{not_hers:?}");
    let anonymous = app.get("/v1/push/subscriptions", None).await;
    assert_eq!(anonymous.status, 401);
    app.shutdown().await;
}
