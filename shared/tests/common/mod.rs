//! The conformance harness every game plugs into: random playouts checking the engine contract,
//! perft tables from data files, and parsers fed arbitrary text.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

use proptest::prelude::*;
use turnpost_shared::play::Departure;
use turnpost_shared::{AnyGame, Game, GameKind, GameRecord, Options, Seat, Status};

/// A small deterministic generator, so failures replay exactly.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays `playouts` random games of at most `max_plies` plies from `start`, checking at every
/// position: canonical texts are unique and parse back to their move; playing never fails;
/// position text round-trips; `count_moves` agrees; a finished game has no moves; `AnyGame`
/// agrees with the typed engine.
pub fn check_playouts<G: Game>(start: &G, playouts: usize, max_plies: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let options = start.options();
    for playout in 0..playouts {
        let mut game = start.clone();
        let mut history = Vec::new();
        for _ in 0..max_plies {
            check_position(&game, &options, &history);
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            history.push(game.format_move(mv));
            game = game.play_move(mv);
        }
        check_position(&game, &options, &history);
        // Replaying the record through AnyGame reproduces the position.
        let replayed = AnyGame::new(G::KIND, &options)
            .unwrap()
            .replay(&history)
            .unwrap_or_else(|e| panic!("playout {playout}: replay failed: {e}"));
        assert_eq!(replayed.position_text(), game.position_text());
    }
}

fn check_position<G: Game>(game: &G, options: &Options, history: &[String]) {
    let context = || format!("after {:?}: {}", history, game.position_text());
    let moves = game.legal_moves();
    let status = game.status();
    assert_eq!(
        game.count_moves(),
        moves.len() as u64,
        "count_moves disagrees {}",
        context()
    );
    if status.is_over() {
        assert!(moves.is_empty(), "finished game has moves {}", context());
    } else {
        assert!(
            !moves.is_empty(),
            "ongoing game without moves {}",
            context()
        );
    }
    let mut texts = HashSet::new();
    for mv in &moves {
        let text = game.format_move(mv);
        assert!(
            texts.insert(text.clone()),
            "duplicate move {text} {}",
            context()
        );
        let parsed = game
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("canonical {text} does not parse: {e} {}", context()));
        let resolved = game
            .resolve_move(&parsed)
            .unwrap_or_else(|e| panic!("canonical {text} does not resolve: {e} {}", context()));
        assert_eq!(
            &resolved,
            mv,
            "{text} resolves to another move {}",
            context()
        );
        assert!(game.clone().play(&text).is_ok());
    }
    let printed = game.position_text();
    let read = G::from_position_text(options, &printed)
        .unwrap_or_else(|e| panic!("position text does not read back: {e}: {printed}"));
    assert_eq!(read.position_text(), printed);
    assert_eq!(
        read.status(),
        status,
        "status differs after reading {printed}"
    );
    assert_eq!(read.count_moves(), moves.len() as u64, "{printed}");
    let any = AnyGame::from_position_text(options, &printed).unwrap();
    assert_eq!(any.status(), status);
    let mut sorted: Vec<String> = texts.into_iter().collect();
    sorted.sort();
    assert_eq!(any.legal_moves(), sorted);
}

/// One entry of a perft data file.
#[derive(Debug)]
pub struct PerftCase {
    pub id: String,
    pub options: Vec<String>,
    pub position: Option<String>,
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft data file: blocks of `id <name>`, optional `options k=v …`, optional
/// `position <text>`, and `perft <depth> <nodes>` lines; `#` starts a comment.
pub fn read_perft_file(text: &str) -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                options: Vec::new(),
                position: None,
                counts: Vec::new(),
            }),
            "options" => {
                cases.last_mut().unwrap().options =
                    rest.split_whitespace().map(str::to_string).collect()
            }
            "position" => cases.last_mut().unwrap().position = Some(rest.to_string()),
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').unwrap();
                cases
                    .last_mut()
                    .unwrap()
                    .counts
                    .push((depth.parse().unwrap(), nodes.trim().parse().unwrap()));
            }
            other => panic!("unknown perft file key {other}"),
        }
    }
    cases
}

/// Checks every count of a perft file whose node count is within `budget`.
/// Returns how many counts were checked, so a test can insist that some were.
pub fn check_perft_file(kind: turnpost_shared::GameKind, text: &str, budget: u64) -> usize {
    let mut checked = 0;
    for case in read_perft_file(text) {
        let options = Options::from_pairs(&case.options).unwrap();
        let game = match &case.position {
            Some(position) => AnyGame::from_position_text(&options, position).unwrap(),
            None => AnyGame::new(kind, &options).unwrap(),
        };
        for (depth, nodes) in &case.counts {
            if *nodes > budget {
                continue;
            }
            assert_eq!(game.perft(*depth), *nodes, "{} perft {depth}", case.id);
            checked += 1;
        }
    }
    checked
}

