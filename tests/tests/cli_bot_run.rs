//! Outside engines as players, through the real binaries: an account is marked as an engine
//! account (`turnpost account engine on`, `PUT /v1/me/engine`, both backends), `turnpost bot
//! run` refuses an unmarked one, and `turnpost bot run --engine examples/engine.py` plays a
//! whole Kefren game against a person (two runs at once: no turn is played twice) and a
//! three-seat Chinese Checkers game against two server bots; `--protocol ccp` with
//! `examples/ccp_engine.py` (a CCP engine of its own, that knows the board only by CCP's cell
//! ids) plays a 2-player Chinese Checkers game against a server bot, and refuses what CCP
//! cannot play.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use turnpost_tests::{Backend, Cli, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `examples/engine.py` in the workspace.
fn example_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join("engine.py")
}

/// `examples/ccp_engine.py`, run by `python3` (as a command line for `--engine`).
fn ccp_engine() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join("ccp_engine.py");
    format!("python3 '{}' --seed 7", path.to_str().unwrap())
}

/// The profile's token, as `turnpost login` keeps it.
fn token(cli: &Cli) -> String {
    std::fs::read_to_string(cli.config.join("tokens").join("default"))
        .unwrap()
        .trim()
        .to_string()
}

/// A plain HTTP/1.1 request with an optional bearer token and JSON body: (status, body).
fn request(
    server: &ServerProcess,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
        server.address
    );
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    let body = body.unwrap_or("");
    head.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(head.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    turnpost_tests::status_and_body(&response)
}

/// A `turnpost bot run` in the background: its stdout lines are gathered.
struct BotRun {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl BotRun {
    fn start(cli: &Cli, args: &[&str]) -> BotRun {
        let engine = example_engine();
        BotRun::start_engine(cli, engine.to_str().unwrap(), args)
    }

    /// A run of the engine command line `engine`.
    fn start_engine(cli: &Cli, engine: &str, args: &[&str]) -> BotRun {
        let mut all = vec!["bot", "run", "--engine", engine];
        // The test's own movetime, unless it gives one (the option may be given once).
        if !args.contains(&"--movetime") {
            all.extend_from_slice(&["--movetime", "500"]);
        }
        all.extend_from_slice(args);
        let mut child = cli
            .command(&all)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let seen = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                eprintln!("bot run: {line}");
                seen.lock().unwrap().push(line);
            }
        });
        BotRun { child, lines }
    }

    /// The lines printed so far.
    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// Fails the test at once if the run ended (a usage error, a crash): nothing would play.
    fn assert_running(&mut self) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!(
                "bot run ended early with {status} (its stderr is above); it said {:#?}",
                self.lines()
            );
        }
    }

    /// Ends the run as Ctrl-C does; it exits 0 (within 10 s, or it is killed and the test
    /// fails).
    fn stop(mut self) -> Vec<String> {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            // Drop kills it.
            assert!(
                Instant::now() < deadline,
                "bot run did not end within 10 s of SIGINT: {:#?}",
                self.lines()
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.code(), Some(0), "bot run ended with {status}");
        // The reader thread has the last lines once the pipe closed.
        std::thread::sleep(Duration::from_millis(200));
        self.lines()
    }
}

