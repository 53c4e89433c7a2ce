//! `turnpost webhooks` through the real binaries, against a server whose operator allows
//! webhooks to reach 127.0.0.0/8 over http (`TURNPOST_OUTBOUND_ALLOW`,
//! `TURNPOST_OUTBOUND_ALLOW_HTTP`): add (the secret printed once), list, test (the delivery
//! arrives at a receiver in the test with the id the command printed), show its log, remove;
//! and a private address refused with the server's reason. SQLite, as the other CLI tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use turnpost_tests::{Backend, Cli, ServerProcess};

/// The (`webhook-id`, body) of each request a receiver took.
type Seen = Arc<Mutex<Vec<(String, String)>>>;

/// A receiver on 127.0.0.1 that answers 204 and keeps each request's `webhook-id` and body.
fn receiver() -> (u16, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let keep = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut id = String::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    match name.trim().to_ascii_lowercase().as_str() {
                        "webhook-id" => id = value.trim().to_owned(),
                        "content-length" => length = value.trim().parse().unwrap_or(0),
                        _ => {}
                    }
                }
            }
            let mut body = vec![0u8; length];
            reader.read_exact(&mut body).unwrap();
            keep.lock()
                .unwrap()
                .push((id, String::from_utf8_lossy(&body).into_owned()));
            let _ = stream.write_all(b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
        }
    });
    (port, seen)
}

#[test]
fn webhooks_are_added_tested_shown_and_removed_from_the_shell() {
    let server = ServerProcess::start_on(
        Backend::Sqlite,
        &[
            ("TURNPOST_OUTBOUND_ALLOW", "127.0.0.0/8"),
            ("TURNPOST_OUTBOUND_ALLOW_HTTP", "true"),
        ],
    );
    let anna = Cli::new(server.data_dir.join("anna"));
    anna.sign_up(&server, "anna");
    let (port, seen) = receiver();
    let url = format!("http://127.0.0.1:{port}/hook");

    let added = anna.run(&["webhooks", "add", &url, "--events", "move,game_over"]);
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let said = String::from_utf8_lossy(&added.stdout);
    assert!(
        said.contains("shown this once") && said.contains("whsec_"),
        "{said}"
    );

    let listed = anna.json(&["webhooks", "list"]);
    let hooks = listed["webhooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1, "{listed}");
    assert_eq!(hooks[0]["url"], url.as_str());
    assert_eq!(hooks[0]["events"], serde_json::json!(["move", "game_over"]));
    let id = hooks[0]["id"].as_i64().unwrap().to_string();

    let queued = anna.json(&["webhooks", "test", &id]);
    let webhook_id = queued["test"]["webhook_id"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.lock().unwrap().is_empty() {
        assert!(
            Instant::now() < deadline,
            "the test delivery did not arrive"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (arrived_id, body) = seen.lock().unwrap()[0].clone();
    assert_eq!(arrived_id, webhook_id);
    assert!(body.contains("\"type\":\"test\""), "{body}");

    let deadline = Instant::now() + Duration::from_secs(20);
    let shown = loop {
        let shown = anna.json(&["webhooks", "show", &id]);
        if !shown["webhook"]["attempts"].as_array().unwrap().is_empty() {
            break shown;
        }
        assert!(Instant::now() < deadline, "no attempt logged: {shown}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(shown["webhook"]["attempts"][0]["status"], 204);
    assert_eq!(shown["webhook"]["attempts"][0]["delivered"], true);
    let in_words = anna.run(&["webhooks", "show", &id]);
    assert!(String::from_utf8_lossy(&in_words.stdout).contains("204 delivered"));

    let refused = anna.run(&["webhooks", "add", "https://10.0.0.1/hook"]);
    assert!(!refused.status.success());
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("private") && why.contains("TURNPOST_OUTBOUND_ALLOW"),
        "{why}"
    );
    let unknown = anna.run(&["webhooks", "add", &url, "--events", "moves"]);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("moves"));

    // The webhook switches apart from mail's: game-over webhooks off, game-over mail still on.
    let switched = anna.json(&[
        "notifications",
        "--channel",
        "webhooks",
        "--off",
        "game_over,draw_offers",
    ]);
    assert_eq!(
        switched["notifications"]["webhooks"]["game_over"], false,
        "{switched}"
    );
    assert_eq!(
        switched["notifications"]["webhooks"]["turn"], true,
        "{switched}"
    );
    assert_eq!(
        switched["notifications"]["categories"]["game_over"], true,
        "{switched}"
    );
    let shown = anna.run(&["notifications"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("webhooks:") && shown.contains("off for game_over, draw_offers"),
        "{shown}"
    );
    let mail_only = anna.run(&["notifications", "--channel", "push", "--off", "reminders"]);
    assert_eq!(mail_only.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mail_only.stderr).contains("mail only"));

    let removed = anna.run(&["webhooks", "remove", &id]);
    assert!(removed.status.success());
    let listed = anna.run(&["webhooks"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("No webhooks"));
}
