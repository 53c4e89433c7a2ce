//! The README's "Your first game in five minutes", followed to the letter: every `$ turnpost …`
//! line of that section, in order, in the shell of the player it belongs to, against the real
//! server binary on its embedded SQLite default with a real SMTP conversation for the codes.
//! Only the server's address changes (a free port instead of 8080). When the section changes
//! shape (other commands, other players, other order), this test fails until it is updated
//! with it, so the README and the test cannot drift apart.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Child, Stdio};
use std::time::Duration;

use turnpost_tests::{Cli, ServerProcess};

const SECTION: &str = "## Your first game in five minutes";
/// The server's address in the README; the test's server listens elsewhere.
const README_SERVER: &str = "http://127.0.0.1:8080";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Anna,
    Bob,
}

/// One `$` line of the section: whose shell, the command without its comment, and the output
/// lines the README shows under it.
#[derive(Debug)]
struct Line {
    player: Player,
    command: String,
    shown: Vec<String>,
}

/// What the test expects of each line, in the README's order: the command as written, and
/// parts of its output (with `{server}` standing for the server's URL).
const EXPECTED: &[(Player, &str, &[&str])] = &[
    (
        Player::Anna,
        "turnpost rules kefren",
        &["## The goal", "more Black stones on row 19", "E2-E3"],
    ),
    (
        Player::Anna,
        "turnpost signup --server http://127.0.0.1:8080 --name anna --email anna@example.org",
        &["Signed in as anna at {server} (profile default)."],
    ),
    (
        Player::Bob,
        "export TURNPOST_CONFIG_DIR=~/.config/turnpost-bob",
        &[],
    ),
    (
        Player::Bob,
        "turnpost signup --server http://127.0.0.1:8080 --name bob --email bob@example.org",
        &["Signed in as bob at {server} (profile default)."],
    ),
    (
        Player::Anna,
        "turnpost new kefren --with bob",
        &[
            "Challenge #1 sent",
            "anna (Black (seat 1)) vs bob (White (seat 2), not accepted yet)",
        ],
    ),
    (
        Player::Bob,
        "turnpost invites",
        &["     1  kefren", "invited"],
    ),
    (
        Player::Bob,
        "turnpost accept 1",
        &["move 1 · anna to move", "deadline of anna: "],
    ),
    (
        Player::Bob,
        "turnpost wait --game 1",
        &[
            "move 2 · your move (bob)",
            "last move: F2-F3 (move 1, anna)",
            "A B C D E F G H I",
        ],
    ),
    (Player::Anna, "turnpost moves 1", &["F2-F3\n", "A2-A3\n"]),
    (
        Player::Anna,
        "turnpost move 1 F2-F3",
        &["move 2 · bob to move", "last move: F2-F3 (move 1, anna)"],
    ),
    (
        Player::Bob,
        "turnpost move 1 E18-E17",
        &["move 3 · anna to move", "last move: E18-E17 (move 2, bob)"],
    ),
    (
        Player::Anna,
        "turnpost show 1",
        &[
            "move 3 · your move (anna)",
            "your goal: you (Black) win with more of your stones on row 19",
            "clock: 3 days per move · timeout: auto",
            "your deadline: ",
            "last move: E18-E17 (move 2, bob)",
            "A B C D E F G H I",
        ],
    ),
];

/// The section's text, from its heading to the next heading of its level or above.
fn section(readme: &str) -> &str {
    let start = readme
        .find(SECTION)
        .unwrap_or_else(|| panic!("README.md has no section `{SECTION}`"));
    let body = &readme[start + SECTION.len()..];
    let end = ["\n## ", "\n### "]
        .iter()
        .filter_map(|heading| body.find(heading))
        .min()
        .unwrap_or(body.len());
    &body[..end]
}

