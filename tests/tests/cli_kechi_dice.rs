//! A Kechi die game through the real `turnpost` CLI against the real server (issue 19 item 2),
//! on SQLite and on PostgreSQL: while it runs, `show`, `moves`, completion, `record`, `board`
//! and the lists work from the roll of the turn in progress and never show the seed; once it
//! is over the record reveals the seed, which matches the commitment shown from the start, and
//! `turnpost engine replay` reproduces every roll.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use sha2::{Digest as _, Sha256};
use turnpost_tests::{Backend, Cli, ServerProcess};

/// The rules' die, written here from the rules file: `splitmix64(seed + ply) mod 6 + 1`.
fn roll(seed: u64, ply: u64) -> u64 {
    let mut z = seed.wrapping_add(ply).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 6 + 1
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed; returns its standard output.
fn out(cli: &Cli, args: &[&str]) -> String {
    let run = cli.run(args);
    assert!(
        run.status.success(),
        "turnpost {args:?}: {}",
        text(&run.stderr)
    );
    text(&run.stdout)
}

fn dice_game(backend: Backend) {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    let made = anna.json(&["new", "kechi", "--with", "bob", "--option", "total=die"]);
    let id = made["game"]["id"].as_i64().unwrap();
    let id_text = id.to_string();
    // A challenge has no dice yet: no roll, no commitment; `show` still draws it and says so.
    assert!(made["game"]["seed_sha256"].is_null(), "{made}");
    let invited = out(&bob, &["show", &id_text]);
    assert!(
        invited.contains("dice: the seed is drawn when the game starts")
            && invited.contains("your goal"),
        "{invited}"
    );
    // Everything the CLI showed while the game ran, checked for the seed at the end.
    let mut seen = vec![made.to_string(), invited, out(&bob, &["invites"])];
    let accepted = bob.json(&["accept", &id_text]);
    let commitment = accepted["game"]["seed_sha256"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);
    seen.push(accepted.to_string());

    for ply in 0..6u64 {
        let player = if ply % 2 == 0 { &anna } else { &bob };
        let shown = out(player, &["show", &id_text]);
        assert!(
            shown.contains(&format!(
                "dice: seed hidden until the game ends, SHA-256 {commitment}"
            )),
            "{shown}"
        );
        let game = player.json(&["show", &id_text])["game"].clone();
        assert_eq!(game["ply"], ply);
        assert!(game["options"].get("seed").is_none(), "{game}");
        let total = game["position"]
            .as_str()
            .unwrap()
            .split(' ')
            .nth(3)
            .unwrap();
        assert!(
            shown.contains(&format!("your die roll: {total} ")),
            "{shown}"
        );
        // `moves` and completion work from the roll alone (the CLI's own engine checks them).
        let moves = out(player, &["moves", &id_text, "--all"]);
        let first = moves.lines().next().unwrap().to_owned();
        let completed = out(player, &["__complete-moves", "--", "move", &id_text]);
        assert_eq!(completed, moves);
        let checked = out(player, &["move", &id_text, "--dry-run", &first]);
        assert!(checked.contains("is legal"), "{checked}");
        let svg = server.data_dir.join(format!("board-{ply}.svg"));
        out(player, &["board", &id_text, "--svg", svg.to_str().unwrap()]);
        seen.extend([
            shown,
            game.to_string(),
            moves,
            std::fs::read_to_string(&svg).unwrap(),
            out(&anna, &["record", &id_text]),
            out(&bob, &["games"]),
            out(&bob, &["history", &id_text]),
        ]);
        let ply_text = ply.to_string();
        out(player, &["move", &id_text, "--ply", &ply_text, &first]);
    }
    out(&anna, &["resign", &id_text, "--yes"]);

    // The end: the record reveals the seed, matching the commitment from the start.
    let record = out(&bob, &["record", &id_text]);
    let parsed = turnpost_shared::GameRecord::parse(&record).unwrap();
    let seed_text = parsed.header("Seed").unwrap().to_owned();
    let seed: u64 = seed_text.parse().unwrap();
    let digest: String = Sha256::digest(seed_text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, commitment);
    assert_eq!(parsed.header("Seed-SHA256"), Some(commitment.as_str()));
    assert!(out(&bob, &["show", &id_text]).contains(&format!("dice seed: {seed_text}, SHA-256")),);
    // A drawn 64-bit seed is this short with a probability below 1e-9.
    assert!(seed > 10_000_000_000, "seed {seed}");
    for (index, shown) in seen.iter().enumerate() {
        for form in [seed_text.clone(), format!("{seed:x}"), format!("{seed:X}")] {
            assert!(
                !shown.contains(&form),
                "output {index} shows the seed:\n{shown}"
            );
        }
    }

    // `turnpost engine replay` checks the seed and reproduces every roll.
    let file = server.data_dir.join("record.txt");
    std::fs::write(&file, &record).unwrap();
    let replay = out(&bob, &["engine", "replay", file.to_str().unwrap()]);
    let lines: Vec<&str> = replay.lines().collect();
    assert_eq!(
        lines[0],
        format!("seed {seed} matches Seed-SHA256 {commitment}")
    );
    for (ply, line) in lines[1..=7].iter().enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        let n = fields.len();
        assert_eq!(fields[n - 1], ply.to_string(), "{line}");
        assert_eq!(fields[n - 4], roll(seed, ply as u64).to_string(), "{line}");
    }
    assert_eq!(lines.len(), 9, "{replay}");
}

#[test]
fn a_kechi_die_game_keeps_its_seed_until_the_end_on_sqlite() {
    dice_game(Backend::Sqlite);
}

#[test]
fn a_kechi_die_game_keeps_its_seed_until_the_end_on_postgres() {
    dice_game(Backend::Postgres);
}