/// Feeds arbitrary text to the move parser, the resolver and the position reader: they must
/// never panic, and syntax errors must point inside the text.
pub fn check_parsers_never_panic<G: Game>(game: &G, cases: u32) {
    let options = game.options();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = prop_oneof![
        ".*",
        "[a-zA-Z0-9:x@ ,\\-]{0,24}",
        "[a-iA-I][0-9]{1,2}([-:x ][a-iA-I][0-9]{1,2}){0,4}",
        "[a-yRBY@ ][0-9]{0,2}([-:x,@ ][a-y][0-9]{1,2}){0,4}",
    ];
    runner
        .run(&strategy, |text| {
            match game.parse_move(&text) {
                Ok(parsed) => {
                    let _ = game.resolve_move(&parsed);
                }
                Err(error) => {
                    prop_assert!(error.offset <= text.len(), "offset past the end: {error}");
                    prop_assert!(!error.expected.is_empty());
                }
            }
            let _ = G::from_position_text(&options, &text);
            let _ = G::from_position_text(&options, &format!("{} {text}", G::KIND.name()));
            Ok(())
        })
        .unwrap();
}

/// Random playouts through [`AnyGame`] in which seats leave (resign, time out, are claimed
/// against) at random points: about one ply in `leave_every`. At every position: position text
/// round-trips (with the seats that left); the seat to move is still playing; a finished game
/// has no moves and every seat a place; after each departure, perft 1 and 2 (the fast counter)
/// agree with the general generator (`legal_moves`). Then the record (text) replays every
/// position. Returns how many departures were played and how many games they ended.
pub fn check_departure_playouts(
    kind: GameKind,
    options: &[&str],
    playouts: usize,
    max_plies: usize,
    leave_every: usize,
    seed: u64,
) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let options = Options::from_pairs(options).unwrap();
    let start = AnyGame::new(kind, &options).unwrap();
    let (mut departures, mut ended) = (0, 0);
    for playout in 0..playouts {
        let mut game = start.clone();
        let mut lines: Vec<String> = Vec::new();
        let mut positions = vec![game.position_text()];
        for _ in 0..max_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let departed = game.departed();
            let playing: Vec<Seat> = (0..usize::from(game.seat_count()))
                .map(Seat::from_index)
                .filter(|seat| !departed.contains(seat))
                .collect();
            let line = if rng.below(leave_every) == 0 {
                let seat = playing[rng.below(playing.len())];
                Departure::ALL[rng.below(3)].line(seat)
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let (next, canonical) = game
                .play_line(&line)
                .unwrap_or_else(|e| panic!("playout {playout}: {line}: {e} {lines:?}"));
            assert_eq!(canonical, line);
            if line.contains(' ') {
                departures += 1;
                ended += usize::from(next.status().is_over());
                check_departed_position(&next, &lines);
            }
            game = next;
            check_any_position(&game, &options);
            lines.push(line);
            positions.push(game.position_text());
        }
        // The record: headers, then one line per move or departure.
        let record = GameRecord {
            headers: vec![
                ("Kind".into(), kind.name().into()),
                ("Options".into(), options.to_string()),
            ],
            moves: lines.clone(),
        };
        let record = GameRecord::parse(&record.to_text()).unwrap();
        assert_eq!(record.moves, lines);
        let mut replayed = start.clone();
        for (line, position) in record.moves.iter().zip(&positions[1..]) {
            replayed = replayed.play_line(line).unwrap().0;
            assert_eq!(&replayed.position_text(), position, "after {line}");
        }
        assert_eq!(
            record.replay().unwrap().position_text(),
            game.position_text()
        );
    }
    (departures, ended)
}

/// What holds in every position: the text reads back to the same game; moves and status agree.
fn check_any_position(game: &AnyGame, options: &Options) {
    let printed = game.position_text();
    let read = AnyGame::from_position_text(options, &printed)
        .unwrap_or_else(|e| panic!("does not read back: {e}: {printed}"));
    assert_eq!(read.position_text(), printed);
    assert_eq!(read.status(), game.status(), "{printed}");
    assert_eq!(read.departed(), game.departed(), "{printed}");
    assert_eq!(read.legal_moves(), game.legal_moves(), "{printed}");
    let departed = game.departed();
    match game.status() {
        Status::Ongoing { to_move } => {
            assert!(!departed.contains(&to_move), "{printed}");
            assert!(!game.legal_moves().is_empty(), "{printed}");
            assert_eq!(game.placings(), None);
        }
        status => {
            assert!(game.legal_moves().is_empty(), "{printed}");
            let placings = game.placings().unwrap();
            assert_eq!(placings.len(), usize::from(game.seat_count()));
            if let Status::Won { winners } = status {
                for winner in winners {
                    assert_eq!(placings[winner.index()], 1, "{printed}");
                    assert!(!departed.contains(&winner));
                }
            }
            // The seats that left, the last to leave highest.
            for pair in departed.windows(2) {
                assert!(placings[pair[0].index()] > placings[pair[1].index()]);
            }
        }
    }
}

/// After a departure: perft 1 and 2 from the fast counter agree with the general generator.
fn check_departed_position(game: &AnyGame, lines: &[String]) {
    let moves = game.legal_moves();
    assert_eq!(game.perft(1), moves.len() as u64, "{lines:?}");
    let general: u64 = moves
        .iter()
        .map(|mv| game.play(mv).unwrap().0.legal_moves().len() as u64)
        .sum();
    assert_eq!(game.perft(2), general, "{}", game.position_text());
}