impl Drop for BotRun {
    fn drop(&mut self) {
        // Also when the test failed: no run outlives it (its engine ends with its input).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a test waits for a game to end before it fails (instead of hanging): a Kefren game
/// against a random player and a Chinese Checkers game against two level-1 bots take well
/// under a minute on a loaded 2-core machine.
const GAME_DEADLINE: Duration = Duration::from_secs(120);

#[test]
fn an_account_is_marked_as_an_engine_account_on_both_backends() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let server = ServerProcess::start_on(backend, &[]);
        let bert = Cli::new(server.data_dir.join("bert"));
        bert.sign_up(&server, "bert");

        // Not an engine account: `bot run` refuses, and says how to mark it.
        assert_eq!(
            bert.json(&["account", "engine"])["account"]["engine"],
            false
        );
        let engine = example_engine();
        let out = bert.run(&["bot", "run", "--engine", engine.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{backend:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("bert is not an engine account")
                && text(&out.stderr).contains("turnpost account engine on"),
            "{}",
            text(&out.stderr)
        );

        // Marked, shown, unmarked; setting it again changes nothing.
        for (switch, engine) in [("on", true), ("on", true), ("off", false), ("on", true)] {
            let set = bert.json(&["account", "engine", switch]);
            assert_eq!(set["account"]["engine"], engine, "{backend:?} {switch}");
            let shown = bert.json(&["account", "engine"]);
            assert_eq!(shown["account"]["engine"], engine, "{backend:?} {switch}");
        }
        let out = bert.run(&["account", "engine"]);
        assert!(
            text(&out.stdout).contains("is an engine account"),
            "{}",
            text(&out.stdout)
        );

        // The API: a token is needed, the body is `{"engine": BOOL}` and nothing else.
        let token = token(&bert);
        let (status, _) = request(
            &server,
            "PUT",
            "/v1/me/engine",
            None,
            Some(r#"{"engine":true}"#),
        );
        assert_eq!(status, 401, "{backend:?}");
        for bad in [
            r#"{"engine":"yes"}"#,
            r#"[true]"#,
            r#"{"engine":true,"x":1}"#,
            "{}",
        ] {
            let (status, body) = request(&server, "PUT", "/v1/me/engine", Some(&token), Some(bad));
            assert!(
                matches!(status, 400 | 422),
                "{backend:?} {bad}: {status} {body}"
            );
        }
        let (status, body) = request(
            &server,
            "PUT",
            "/v1/me/engine",
            Some(&token),
            Some(r#"{"engine":false}"#),
        );
        assert_eq!((status, body.as_str()), (200, r#"{"engine":false}"#));
        let (status, body) = request(&server, "GET", "/v1/me/engine", Some(&token), None);
        assert_eq!((status, body.as_str()), (200, r#"{"engine":false}"#));

        // Shown as such: on its page and in its profile, in the view of a game it plays, and
        // in the mail of a challenge it makes.
        bert.json(&["account", "engine", "on"]);
        let anna = Cli::new(server.data_dir.join("anna"));
        anna.sign_up(&server, "anna");
        let challenge = bert.json(&["new", "kefren", "--with", "anna", "--unrated"]);
        let challenge_id = challenge["game"]["id"].to_string();
        let seen = anna.json(&["show", &challenge_id]);
        let seats = seen["game"]["seats"].as_array().unwrap();
        assert_eq!(seats[0]["player"], "bert", "{seen}");
        assert_eq!(seats[0]["engine"], true, "{seen}");
        assert!(seats[1].get("engine").is_none(), "{seen}");
        let (status, page) = server.get("/players/bert").unwrap();
        assert_eq!(status, 200, "{backend:?}");
        assert!(page.contains("bert (engine)"), "{page}");
        let (status, profile) = request(&server, "GET", "/v1/players/bert", Some(&token), None);
        assert_eq!(status, 200, "{backend:?}");
        assert!(profile.contains(r#""engine":true"#), "{profile}");
        let (_, profile) = request(&server, "GET", "/v1/players/anna", Some(&token), None);
        assert!(profile.contains(r#""engine":false"#), "{profile}");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let said = server
                .smtp
                .messages_to("anna@example.org")
                .iter()
                .map(|mail| mail.data.replace("=\r\n", "").replace("=\n", ""))
                .any(|text| text.contains("bert (engine) challenges you"));
            if said {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{backend:?}: no challenge mail to anna saying `bert (engine)`"
            );
            std::thread::sleep(Duration::from_millis(100));
        }

        // In the OpenAPI document, both methods.
        let (status, doc) = server.get("/v1/openapi.json").unwrap();
        assert_eq!(status, 200);
        let doc: Value = serde_json::from_str(&doc).unwrap();
        assert!(
            doc["paths"]["/v1/me/engine"]["get"].is_object(),
            "{backend:?}"
        );
        assert!(
            doc["paths"]["/v1/me/engine"]["put"].is_object(),
            "{backend:?}"
        );
    }
}

/// The row of a Kefren cell (`B18` → 18).
fn kefren_row(cell: &str) -> i64 {
    cell.get(1..).and_then(|row| row.parse().ok()).unwrap()
}

/// Plays `cli`'s move at `game`'s ply as a hurried person would: a move that goes furthest
/// forward (Black, seat 1, goes up), among those at random, so that the game ends in a few
/// dozen moves rather than hundreds.
fn play_forward(cli: &Cli, id: &str, game: &Value, pick: &mut u64) {
    let legal: Vec<&str> = game["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap())
        .collect();
    let up = if game["your_seat"] == 1 { 1 } else { -1 };
    let gain = |mv: &str| {
        let cells: Vec<&str> = mv.split(['-', ':']).collect();
        up * (kefren_row(cells[cells.len() - 1]) - kefren_row(cells[0]))
    };
    let best = legal.iter().map(|mv| gain(mv)).max().unwrap();
    let best: Vec<&str> = legal.into_iter().filter(|mv| gain(mv) == best).collect();
    // A small linear congruential generator: reproducible, and no dependency.
    *pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mv = best[usize::try_from(*pick >> 33).unwrap() % best.len()];
    let ply = game["ply"].to_string();
    cli.json(&["move", id, "--ply", &ply, mv]);
}

#[test]
fn the_example_engine_plays_a_whole_kefren_game_against_a_person() {
    let server = ServerProcess::start_on(Backend::Sqlite, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bert = Cli::new(server.data_dir.join("bert"));
    anna.sign_up(&server, "anna");
    bert.sign_up(&server, "bert");
    bert.json(&["account", "engine", "on"]);

    // Two runs for the same account at once: each turn is still played once.
    let mut first = BotRun::start(&bert, &["--accept", "kefren,sanqi", "--rated"]);
    let mut second = BotRun::start(
        &bert,
        &["--accept", "kefren", "--max-games", "3", "--rated"],
    );
    std::thread::sleep(Duration::from_millis(1500));

    // A Chinese Checkers challenge is not among the kinds accepted: declined.
    let refused = anna.json(&["new", "chinese-checkers", "--with", "bert", "--unrated"]);
    let refused_id = refused["game"]["id"].to_string();
    // Rated, so that the ratings list shows the engine account as such.
    let game = anna.json(&["new", "kefren", "--with", "bert", "--rated"]);
    let id = game["game"]["id"].to_string();

    let started = Instant::now();
    let mut pick = 7;
    let mut anna_moves = 0;
    let finished = loop {
        first.assert_running();
        second.assert_running();
        let left = GAME_DEADLINE.saturating_sub(started.elapsed());
        assert!(
            !left.is_zero(),
            "Kefren game #{id} did not end within {} s ({anna_moves} moves by anna); the runs \
             said {:#?} and {:#?}",
            GAME_DEADLINE.as_secs(),
            first.lines(),
            second.lines()
        );
        let timeout = left.as_secs().clamp(1, 30).to_string();
        let out = anna.run(&["wait", "--game", &id, "--json", "--timeout", &timeout]);
        if out.status.code() == Some(1) && text(&out.stderr).contains("still not your move") {
            // `wait` gave up: the deadline above decides.
            continue;
        }
        assert!(out.status.success(), "wait: {}", text(&out.stderr));
        let game = serde_json::from_slice::<Value>(&out.stdout).unwrap()["game"].clone();
        match game["status"].as_str().unwrap() {
            "finished" => break game,
            "active" if game["your_turn"] == true => {
                play_forward(&anna, &id, &game, &mut pick);
                anna_moves += 1;
            }
            "active" => {}
            other => panic!("game #{id} is {other}: {game}"),
        }
    };
    eprintln!(
        "Kefren game #{id}: {} after {} moves in {:.1} s",
        finished["result"],
        finished["ply"],
        started.elapsed().as_secs_f64()
    );
    assert_eq!(finished["result_reason"], "rules", "{finished}");
    let ply = finished["ply"].as_u64().unwrap();
    assert!(ply > 2, "{finished}");
    let bert_moves = usize::try_from(ply).unwrap() - anna_moves;

    let mut lines = first.stop();
    lines.extend(second.stop());
    // Every turn of bert's was played, and only by the runs: the record holds one move a ply,
    // and each of bert's is one a run reported. (Both runs may report the same move: when
    // they chose alike, the second request is the first's identical retry, which the server
    // answers as played without playing it again; a different move would have been refused.)
    let history = bert.json(&["history", &id]);
    let bert_plies: Vec<u64> = history["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 2)
        .map(|m| {
            assert_ne!(m["automatic"], true, "{m}");
            m["ply"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(bert_plies.len(), bert_moves, "{history}");
    let reported: std::collections::BTreeMap<u64, &str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix(&format!("#{id} kefren: played ")))
        .map(|rest| {
            let (mv, rest) = rest.split_once(" (move ").unwrap();
            let ply: u64 = rest.split(')').next().unwrap().parse().unwrap();
            (ply, mv)
        })
        .collect();
    for m in history["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 2)
    {
        // `ply` in the record counts the moves before it; `(move N)` counts from 1.
        let ply = m["ply"].as_u64().unwrap() + 1;
        assert_eq!(
            reported.get(&ply).copied(),
            m["move"].as_str(),
            "bert's move {m} is not the one a run reported: {lines:#?}"
        );
    }
    assert_eq!(reported.len(), bert_moves, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|line| line
                .starts_with(&format!("#{id} kefren: accepted the challenge (with anna)"))),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|line| line
            == &format!(
            "#{refused_id} chinese-checkers: declined: chinese-checkers is not among kefren, sanqi"
        ) || line
            == &format!(
                "#{refused_id} chinese-checkers: declined: chinese-checkers is not among kefren"
            )),
        "{lines:#?}"
    );
    let declined = anna.json(&["show", &refused_id]);
    assert_eq!(declined["game"]["status"], "cancelled", "{declined}");

    // The ratings list says which player is an engine: the API and the page.
    let (status, board) = request(
        &server,
        "GET",
        "/v1/ratings/kefren",
        Some(&token(&anna)),
        None,
    );
    assert_eq!(status, 200, "{board}");
    let board: Value = serde_json::from_str(&board).unwrap();
    let engine_of = |name: &str| {
        board["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|entry| entry["player"] == name)
            .map(|entry| entry["engine"].clone())
    };
    assert_eq!(engine_of("bert"), Some(Value::Bool(true)), "{board}");
    assert_eq!(engine_of("anna"), Some(Value::Bool(false)), "{board}");
    let (status, page) = server.get("/ratings/kefren").unwrap();
    assert_eq!(status, 200);
    assert!(page.contains("bert</a> (engine)"), "{page}");
    assert!(!page.contains("anna</a> (engine)"), "{page}");
}

#[test]
fn the_example_engine_plays_chinese_checkers_with_two_server_bots() {
    let server = ServerProcess::start_on(Backend::Sqlite, &[]);
    let bert = Cli::new(server.data_dir.join("bert"));
    bert.sign_up(&server, "bert");
    bert.json(&["account", "engine", "on"]);
    // The engine account challenges two bots itself; the run finds the game waiting.
    let game = bert.json(&[
        "new",
        "chinese-checkers",
        "--with",
        "bot-1,bot-2",
        "--option",
        "players=3",
    ]);
    let id = game["game"]["id"].to_string();
    let mut run = BotRun::start(&bert, &["--movetime", "300"]);

    // To the end: a greedy engine against the quickest bots ends in about 150 moves.
    let started = Instant::now();
    let last = loop {
        run.assert_running();
        let game = bert.json(&["show", &id])["game"].clone();
        if game["status"] == "finished" {
            break game;
        }
        assert_eq!(game["status"], "active", "{game}");
        assert!(
            started.elapsed() < GAME_DEADLINE,
            "Chinese Checkers game #{id} did not end within {} s (at move {}); the run said \
             {:#?}",
            GAME_DEADLINE.as_secs(),
            game["ply"],
            run.lines()
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    let lines = run.stop();
    let ply = last["ply"].as_u64().unwrap();
    eprintln!(
        "Chinese Checkers game #{id}: {} after {ply} moves in {:.1} s",
        last["status"],
        started.elapsed().as_secs_f64()
    );
    let played = lines
        .iter()
        .filter(|line| line.starts_with(&format!("#{id} chinese-checkers: played ")))
        .count();
    assert!(played > 0, "{lines:#?}");
    // Every move of bert's seat (the server's automatic passes aside) was played by the run,
    // once: the record read after the run ended holds exactly the moves it reported.
    let moves = bert.json(&["history", &id]);
    let by_engine = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 1 && m["automatic"] != true)
        .count();
    assert_eq!(by_engine, played, "{lines:#?}");
}

/// Moves of seat 1 a CCP engine plays before the test resigns for it: enough to go through
/// starts, steps and hops both ways of the cell mapping, and few enough for a random engine.
const CCP_MOVES: usize = 6;

#[test]
fn a_ccp_engine_plays_two_player_chinese_checkers_and_nothing_else() {
    let server = ServerProcess::start_on(Backend::Sqlite, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bert = Cli::new(server.data_dir.join("bert"));
    anna.sign_up(&server, "anna");
    bert.sign_up(&server, "bert");
    bert.json(&["account", "engine", "on"]);

    // A CCP engine plays Chinese Checkers only: asking it to accept Kefren is a usage error.
    let out = bert.run(&[
        "bot",
        "run",
        "--engine",
        &ccp_engine(),
        "--protocol",
        "ccp",
        "--accept",
        "chinese-checkers,kefren",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--protocol ccp plays only chinese-checkers"),
        "{}",
        text(&out.stderr)
    );

    // bert's own 2-player game against a bot (bert is seat 1: CCP's player 0, first to
    // move), and a 3-player one the run must leave alone.
    let game = bert.json(&["new", "chinese-checkers", "--with", "bot-1"]);
    let id = game["game"]["id"].to_string();
    let three = bert.json(&[
        "new",
        "chinese-checkers",
        "--with",
        "bot-1,bot-2",
        "--option",
        "players=3",
    ]);
    let three_id = three["game"]["id"].to_string();
    let mut run = BotRun::start_engine(
        &bert,
        &ccp_engine(),
        &[
            "--protocol",
            "ccp",
            "--accept",
            "chinese-checkers",
            "--movetime",
            "200",
        ],
    );
    // A challenge of three seats is declined, saying why.
    std::thread::sleep(Duration::from_millis(1000));
    let declined = anna.json(&[
        "new",
        "chinese-checkers",
        "--with",
        "bert,bot-2",
        "--option",
        "players=3",
        "--unrated",
    ]);
    let declined_id = declined["game"]["id"].to_string();

    let started = Instant::now();
    let by_engine = |moves: &Value| -> Vec<String> {
        moves["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["seat"] == 1 && m["automatic"] != true)
            .map(|m| m["move"].as_str().unwrap().to_string())
            .collect()
    };
    let played = loop {
        run.assert_running();
        let moves = bert.json(&["history", &id]);
        let played = by_engine(&moves);
        let game = bert.json(&["show", &id])["game"].clone();
        if played.len() >= CCP_MOVES || game["status"] == "finished" {
            break played;
        }
        assert!(
            started.elapsed() < GAME_DEADLINE,
            "the CCP engine played {} moves of game #{id} within {} s; the run said {:#?}",
            played.len(),
            GAME_DEADLINE.as_secs(),
            run.lines()
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    let lines = run.stop();
    eprintln!(
        "CCP engine in game #{id}: {played:?} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Seat 1 starts in the bottom point (rows N-Q); CCP's player 0 in the top one: its first
    // move, translated back, leaves the bottom point (an unturned board would name row A-D,
    // with no peg of seat 1 there).
    let first = played.first().unwrap();
    assert!(
        ["N", "O", "P", "Q"]
            .iter()
            .any(|row| first.starts_with(row)),
        "{first}"
    );
    // Each move the run reported is one the server took, once, in order. The run is stopped at
    // any moment: the server may hold one more move it had no time to report.
    let prefix = format!("#{id} chinese-checkers: played ");
    let reported: Vec<String> = lines
        .iter()
        .filter_map(|line| line.strip_prefix(&prefix))
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_owned)
        .collect();
    let taken = by_engine(&bert.json(&["history", &id]));
    assert!(
        taken.starts_with(&reported) && taken.len() - reported.len() <= 1,
        "reported {reported:?}, taken {taken:?}: {lines:#?}"
    );
    assert!(
        lines.iter().any(|line| line.starts_with(&format!(
            "#{three_id} chinese-checkers: not played: a CCP engine plays Chinese Checkers \
             only with 2 players"
        ))),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|line| line.starts_with(&format!(
            "#{declined_id} chinese-checkers: declined: a CCP engine plays Chinese Checkers \
             only with 2 players"
        )) && line.ends_with("not players=3")),
        "{lines:#?}"
    );
    assert_eq!(bert.json(&["show", &three_id])["game"]["ply"], 0);
    // The end: bert resigns; the game is over.
    bert.json(&["resign", &id, "--yes"]);
    assert_eq!(bert.json(&["show", &id])["game"]["status"], "finished");
}
