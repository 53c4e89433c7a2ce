//! Whole games through the real `turnpost` CLI against the real server, on SQLite and on
//! PostgreSQL: challenge, accept, play to the end, stale and illegal moves, `wait`, records,
//! and two copies of `examples/random-bot.sh` playing each other.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use turnpost_tests::{binary, Backend, Cli, ServerProcess};

struct Table {
    server: ServerProcess,
    anna: Cli,
    bob: Cli,
}

fn table(backend: Backend) -> Table {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    Table { server, anna, bob }
}

/// anna challenges bob to `kind`; bob accepts. Returns the game id.
fn start_game(table: &Table, kind: &str) -> i64 {
    let game = table.anna.json(&["new", kind, "--with", "bob"]);
    let id = game["game"]["id"].as_i64().unwrap();
    let invites = table.bob.json(&["invites"]);
    assert!(invites["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id));
    let accepted = table.bob.json(&["accept", &id.to_string()]);
    assert_eq!(accepted["game"]["status"], "active");
    id
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The destination row of a Kefren move (`F2-F3` → 3).
fn kefren_row(mv: &str) -> i64 {
    let last = mv.rsplit(['-', ':']).next().unwrap();
    last[1..].parse().unwrap()
}

/// Plays the game to its end: each player in turn asks for its legal moves and plays one
/// chosen by `choose(moves, seat, step)`. Returns the final game document.
fn play_out(
    table: &Table,
    id: i64,
    choose: &mut dyn FnMut(&[String], u64, usize) -> String,
) -> Value {
    let id_text = id.to_string();
    for step in 0..400 {
        let game = table.anna.json(&["show", &id_text])["game"].clone();
        if game["status"] != "active" {
            return game;
        }
        let seat = game["to_move"].as_u64().unwrap();
        let player = if seat == 1 { &table.anna } else { &table.bob };
        let moves = player.json(&["moves", &id_text]);
        assert_eq!(moves["moves"]["your_turn"], true);
        let list: Vec<String> = moves["moves"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let mv = choose(&list, seat, step);
        let ply = game["ply"].to_string();
        let after = player.json(&["move", &id_text, "--ply", &ply, &mv]);
        assert_eq!(
            after["game"]["ply"].as_u64().unwrap(),
            game["ply"].as_u64().unwrap() + 1
        );
    }
    panic!("game {id} did not end in 400 plies");
}

fn whole_games(backend: Backend) {
    let table = table(backend);
    let id = start_game(&table, "kefren");
    let id_text = id.to_string();

    // Not bob's turn: refused with exit 1.
    let out = table.bob.run(&["move", &id_text, "E18-E17"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not your turn"),
        "{}",
        text(&out.stderr)
    );
    // `moves` still lists the opponent's moves, but says on stderr whose they are.
    let out = table.bob.run(&["moves", &id_text]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("F2-F3\n"));
    assert!(
        text(&out.stderr).contains("not your turn") && text(&out.stderr).contains("anna"),
        "{}",
        text(&out.stderr)
    );
    let out = table.anna.run(&["moves", &id_text]);
    assert_eq!(text(&out.stderr), "");
    // An illegal move shows the engine's reason; a syntax error shows where.
    let out = table.anna.run(&["move", &id_text, "F2-F9"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not reachable from F2"),
        "{}",
        text(&out.stderr)
    );
    let out = table.anna.run(&["move", &id_text, "F2-Z3"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("the \"Z\" after \"F2-\"") && err.contains("     ^"),
        "{err}"
    );
    // A dry run checks without playing.
    let out = table.anna.run(&["move", &id_text, "--dry-run", "f2-f3"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("F2-F3 is legal"));
    assert_eq!(table.anna.json(&["show", &id_text])["game"]["ply"], 0);

    // `wait` returns when the opponent has moved.
    let waiting = table
        .bob
        .command(&["wait", "--game", &id_text, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    table.anna.json(&["move", &id_text, "--ply", "0", "F2-F3"]);
    let out = waiting.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let seen: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(seen["version"], 1);
    assert_eq!(seen["game"]["your_turn"], true);
    assert_eq!(seen["game"]["ply"], 1);

    // A stale --ply is refused with a clear message.
    let out = table.bob.run(&["move", &id_text, "--ply", "0", "E18-E17"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("1 move played now, you saw 0"),
        "{}",
        text(&out.stderr)
    );

    // Play on to the end: each side pushes forward (captures first), ties broken by a fixed
    // random sequence that is known to end the game quickly.
    let mut rng: u64 = 10 * 7919;
    let game = play_out(&table, id, &mut |moves, seat, _| {
        let key = |m: &String| {
            if seat == 1 {
                kefren_row(m)
            } else {
                -kefren_row(m)
            }
        };
        let best = moves.iter().map(key).max().unwrap();
        let top: Vec<&String> = moves.iter().filter(|m| key(m) == best).collect();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        top[(rng % top.len() as u64) as usize].clone()
    });
    assert_eq!(game["status"], "finished");
    assert!(
        game["result"].as_str().unwrap().starts_with("won"),
        "{game}"
    );

    // Moving in a finished game says it is over and who won, by name.
    let out = table.anna.run(&["move", &id_text, "A2-A3"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("is over: ") && err.contains(" won"), "{err}");
    assert!(!err.contains("won 1") && !err.contains("won 2"), "{err}");
    let shown = text(&table.bob.run(&["show", &id_text]).stdout);
    assert!(shown.contains("moves played · finished: "), "{shown}");
    assert!(
        shown.contains("anna won") || shown.contains("bob won"),
        "{shown}"
    );

    // The record replays to the final position.
    let out = table.anna.run(&["record", &id_text]);
    assert!(out.status.success());
    let record = turnpost_shared::GameRecord::parse(&text(&out.stdout)).unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.position_text(), game["position"].as_str().unwrap());
    let history = table.bob.json(&["history", &id_text]);
    assert_eq!(
        history["moves"].as_array().unwrap().len() as u64,
        game["ply"].as_u64().unwrap()
    );
    // The text history names the players and numbers the moves from 1.
    let out = table.bob.run(&["history", &id_text]);
    let history = text(&out.stdout);
    let first = history.lines().next().unwrap();
    assert!(
        first.starts_with("move   1  anna, Black (seat 1)  F2-F3"),
        "{history}"
    );
    let svg = table.server.data_dir.join("board.svg");
    let out = table
        .anna
        .run(&["board", &id_text, "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));

    // A SanQi game to the end, first legal move by a fixed random choice.
    let id = start_game(&table, "sanqi");
    let mut rng: u64 = 17;
    let game = play_out(&table, id, &mut |moves, _, _| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        moves[(rng % moves.len() as u64) as usize].clone()
    });
    assert_eq!(game["status"], "finished");
}

#[test]
fn whole_games_through_the_cli_on_sqlite() {
    whole_games(Backend::Sqlite);
}

#[test]
fn whole_games_through_the_cli_on_postgres() {
    whole_games(Backend::Postgres);
}

#[test]
fn two_shell_bots_play_a_whole_game() {
    let table = table(Backend::Sqlite);
    let id = start_game(&table, "sanqi").to_string();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/random-bot.sh");
    // The bots find `turnpost` on PATH, as a user's would.
    let bin_dir = binary("turnpost-client", "turnpost")
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let bots: Vec<_> = [&table.anna, &table.bob]
        .iter()
        .map(|player| {
            player
                .program(
                    std::path::Path::new("bash"),
                    &[script.to_str().unwrap(), &id],
                )
                .env("PATH", &path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for bot in bots {
        let out = bot.wait_with_output().unwrap();
        assert!(out.status.success(), "bot failed: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("game over"));
    }
    let game = table.anna.json(&["show", &id]);
    assert_eq!(game["game"]["status"], "finished");
}

/// The command in the `n`th turn card (1-based) that reached `email` at the server's SMTP
/// sink, split into the CLI's arguments (without the leading `turnpost`). Waits for the mail.
fn card_command(server: &ServerProcess, email: &str, n: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let commands: Vec<String> = server
            .smtp
            .messages_to(email)
            .into_iter()
            .filter_map(|mail| {
                mail.data
                    .lines()
                    .map(str::trim)
                    .find(|l| l.starts_with("turnpost move "))
                    .map(str::to_owned)
            })
            .collect();
        if let Some(command) = commands.get(n - 1) {
            return command
                .split_whitespace()
                .skip(1)
                .map(str::to_owned)
                .collect();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no turn card #{n} for {email} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_command_in_a_turn_card_plays_when_pasted_into_the_cli() {
    let table = table(Backend::Sqlite);
    let id = start_game(&table, "kefren");
    // anna moves first: the start mail is her turn card; then bob's card after her move.
    for (ply, player, email) in [
        (0, &table.anna, "anna@example.org"),
        (1, &table.bob, "bob@example.org"),
    ] {
        let args = card_command(&table.server, email, 1);
        assert_eq!(
            args[..4],
            ["move", &id.to_string(), "--ply", &ply.to_string()]
        );
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = player.run(&words);
        assert!(
            out.status.success(),
            "turnpost {words:?}: {}",
            text(&out.stderr)
        );
        let game = table.anna.json(&["show", &id.to_string()])["game"].clone();
        assert_eq!(game["ply"].as_u64(), Some(ply + 1));
    }
}

/// `turnpost new kefren --with bot-3`: the bot accepts at once, and a person finishes the game
/// through the CLI while the server's bot worker answers each move.
#[test]
fn a_person_finishes_a_game_against_bot_3_through_the_cli() {
    let server = ServerProcess::start_on(Backend::Sqlite, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    anna.sign_up(&server, "anna");
    let out = anna.run(&["new", "kefren", "--with", "bot-3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("started (the bots accepted at once)"),
        "{}",
        text(&out.stdout)
    );
    let stdout = text(&out.stdout);
    let id: String = stdout["Game #".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    assert!(stdout.starts_with("Game #") && !id.is_empty(), "{stdout}");
    let started = std::time::Instant::now();
    let mut mine = 0;
    loop {
        let game = anna.json(&["show", &id])["game"].clone();
        if game["status"] != "active" {
            assert_eq!(game["status"], "finished", "{game}");
            assert!(game["result"].is_string(), "{game}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "the game did not end: {game}"
        );
        if game["to_move"] != 1 {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        }
        let moves = anna.json(&["moves", &id]);
        let first = moves["moves"]["moves"][0].as_str().unwrap().to_owned();
        let ply = game["ply"].to_string();
        let after = anna.json(&["move", &id, "--ply", &ply, &first]);
        assert!(after["game"]["ply"].as_u64().unwrap() > game["ply"].as_u64().unwrap());
        mine += 1;
        assert!(mine < 300, "too many moves: {game}");
    }
    let record = anna.run(&["record", &id]);
    assert!(record.status.success(), "{}", text(&record.stderr));
    assert!(
        text(&record.stdout).contains("bot-3"),
        "{}",
        text(&record.stdout)
    );
}

/// `turnpost new chinese-checkers --on-leave bot`: when bob resigns, bot-3 plays his seat on;
/// `show` says so, the record has the `resign 2 bot` line and replays in `turnpost engine`.
#[test]
fn on_leave_bot_through_the_cli() {
    let table = table(Backend::Sqlite);
    let cleo = Cli::new(table.server.data_dir.join("cleo"));
    cleo.sign_up(&table.server, "cleo");
    let refused = table.anna.run(&[
        "new",
        "chinese-checkers",
        "--with",
        "bob,cleo",
        "--on-leave",
        "stay",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("`remove` or `bot`"));
    let game = table.anna.json(&[
        "new",
        "chinese-checkers",
        "--with",
        "bob,cleo",
        "--on-leave",
        "bot",
    ]);
    assert_eq!(game["game"]["on_leave"], "bot", "{game}");
    let id = game["game"]["id"].as_i64().unwrap().to_string();
    assert!(table.bob.run(&["accept", &id]).status.success());
    assert!(cleo.run(&["accept", &id]).status.success());
    let out = table.bob.run(&["resign", &id, "--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = table.anna.run(&["show", &id]);
    assert!(
        text(&shown.stdout).contains("left: bob (bot-3 plays on)"),
        "{}",
        text(&shown.stdout)
    );
    let seats = table.anna.json(&["show", &id])["game"]["seats"].clone();
    assert_eq!(seats[1]["played_by"], "bot-3", "{seats}");
    let record = text(&table.anna.run(&["record", &id]).stdout);
    assert!(record.contains("[Seat2-Bot \"bot-3\"]"), "{record}");
    let moves: Vec<&str> = record
        .lines()
        .skip_while(|line| !line.is_empty())
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(moves.first(), Some(&"resign 2 bot"), "{record}");
    let replay = table.anna.run(&[
        "engine",
        "status",
        "chinese-checkers",
        "--option",
        "players=3",
        "--moves",
        &moves.join(" "),
    ]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert_eq!(text(&replay.stdout).trim(), "ongoing 1", "{record}");
}
