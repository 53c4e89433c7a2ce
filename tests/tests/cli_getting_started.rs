//! Getting started and the CLI's traps, through the real binaries: `signup` sets the machine's
//! time zone, `login` reuses the profile's server or stores a token made by
//! `turnpost-server account create`, `resign` on a non-terminal, `games` within 100 columns.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use turnpost_tests::{binary, Cli, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn signup_sends_the_time_zone_and_login_reuses_the_profile_server() {
    let server = ServerProcess::start(&[]);
    let url = format!("http://{}", server.address);
    let anna = Cli::new(server.data_dir.join("anna"));

    let mut child = anna
        .command(&[
            "signup",
            "--server",
            &url,
            "--name",
            "anna",
            "--email",
            "anna@example.org",
        ])
        .env("TZ", "Europe/Berlin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let code = server.smtp.code_for("anna@example.org", 0);
    writeln!(child.stdin.take().unwrap(), "{code}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("deadlines in Europe/Berlin"),
        "{}",
        text(&out.stdout)
    );
    let settings = anna.json(&["notifications"]);
    assert_eq!(
        settings["notifications"]["time_zone"], "Europe/Berlin",
        "{settings}"
    );

    // Signing in again needs no --server: the profile has one.
    let out = anna.run_with_code(
        &server,
        "anna@example.org",
        1,
        &["login", "--email", "anna@example.org"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!("Signed in as anna at {url}")),
        "{}",
        text(&out.stdout)
    );
    // Without a profile and without --server, the error says what to do.
    let nobody = Cli::new(server.data_dir.join("nobody"));
    let out = nobody.run(&["login", "--email", "x@example.org"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--server"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_token_from_account_create_is_stored_with_token_stdin() {
    let server = ServerProcess::start(&[]);
    let url = format!("http://{}", server.address);
    let made = Command::new(binary("turnpost-server", "turnpost-server"))
        .args([
            "account",
            "create",
            "--name",
            "carl",
            "--email",
            "carl@example.org",
        ])
        .env("TURNPOST_DATA_DIR", &server.data_dir)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    let token = text(&made.stdout).trim().to_string();

    let carl = Cli::new(server.data_dir.join("carl"));
    let mut child = carl
        .command(&["login", "--server", &url, "--token-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{token}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Signed in as carl"),
        "{}",
        text(&out.stdout)
    );
    let me = carl.json(&["whoami"]);
    assert_eq!(me["account"]["name"], "carl");

    // A wrong token is refused and nothing is stored.
    let dora = Cli::new(server.data_dir.join("dora"));
    let mut child = dora
        .command(&["login", "--server", &url, "--token-stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "tp_not-a-token").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_ne!(dora.run(&["whoami"]).status.code(), Some(0));
}

#[test]
fn games_lines_fit_100_columns_with_six_players_and_resign_without_a_terminal() {
    let server = ServerProcess::start(&[]);
    let names = [
        "annabelle",
        "bartholomew",
        "christopher",
        "dorothea",
        "evangeline",
        "frederick",
    ];
    let players: Vec<Cli> = names
        .iter()
        .map(|name| {
            let cli = Cli::new(server.data_dir.join(name));
            cli.sign_up(&server, name);
            cli
        })
        .collect();
    let others = names[1..].join(",");
    let new = players[0].json(&[
        "new",
        "chinese-checkers",
        "--option",
        "players=6",
        "--with",
        &others,
    ]);
    let id = new["game"]["id"].as_i64().unwrap().to_string();
    let out = players[0].run(&["games"]);
    let listing = text(&out.stdout);
    assert!(listing.contains("waiting for"), "{listing}");
    for player in &players[1..] {
        assert!(player.run(&["accept", &id]).status.success());
    }
    let out = players[0].run(&["games"]);
    let listing = text(&out.stdout);
    assert!(listing.contains("chinese-checkers"), "{listing}");
    for line in listing.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }

    // Without a terminal on stdin, resign does not ask (scripts); --yes is accepted too.
    let out = players[1].run(&["resign", &id, "--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let duel = players[2].json(&["new", "kefren", "--with", names[3]]);
    let duel = duel["game"]["id"].as_i64().unwrap().to_string();
    assert!(players[3].run(&["accept", &duel]).status.success());
    // On a terminal it asks first; anything but yes keeps the game going.
    let command = format!(
        "{} resign {duel}",
        binary("turnpost-client", "turnpost").display()
    );
    let mut asked = players[2]
        .program(Path::new("script"), &["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    writeln!(asked.stdin.take().unwrap(), "n").unwrap();
    let out = asked.wait_with_output().unwrap();
    let said = text(&out.stdout);
    assert!(
        said.contains(&format!("Resign kefren #{duel} against dorothea?")),
        "{said}"
    );
    assert!(said.contains("not resigned"), "{said}");
    let still = players[3].json(&["show", &duel]);
    assert_eq!(still["game"]["status"], "active", "{still}");
    // Not a terminal: no question.
    let out = players[2]
        .command(&["resign", &duel])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let over = players[3].json(&["show", &duel]);
    assert_eq!(over["game"]["status"], "finished", "{over}");
    assert_eq!(over["game"]["result_reason"], "resignation", "{over}");
}