/// The `$` lines of the section's console blocks, each with the player named by the paragraph
/// before its block ("Shell 1, Anna …" or "Shell 2, Bob …"). Also checks the server is started
/// with the embedded defaults.
fn lines(section: &str) -> Vec<Line> {
    let mut found: Vec<Line> = Vec::new();
    // The first line of the latest text paragraph, and whether that paragraph goes on.
    let mut paragraph = String::new();
    let mut in_paragraph = false;
    let mut fence: Option<String> = None;
    let mut player = None;
    let mut started_server = false;
    for raw in section.lines() {
        let line = raw.trim_end();
        if let Some(kind) = line.strip_prefix("```") {
            in_paragraph = false;
            if fence.take().is_some() {
                continue;
            }
            fence = Some(kind.to_string());
            if kind == "console" {
                player = Some(if paragraph.starts_with("Shell 1, Anna") {
                    Player::Anna
                } else if paragraph.starts_with("Shell 2, Bob") {
                    Player::Bob
                } else {
                    panic!("a console block after `{paragraph}`: expected `Shell 1, Anna` or `Shell 2, Bob`")
                });
            }
            continue;
        }
        match fence.as_deref() {
            None if line.is_empty() => in_paragraph = false,
            None => {
                if !in_paragraph {
                    paragraph = line.to_string();
                    in_paragraph = true;
                }
            }
            Some("sh") => {
                if line.starts_with("./target/release/turnpost-server &") {
                    started_server = true;
                }
            }
            Some("console") => {
                let player = player.unwrap();
                if let Some(command) = line.strip_prefix("$ ") {
                    let command = command.split(" #").next().unwrap().trim().to_string();
                    found.push(Line {
                        player,
                        command,
                        shown: Vec::new(),
                    });
                } else {
                    let last = found
                        .last_mut()
                        .unwrap_or_else(|| panic!("output `{line}` before any command"));
                    last.shown.push(line.to_string());
                }
            }
            Some(other) => panic!("a ```{other} block in the walkthrough"),
        }
    }
    assert!(
        started_server,
        "the walkthrough no longer starts `./target/release/turnpost-server &` with the defaults"
    );
    assert!(
        section.contains("turnpost-data/mail/"),
        "the walkthrough no longer says where the code is"
    );
    found
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The value after `flag` in a command's words.
fn flag<'a>(words: &[&'a str], flag: &str) -> &'a str {
    let at = words.iter().position(|word| *word == flag).unwrap();
    words[at + 1]
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let lines = lines(section(&readme));
    let written: Vec<(Player, &str)> = lines
        .iter()
        .map(|line| (line.player, line.command.as_str()))
        .collect();
    let expected: Vec<(Player, &str)> = EXPECTED
        .iter()
        .map(|(player, command, _)| (*player, *command))
        .collect();
    assert_eq!(
        written, expected,
        "the README walkthrough changed: update EXPECTED in this test with it"
    );

    let server = ServerProcess::start(&[]);
    let url = format!("http://{}", server.address);
    let anna = Cli::new(server.data_dir.join("anna-home"));
    // Bob's shell uses its own configuration directory (the README's `export`).
    let bob = Cli::new(server.data_dir.join("turnpost-bob"));
    let mut waiting: Option<Child> = None;

    for (line, (_, _, wanted)) in lines.iter().zip(EXPECTED) {
        let cli = match line.player {
            Player::Anna => &anna,
            Player::Bob => &bob,
        };
        if line.command.starts_with("export TURNPOST_CONFIG_DIR=") {
            assert!(line.shown.is_empty());
            continue;
        }
        let command = line.command.replace(README_SERVER, &url);
        assert!(
            !command.contains(['\'', '"', '$', '|', '>']),
            "`{command}` needs a shell; the test runs commands as plain words"
        );
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "turnpost", "`{command}`");
        let args = &words[1..];

        // Bob's shell is busy while his `wait` blocks: it must end before he types again.
        if line.player == Player::Bob {
            if let Some(child) = waiting.take() {
                let out = child.wait_with_output().unwrap();
                check(&line_of(&lines, "turnpost wait"), &out, &url);
            }
        }
        if args[0] == "wait" {
            let child = cli
                .command(args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            waiting = Some(child);
            std::thread::sleep(Duration::from_millis(500));
            continue;
        }
        if let Some(child) = waiting.as_mut() {
            // Anna has not moved yet, so Bob is still waiting.
            assert!(
                child.try_wait().unwrap().is_none(),
                "`turnpost wait` returned before `{command}`"
            );
        }
        let out = if args[0] == "signup" {
            let email = flag(args, "--email");
            // The prompt the README shows is the terminal's; here the code comes from the mail.
            for shown in &line.shown {
                if let Some(prompt) = shown.split(" Code from the email: ").next() {
                    if shown.contains(" Code from the email: ") {
                        assert_eq!(prompt, format!("A code is on its way to {email}."));
                    }
                }
            }
            cli.run_with_code(&server, email, 0, args)
        } else {
            cli.run(args)
        };
        assert!(
            out.status.success(),
            "`{command}` failed ({:?}): {}",
            out.status.code(),
            text(&out.stderr)
        );
        let stdout = text(&out.stdout);
        for part in *wanted {
            let part = part.replace("{server}", &url);
            assert!(
                stdout.contains(&part),
                "`{command}` did not print `{part}`:\n{stdout}"
            );
        }
        for shown in &line.shown {
            if shown.contains(" Code from the email: ") {
                continue;
            }
            let shown = shown.replace(README_SERVER, &url);
            assert!(
                stdout.contains(&shown),
                "`{command}` did not print the README's `{shown}`:\n{stdout}"
            );
        }
    }
    if let Some(child) = waiting.take() {
        let out = child.wait_with_output().unwrap();
        check(&line_of(&lines, "turnpost wait"), &out, &url);
    }
}

/// The expectations of the README line that starts with `prefix`.
fn line_of(lines: &[Line], prefix: &str) -> (String, Vec<String>) {
    let at = lines
        .iter()
        .position(|line| line.command.starts_with(prefix))
        .unwrap();
    let wanted = EXPECTED[at].2.iter().map(|s| s.to_string()).collect();
    (lines[at].command.clone(), wanted)
}

/// A background command's output against its expectations.
fn check((command, wanted): &(String, Vec<String>), out: &std::process::Output, url: &str) {
    assert!(
        out.status.success(),
        "`{command}` failed: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    for part in wanted {
        let part = part.replace("{server}", url);
        assert!(
            stdout.contains(&part),
            "`{command}` did not print `{part}`:\n{stdout}"
        );
    }
}
