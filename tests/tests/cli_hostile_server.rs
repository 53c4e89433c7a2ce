//! The CLI against a hostile server (an attacker's, not ours): whatever it sends, nothing
//! reaches the terminal as a control sequence, completions offer only real moves, an endless
//! answer is cut off, and `wait --timeout` holds against a server that never answers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use turnpost_shared::{AnyGame, GameKind, Options};
use turnpost_tests::Cli;

/// How the hostile server answers every request.
#[derive(Clone)]
enum Behaviour {
    /// 200 with this JSON.
    Json(Value),
    /// Accepts and never answers.
    Hang,
    /// 200 with a body that never ends.
    Endless,
    /// This status with a JSON error body.
    Status(u16),
}

/// Serves `behaviour` on a loopback port for the rest of the test process; returns the URL.
fn hostile_server(behaviour: Behaviour) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let behaviour = behaviour.clone();
            std::thread::spawn(move || answer(stream, &behaviour));
        }
    });
    url
}

fn answer(mut stream: TcpStream, behaviour: &Behaviour) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
        line.clear();
    }
    match behaviour {
        Behaviour::Json(value) => {
            let body = value.to_string();
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
        Behaviour::Hang => std::thread::sleep(Duration::from_secs(120)),
        Behaviour::Status(status) => {
            let body = r#"{"error":{"code":"internal","message":"the database is away"}}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 {status} Oops\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
        Behaviour::Endless => {
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
            );
            let chunk = vec![b' '; 1 << 20];
            while stream.write_all(&chunk).is_ok() {}
        }
    }
}

const ESCAPES: &str = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}\rforged\u{9b}";

/// A game view whose every text field a server controls carries terminal escapes; it reads as
/// the move list too (`turnpost show` asks for the players' messages), with a hostile message.
fn hostile_game() -> Value {
    let position = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .position_text();
    json!({
        "id": 7, "kind": "kefren", "options": {}, "clock": "3d", "timeout": "auto",
        "deadline": null, "claimable": false,
        "seats": [
            {"seat": 1, "seat_name": format!("Black{ESCAPES}"), "player": format!("eve{ESCAPES}"),
             "accepted": true, "bank_seconds": null},
            {"seat": 2, "seat_name": "White (seat 2)", "player": "bob", "accepted": true,
             "bank_seconds": null}
        ],
        "status": "active", "result": null, "result_reason": null, "ply": 0, "to_move": 1,
        "your_seat": 1, "your_turn": true, "draw_offered_by": null,
        "position": position, "board": format!("a board{ESCAPES}"),
        "last_moves": [],
        "legal_moves": ["A18-A17;touch${IFS}pwned", format!("F3{ESCAPES}")],
        "created_at": "2026-11-20T00:00:00Z", "expires_at": null,
        "started_at": "2026-11-20T00:00:00Z", "finished_at": null,
        "last_activity_at": format!("2026-11-20T00:00:00Z{ESCAPES}"),
        "moves": [],
        "messages": [
            {"ply": 0, "seat": 2, "player": format!("bob{ESCAPES}"), "action": "move",
             "text": format!("good luck{ESCAPES}\nsee you"), "sent_at": "2026-11-20T00:00:00Z"}
        ]
    })
}

fn cli_for(server: &str) -> (tempdir::Dir, impl Fn(&[&str]) -> std::process::Command) {
    let dir = tempdir::Dir::new();
    let config = dir.path.clone();
    let server = server.to_string();
    let command = move |args: &[&str]| {
        let mut command = Cli::new(config.clone()).command(args);
        command
            .env("TURNPOST_SERVER", &server)
            .env("TURNPOST_TOKEN", "tp_hostile-test-token");
        command
    };
    (dir, command)
}

/// A scratch directory removed at the end of the test.
mod tempdir {
    pub struct Dir {
        pub path: std::path::PathBuf,
    }
    impl Dir {
        pub fn new() -> Dir {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let path =
                std::env::temp_dir().join(format!("turnpost-hostile-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&path).unwrap();
            Dir { path }
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn has_control(bytes: &[u8]) -> Option<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .find(|c| c.is_control() && *c != '\n')
}

#[test]
fn server_text_never_reaches_the_terminal_as_control_sequences() {
    let server = hostile_server(Behaviour::Json(hostile_game()));
    let (_dir, turnpost) = cli_for(&server);
    for args in [
        &["show", "7"][..],
        &["moves", "7"],
        &["show", "7", "--json"],
    ] {
        let out = turnpost(args).env("NO_COLOR", "1").output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(has_control(&out.stdout), None, "{args:?} stdout");
        assert_eq!(has_control(&out.stderr), None, "{args:?} stderr");
        let shown = String::from_utf8_lossy(&out.stdout);
        if args[0] == "show" {
            assert!(shown.contains("eve"), "{shown}");
            assert!(shown.contains("u{1b}]0;owned"), "{shown}");
            assert!(shown.contains("good luck"), "{shown}");
        }
    }
}

#[test]
fn completion_offers_only_moves_the_engine_reads() {
    let server = hostile_server(Behaviour::Json(hostile_game()));
    let (_dir, turnpost) = cli_for(&server);
    let out = turnpost(&["__complete-moves", "--current", "", "--", "move", "7"])
        .output()
        .unwrap();
    let offered = String::from_utf8_lossy(&out.stdout);
    assert!(!offered.contains("pwned"), "{offered}");
    assert!(!offered.contains("owned"), "{offered}");
    assert_eq!(has_control(&out.stdout), None);
    let out = turnpost(&["moves", "7"]).output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(!listed.contains("pwned"), "{listed}");
}

#[test]
fn an_endless_answer_is_cut_off() {
    let server = hostile_server(Behaviour::Endless);
    let (_dir, turnpost) = cli_for(&server);
    let out = turnpost(&["show", "7"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("larger than 16 MiB"), "{error}");
}

#[test]
fn wait_timeout_bounds_the_whole_wait_against_a_hanging_server() {
    let server = hostile_server(Behaviour::Hang);
    let (_dir, turnpost) = cli_for(&server);
    let started = Instant::now();
    let out = turnpost(&["wait", "--game", "7", "--timeout", "2"])
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("still not your move after 2 s"),
        "{out:?}"
    );
    // The limit is 2 s; the hanging server would otherwise hold the command for a minute.
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn a_server_error_is_exit_code_3_and_a_refusal_exit_code_1() {
    for (status, code) in [(500, 3), (503, 3), (409, 1), (422, 1)] {
        let server = hostile_server(Behaviour::Status(status));
        let (_dir, turnpost) = cli_for(&server);
        let out = turnpost(&["show", "7"]).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "HTTP {status}: {out:?}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains("the database is away"), "{error}");
    }
}
