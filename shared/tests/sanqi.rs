//! SanQi rules, section by section of the rules specification (see `src/sanqi/RULES.md`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use turnpost_shared::games::{SanQi, SanQiIllegal};
use turnpost_shared::render::{render_text, TextStyle};
use turnpost_shared::{AnyGame, Game, GameKind, MoveError, Options, Seat, Status};

fn options(side: u8) -> Options {
    Options::from_pairs([format!("side={side}")]).unwrap()
}

fn start(side: u8) -> SanQi {
    SanQi::new(&options(side)).unwrap()
}

/// The cells of a board, letter by letter, written from the rules ("Board").
fn cells_of(side: u8) -> Vec<Vec<String>> {
    let s = i32::from(side);
    (1..2 * s)
        .map(|l| {
            (1..2 * s)
                .filter(|n| (l - n).abs() < s)
                .map(|n| format!("{}{n}", char::from(b'a' + (l - 1) as u8)))
                .collect()
        })
        .collect()
}

/// Position text built by hand from stone lists (rules: "Position text").
fn position_text(side: u8, stones: [&[&str]; 3], seat: u8, ko: &str) -> String {
    let mut rows = Vec::new();
    for letter in cells_of(side) {
        let mut row = String::new();
        let mut empties = 0;
        for cell in letter {
            let stone = ["r", "b", "y"]
                .iter()
                .zip(stones)
                .find(|(_, cells)| cells.contains(&cell.as_str()))
                .map(|(stone, _)| *stone);
            match stone {
                None => empties += 1,
                Some(stone) => {
                    if empties > 0 {
                        row.push_str(&empties.to_string());
                        empties = 0;
                    }
                    row.push_str(stone);
                }
            }
        }
        if empties > 0 {
            row.push_str(&empties.to_string());
        }
        rows.push(row);
    }
    format!("sanqi {} {seat} {ko}", rows.join("/"))
}

fn position(side: u8, stones: [&[&str]; 3], seat: u8, ko: &str) -> SanQi {
    let text = position_text(side, stones, seat, ko);
    let game = SanQi::from_position_text(&options(side), &text).unwrap();
    assert_eq!(game.position_text(), text);
    game
}

/// Plays space-separated moves, failing with the move's error.
fn play(game: &SanQi, moves: &str) -> SanQi {
    let mut game = game.clone();
    for text in moves.split_whitespace() {
        game = game.play(text).unwrap_or_else(|failure| {
            panic!("{text}: {} in {:?}", failure.error, failure.position)
        });
    }
    game
}

/// The rule a well-formed move breaks.
fn illegal(game: &SanQi, text: &str) -> SanQiIllegal {
    let parsed = game.parse_move(text).unwrap();
    game.resolve_move(&parsed)
        .map(|mv| panic!("{text} is legal: {mv:?} in {game:?}"))
        .unwrap_err()
}

fn ongoing(seat: u8) -> Status {
    Status::Ongoing {
        to_move: Seat::new(seat).unwrap(),
    }
}

fn won(seat: u8) -> Status {
    Status::won_by(Seat::new(seat).unwrap())
}

fn legal(game: &SanQi) -> BTreeSet<String> {
    game.legal_moves()
        .iter()
        .map(|mv| game.format_move(mv))
        .collect()
}

// ---- Board -------------------------------------------------------------------------------

#[test]
fn boards_have_the_specified_cells() {
    for (side, count) in [(4, 37), (6, 91), (8, 169), (10, 271)] {
        let game = start(side);
        assert_eq!(game.cell_count(), count, "side {side}");
        assert_eq!(game.board_view().cells.len(), count);
        // Empty start: every cell takes a stone of any colour.
        let expected: BTreeSet<String> = cells_of(side)
            .into_iter()
            .flatten()
            .flat_map(|cell| ["R", "B", "Y"].map(|c| format!("{c}@{cell}")))
            .collect();
        assert_eq!(expected.len(), 3 * count);
        assert_eq!(legal(&game), expected, "side {side}");
        assert_eq!(game.status(), ongoing(1));
    }
    // The rules' list for side 4.
    let names: Vec<String> = cells_of(4).into_iter().flatten().collect();
    let listed = "a1 a2 a3 a4 b1 b2 b3 b4 b5 c1 c2 c3 c4 c5 c6 d1 d2 d3 d4 d5 d6 d7 \
                  e2 e3 e4 e5 e6 e7 f3 f4 f5 f6 f7 g4 g5 g6 g7";
    assert_eq!(names.join(" "), listed);
}

#[test]
fn options_choose_the_side() {
    assert_eq!(start(4).options().get("side"), Some("4"));
    assert_eq!(
        SanQi::new(&Options::new()).unwrap().position_text(),
        "sanqi 4/5/6/7/6/5/4 1 -"
    );
    assert_eq!(start(10).side(), 10);
    let error = SanQi::new(&options(5)).unwrap_err().to_string();
    assert!(
        error.contains("side=5") && error.contains("4, 6, 8, 10"),
        "{error}"
    );
    let error = SanQi::new(&Options::from_pairs(["size=4"]).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("`size`") && error.contains("side"),
        "{error}"
    );
}

#[test]
fn neighbours_are_the_six_specified_steps() {
    // d4 is the centre of side 4: a blue stone there turns red only with two more red than
    // blue neighbours, so placing red on exactly the specified neighbours shows which they are.
    let neighbours = ["e4", "c4", "d5", "d3", "e5", "c3"];
    for (i, cell) in neighbours.iter().enumerate() {
        let others: Vec<&str> = neighbours
            .iter()
            .copied()
            .filter(|c| c != cell)
            .take(1)
            .collect();
        let pair = [*cell, others[0]];
        let game = position(4, [&pair, &["d4"], &[]], 1, "-");
        assert!(legal(&game).contains("R@d4"), "{cell} ({i})");
    }
    // Cells that are not neighbours (the other two diagonals) do not count.
    let game = position(4, [&["e3", "c5"], &["d4"], &[]], 1, "-");
    assert!(!legal(&game).contains("R@d4"));
}

// ---- Players and moves --------------------------------------------------------------------

#[test]
fn first_moves_first_and_turns_alternate() {
    let game = start(4);
    assert_eq!(game.to_move(), Seat::new(1));
    let game = play(&game, "Y@g7");
    assert_eq!(game.status(), ongoing(2));
    assert_eq!(game.position_text(), "sanqi 4/5/6/7/6/5/3y 2 g7");
    let game = play(&game, "Y@g6");
    assert_eq!(game.status(), ongoing(1));
}

#[test]
fn the_same_text_drops_or_replaces() {
    // b2 red between blue a1... : red on c3 with blue on b3, c2 (two more blue than red).
    let game = position(4, [&["c3"], &["b3", "c2"], &[]], 1, "-");
    let after = play(&game, "B@c3");
    assert_eq!(
        after.position_text(),
        position_text(4, [&[], &["b3", "c2", "c3"], &[]], 2, "c3")
    );
    let after = play(&game, "Y@d4");
    assert_eq!(
        after.position_text(),
        position_text(4, [&["c3"], &["b3", "c2"], &["d4"]], 2, "d4")
    );
}

#[test]
fn replacement_threshold_is_two() {
    // Red on d4 with three blue and one red neighbour: 3 - 1 = 2, allowed.
    let game = position(4, [&["d4", "e5"], &["c3", "c4", "d3"], &[]], 1, "-");
    assert!(legal(&game).contains("B@d4"));
    let after = play(&game, "B@d4");
    assert_eq!(after.status(), ongoing(2));
    // Two blue and one red: 2 - 1 = 1, refused, and the counts are named.
    let game = position(4, [&["d4", "e5"], &["c3", "c4"], &[]], 1, "-");
    assert!(!legal(&game).contains("B@d4"));
    let error = illegal(&game, "B@d4");
    assert!(matches!(
        error,
        SanQiIllegal::NotEnoughNeighbours {
            new_count: 2,
            current_count: 1,
            ..
        }
    ));
    let message = error.to_string();
    assert!(
        message.contains("d4") && message.contains("2 blue and 1 red"),
        "{message}"
    );
    // The third colour and empty cells do not count: two blue, three yellow, no red.
    let game = position(4, [&["d4"], &["c3", "c4"], &["d3", "d5", "e4"]], 1, "-");
    assert!(legal(&game).contains("B@d4"));
    assert!(legal(&game).contains("Y@d4"));
    // Yellow 3 - red 0 on d4 while blue 2: red to blue allowed, red to yellow allowed; a lone
    // red neighbour cancels the blue: 2 - 1 = 1.
    let game = position(
        4,
        [&["d4", "e5"], &["c3", "c4"], &["d3", "d5", "e4"]],
        1,
        "-",
    );
    assert!(!legal(&game).contains("B@d4"));
    assert!(legal(&game).contains("Y@d4"));
}

#[test]
fn replacing_with_the_same_colour_is_refused() {
    let game = position(4, [&["d4"], &["c3", "c4", "d3"], &[]], 1, "-");
    let error = illegal(&game, "R@d4");
    assert!(matches!(error, SanQiIllegal::SameColour { .. }));
    assert!(
        error.to_string().contains("already holds a red stone"),
        "{error}"
    );
}

#[test]
fn ko_protects_only_the_opponents_last_stone() {
    // Blue on c3, c4: a red stone on d4 could be turned blue (2 - 0).
    let game = position(4, [&[], &["c3", "c4"], &[]], 1, "-");
    let game = play(&game, "R@d4");
    // Second may not replace the stone First just placed.
    let error = illegal(&game, "B@d4");
    assert_eq!(error, SanQiIllegal::Ko { cell: "d4".into() });
    assert!(error.to_string().contains("ko") && error.to_string().contains("d4"));
    assert!(!legal(&game).contains("B@d4"));
    // Second plays elsewhere; First may replace its own last stone.
    let game = play(&game, "Y@a1");
    assert!(legal(&game).contains("B@d4"));
    let own = play(&game, "B@d4");
    assert_eq!(
        own.position_text(),
        position_text(4, [&[], &["c3", "c4", "d4"], &["a1"]], 2, "d4")
    );
    // Or First plays elsewhere, and one turn later the red d4 is fair game for Second.
    let game = play(&game, "Y@g7");
    assert!(legal(&game).contains("B@d4"));
    let game = play(&game, "B@d4");
    assert_eq!(game.status(), ongoing(1));
    // Ko protects the last cell whatever kind of move landed there: here a replacement.
    // Red c3 among blue b2 b3 and yellow c2 c4 d3 d4: First turns it blue (2 - 0), and
    // Second may not turn it yellow (4 - 2) until a turn has passed.
    let game = position(
        4,
        [&["c3"], &["b2", "b3"], &["c2", "c4", "d3", "d4"]],
        1,
        "-",
    );
    let game = play(&game, "B@c3");
    assert_eq!(
        illegal(&game, "Y@c3"),
        SanQiIllegal::Ko { cell: "c3".into() }
    );
    let game = play(&game, "R@g7 R@g6");
    assert!(legal(&game).contains("Y@c3"));
    // The ko field of position text is the cell: the same board without it allows the move.
    let game = position(4, [&[], &["c3", "c4"], &["d4"]], 2, "d4");
    assert_eq!(
        illegal(&game, "B@d4"),
        SanQiIllegal::Ko { cell: "d4".into() }
    );
    let game = position(4, [&[], &["c3", "c4"], &["d4"]], 2, "-");
    assert!(legal(&game).contains("B@d4"));
}

#[test]
fn bad_moves_name_the_rule() {
    let game = start(4);
    // Unknown colour: a syntax error at the colour.
    let error = game.clone().play("G@d4").unwrap_err().error;
    match error {
        MoveError::Syntax(error) => {
            assert_eq!(error.offset, 0);
            assert!(error.expected.contains("colour"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    // A letter outside a-g is a syntax error; a well-formed cell off the board is illegal.
    assert!(matches!(
        game.clone().play("R@h4").unwrap_err().error,
        MoveError::Syntax(_)
    ));
    for cell in ["a5", "g1", "d8", "e1"] {
        let error = illegal(&game, &format!("R@{cell}"));
        assert!(matches!(error, SanQiIllegal::OffBoard { .. }), "{cell}");
        assert!(error
            .to_string()
            .contains(&format!("{cell} is not on the board")));
    }
    let error = game.clone().play("R@a5").unwrap_err().error.to_string();
    assert!(
        error.contains("illegal move: a5 is not on the board"),
        "{error}"
    );
    // On side 10 the letters reach s.
    assert!(start(10).play("R@s19").is_ok());
    assert!(start(10).play("R@s1").is_err());
}

#[test]
fn lenient_notation_resolves_to_the_canonical_move() {
    let game = start(4);
    for text in ["R@d4", "Rd4", "r@d4", "red d4", " RED D4 ", "r @ d4"] {
        let parsed = game.parse_move(text).unwrap();
        let mv = game.resolve_move(&parsed).unwrap();
        assert_eq!(game.format_move(&mv), "R@d4", "{text}");
    }
    for (text, canonical) in [("blue a1", "B@a1"), ("yellow g7", "Y@g7"), ("yb2", "Y@b2")] {
        let any = AnyGame::from(game.clone());
        assert_eq!(any.canonical_move(text).unwrap(), canonical);
    }
}

// ---- Winning ------------------------------------------------------------------------------

/// Each pattern kind and orientation on side 4; the last cell completes it.
const PATTERNS: [(&str, [&str; 6]); 6] = [
    ("circle", ["c3", "c4", "d3", "d5", "e4", "e5"]),
    ("line along letters", ["a4", "b4", "c4", "d4", "e4", "f4"]),
    ("line along numbers", ["d1", "d2", "d3", "d4", "d5", "d6"]),
    ("diagonal line", ["a1", "b2", "c3", "d4", "e5", "f6"]),
    ("triangle", ["b3", "c3", "d3", "c4", "d4", "d5"]),
    ("mirrored triangle", ["c2", "c3", "c4", "d3", "d4", "e4"]),
];

fn owners(name: &str) -> [bool; 2] {
    match name {
        "circle" => [true, false],
        n if n.contains("line") => [false, true],
        _ => [true, true],
    }
}

/// Five stones of a pattern in `colour` (0 red, 1 blue, 2 yellow), `seat` to move.
fn almost(cells: &[&str; 6], colour: usize, seat: u8) -> SanQi {
    let five = &cells[..5];
    let mut stones: [&[&str]; 3] = [&[], &[], &[]];
    stones[colour] = five;
    position(4, stones, seat, "-")
}

#[test]
fn patterns_win_only_for_the_mover_whose_goal_they_are() {
    for (name, cells) in PATTERNS {
        for colour in 0..3 {
            let letter = ["R", "B", "Y"][colour];
            let completing = format!("{letter}@{}", cells[5]);
            for seat in [1u8, 2] {
                let other = 3 - seat;
                let game = almost(&cells, colour, seat);
                assert_eq!(game.status(), ongoing(seat), "{name}");
                let after = play(&game, &completing);
                let context = format!("{name} in {letter} completed by seat {seat}");
                if owners(name)[usize::from(seat - 1)] {
                    assert_eq!(after.status(), won(seat), "{context}");
                    assert!(after.legal_moves().is_empty(), "{context}");
                    assert_eq!(after.count_moves(), 0);
                    let error = illegal(&after, "R@g7");
                    assert!(matches!(error, SanQiIllegal::GameOver { .. }), "{context}");
                } else {
                    // The opponent's pattern does not end the game...
                    assert_eq!(after.status(), ongoing(other), "{context}");
                    // ...and wins for the opponent after any move that leaves it standing.
                    let elsewhere = if cells.contains(&"g7") {
                        "Y@g4"
                    } else {
                        "Y@g7"
                    };
                    let next = play(&after, elsewhere);
                    assert_eq!(next.status(), won(other), "{context}");
                }
            }
        }
    }
}

#[test]
fn a_standing_pattern_counts_for_whoever_moves_next_with_that_goal() {
    // A red circle around d4 that Second built: First wins with any move leaving it.
    let circle: &[&str] = &["c3", "c4", "d3", "d5", "e4", "e5"];
    let game = position(4, [circle, &[], &[]], 1, "e5");
    assert_eq!(game.status(), ongoing(1));
    assert_eq!(play(&game, "B@a1").status(), won(1));
    // A red line First built: Second wins with any move leaving it.
    let line: &[&str] = &["a1", "b2", "c3", "d4", "e5", "f6"];
    let game = position(4, [line, &[], &[]], 2, "-");
    assert_eq!(game.status(), ongoing(2));
    assert_eq!(play(&game, "Y@g4").status(), won(2));
    // A triangle on the board is the previous mover's win, whoever built it.
    let triangle: &[&str] = &["b3", "c3", "d3", "c4", "d4", "d5"];
    assert_eq!(position(4, [&[], triangle, &[]], 1, "-").status(), won(2));
    assert_eq!(position(4, [&[], triangle, &[]], 2, "-").status(), won(1));
    // Only the previous mover's goals count: a line with First to move means Second has won,
    // with Second to move it is only Second's chance.
    assert_eq!(position(4, [line, &[], &[]], 1, "-").status(), won(2));
    // A longer run contains a line.
    let seven: &[&str] = &["a4", "b4", "c4", "d4", "e4", "f4", "g4"];
    assert_eq!(position(4, [&[], &[], seven], 1, "-").status(), won(2));
    // Six in a row with a gap is not a line; six of mixed colours is no pattern.
    let gap: &[&str] = &["a4", "b4", "c4", "e4", "f4", "g4"];
    assert_eq!(position(4, [&[], &[], gap], 1, "-").status(), ongoing(1));
    let game = position(4, [&["a1", "b2", "c3"], &["d4", "e5", "f6"], &[]], 1, "-");
    assert_eq!(game.status(), ongoing(1));
    // A circle's centre may hold any colour.
    let game = position(4, [circle, &["d4"], &[]], 1, "-");
    assert_eq!(play(&game, "Y@g7").status(), won(1));
}

#[test]
fn breaking_the_opponents_pattern_stops_the_win() {
    // Second completes a red circle around d4 (not a Second goal); First turns c3 blue
    // (blue b2 b3 c2 d4 against red c4 d3: 4 - 2) and the circle is gone.
    let game = position(
        4,
        [
            &["c3", "c4", "d3", "d5", "e4"],
            &["b2", "b3", "c2", "d4"],
            &[],
        ],
        2,
        "-",
    );
    let game = play(&game, "R@e5");
    assert_eq!(game.status(), ongoing(1));
    let broken = play(&game, "B@c3");
    assert_eq!(broken.status(), ongoing(2));
    // Any other First move leaves the circle and wins.
    assert_eq!(play(&game, "R@g7").status(), won(1));
}

#[test]
fn seed_example_1() {
    let text = "sanqi 4/5/2rr2/2r1r2/1bbrr1/rrb2/3y 1 -";
    let built = position(
        4,
        [
            &["c3", "c4", "d3", "d5", "e5", "e6", "f3", "f4"],
            &["e3", "e4", "f5"],
            &["g7"],
        ],
        1,
        "-",
    );
    assert_eq!(built.position_text(), text);
    let game = SanQi::from_position_text(&Options::new(), text).unwrap();
    assert_eq!(game.status(), ongoing(1));
    // First's R@d4 wins nothing.
    let game = play(&game, "R@d4");
    assert_eq!(game.status(), ongoing(2));
    // Second's R@b3 completes the red triangle b3 c3 d3 c4 d4 d5: Second wins.
    let game = play(&game, "R@b3");
    assert_eq!(game.status(), won(2));
}

#[test]
fn seed_example_2() {
    let game = position(
        4,
        [&["f5"], &["b1", "c2", "d3", "e4", "g6"], &["f4"]],
        2,
        "-",
    );
    assert_eq!(game.status(), ongoing(2));
    let game = play(&game, "B@g5 R@e5 B@f4");
    assert_eq!(game.status(), ongoing(1));
    let replies = game.legal_moves();
    assert!(replies.len() > 50);
    let mut f5_legal = 0;
    for reply in &replies {
        let text = game.format_move(reply);
        let after = game.play_move(reply);
        assert_eq!(after.status(), ongoing(2), "First's {text}");
        let wins = after
            .legal_moves()
            .iter()
            .filter(|mv| after.play_move(mv).status() == won(2))
            .count();
        assert!(wins > 0, "after First's {text}, Second has no winning move");
        if let Ok(parsed) = after.parse_move("B@f5") {
            if after.resolve_move(&parsed).is_ok() {
                f5_legal += 1;
                assert_eq!(play(&after, "B@f5").status(), won(2), "after {text}");
            }
        }
    }
    // B@f5 is illegal only where First's reply made f5 blue itself (the line then stands).
    assert_eq!(f5_legal, replies.len() - 1);
    let blue_f5 = play(&game, "B@f5");
    assert_eq!(blue_f5.status(), ongoing(2));
    assert!(matches!(
        illegal(&blue_f5, "B@f5"),
        SanQiIllegal::SameColour { .. }
    ));
}

// ---- Draw ---------------------------------------------------------------------------------

/// A full side-4 board striped by number (red, blue, yellow, red, …): every cell has at most
/// one more neighbour of another colour than of its own, so no replacement is legal. The rows
/// are lines (Second's goal), and there is no circle or triangle (First's goals).
fn stripes() -> [Vec<String>; 3] {
    let mut stones: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for cell in cells_of(4).into_iter().flatten() {
        let number: usize = cell[1..].parse().unwrap();
        stones[number % 3].push(cell);
    }
    stones
}

#[test]
fn no_legal_move_is_a_draw() {
    let stones = stripes();
    let refs: Vec<Vec<&str>> = stones
        .iter()
        .map(|s| s.iter().map(String::as_str).collect())
        .collect();
    let game = position(4, [&refs[0], &refs[1], &refs[2]], 2, "-");
    assert_eq!(game.status(), Status::Draw);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.count_moves(), 0);
    assert_eq!(game.perft(1), 0);
    let error = illegal(&game, "R@d5");
    assert!(error.to_string().contains("drawn"), "{error}");
    // The same board with First to move: Second's lines stand, Second has won.
    let game = position(4, [&refs[0], &refs[1], &refs[2]], 1, "-");
    assert_eq!(game.status(), won(2));
}

#[test]
fn ko_can_leave_no_legal_move() {
    // Recolour one stripe cell so that exactly one replacement becomes legal; with the ko on
    // that cell, the player to move has nothing and the game is drawn.
    let base = stripes();
    let mut found = 0;
    for (from, cells) in base.iter().enumerate() {
        for cell in cells {
            for to in 0..3 {
                if to == from {
                    continue;
                }
                let mut stones = base.clone();
                stones[from].retain(|c| c != cell);
                stones[to].push(cell.clone());
                let refs: Vec<Vec<&str>> = stones
                    .iter()
                    .map(|s| s.iter().map(String::as_str).collect())
                    .collect();
                let text = position_text(4, [&refs[0], &refs[1], &refs[2]], 2, "-");
                let game = SanQi::from_position_text(&options(4), &text).unwrap();
                let moves = legal(&game);
                if game.status() != ongoing(2) || moves.len() != 1 {
                    continue;
                }
                let target = &moves.iter().next().unwrap()[2..];
                let with_ko = position(4, [&refs[0], &refs[1], &refs[2]], 2, target);
                assert_eq!(with_ko.status(), Status::Draw, "{text}");
                found += 1;
            }
        }
    }
    assert!(found > 0);
}

// ---- Position text ------------------------------------------------------------------------

#[test]
fn position_text_is_as_specified() {
    assert_eq!(start(4).position_text(), "sanqi 4/5/6/7/6/5/4 1 -");
    assert_eq!(
        start(6).position_text(),
        "sanqi 6/7/8/9/10/11/10/9/8/7/6 1 -"
    );
    let game = play(&start(4), "R@d4");
    assert_eq!(game.position_text(), "sanqi 4/5/6/3r3/6/5/4 2 d4");
    let game = play(&start(10), "B@s19 Y@j10");
    let text = game.position_text();
    assert!(
        text.ends_with("/9y9/18/17/16/15/14/13/12/11/9b 1 j10"),
        "{text}"
    );
    // Reads back, with the side from the option or from the row count.
    for options in [options(10), Options::new()] {
        let read = SanQi::from_position_text(&options, &text).unwrap();
        assert_eq!(read, game);
    }
    let read = AnyGame::from_position_text(&Options::new(), &text).unwrap();
    assert_eq!(read.kind(), GameKind::SanQi);
    assert_eq!(read.options().get("side"), Some("10"));
}

#[test]
fn bad_position_text_names_the_field() {
    let cases: &[(&str, &str, &str)] = &[
        ("", "kind", "expected `sanqi`"),
        ("kefren 4/5/6/7/6/5/4 1 -", "kind", "kefren"),
        ("sanqi", "rows", "missing"),
        ("sanqi 4/5/6/7/6/5 1 -", "rows", "found 6"),
        (
            "sanqi 4/5/6/7/6/5/3 1 -",
            "rows",
            "letter g: expected 4 cells, found 3",
        ),
        (
            "sanqi 4/5/6/7/6/5/5 1 -",
            "rows",
            "letter g: more than 4 cells",
        ),
        ("sanqi 4/5/6/7/6/5/rbyrb 1 -", "rows", "more than 4"),
        ("sanqi 4/5/6/7/6/5/3g 1 -", "rows", "found `g`"),
        ("sanqi 4/5/6/7/6/5/3R 1 -", "rows", "found `R`"),
        ("sanqi 4/5/6/7/6/5/04 1 -", "rows", "starts with 1-9"),
        ("sanqi 4/5/6/7/6/5/ 1 -", "rows", "found 0"),
        ("sanqi 4/5/6/7/6/5/4", "seat", "missing"),
        ("sanqi 4/5/6/7/6/5/4 3 -", "seat", "found `3`"),
        ("sanqi 4/5/6/7/6/5/4 1", "ko", "missing"),
        ("sanqi 4/5/6/7/6/5/4 1 d4", "ko", "d4 is empty"),
        ("sanqi 4/5/6/7/6/5/4 1 a5", "ko", "not on the board"),
        ("sanqi 4/5/6/7/6/5/4 1 h1", "ko", "a-g"),
        ("sanqi 4/5/6/7/6/5/4 1 d", "ko", "expected"),
        ("sanqi 4/5/6/7/6/5/4 1 - x", "end", "found `x`"),
    ];
    for (text, field, message) in cases {
        let error = SanQi::from_position_text(&options(4), text).unwrap_err();
        assert_eq!(error.field, *field, "{text}: {error}");
        assert!(error.message.contains(message), "{text}: {error}");
    }
    // The side option and the rows must agree.
    let error = SanQi::from_position_text(&options(6), "sanqi 4/5/6/7/6/5/4 1 -").unwrap_err();
    assert_eq!(error.field, "rows");
    assert!(error.message.contains("side=6"), "{error}");
    let error = SanQi::from_position_text(&Options::new(), "sanqi 4/5/6 1 -").unwrap_err();
    assert!(error.message.contains("7, 11, 15 or 19 rows"), "{error}");
    let error = SanQi::from_position_text(&options(5), "sanqi 4/5/6/7/6/5/4 1 -").unwrap_err();
    assert_eq!(error.field, "options");
}

// ---- Rendering ----------------------------------------------------------------------------

#[test]
fn the_board_is_drawn_as_a_hexagon() {
    let game = play(&start(4), "R@d4 B@a1 Y@c2");
    let text = render_text(&game.board_view(), TextStyle::Plain);
    let expected = "   7 . . . .
  6 . . . . .
 5 . . . . . .
4 . . . R . . .
 3 . . . . . . g
  2 . . Y . . f
   1 B . . . e
      a b c d
";
    assert_eq!(text, expected);
    // The last move's cell (the ko cell) is highlighted.
    let view = game.board_view();
    let highlighted: Vec<&str> = view
        .cells
        .iter()
        .filter(|c| c.highlighted)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(highlighted, ["c2"]);
}

// ---- Reference figures --------------------------------------------------------------------

#[test]
fn perft_from_the_empty_board() {
    let game = start(4);
    assert_eq!(game.perft(0), 1);
    assert_eq!(game.perft(1), 111);
    assert_eq!(game.perft(2), 11_988);
    assert_eq!(game.perft(3), 1_258_740);
    // The generic perft over legal_moves/play_move agrees with the fast one.
    assert_eq!(turnpost_shared::rules::perft(&game, 3), 1_258_740);
}

#[test]
fn fast_perft_agrees_with_move_lists() {
    let positions = [
        "sanqi 4/5/2rr2/2r1r2/1bbrr1/rrb2/3y 1 -",
        "sanqi 1b2/1b3/2r1b1/rrbybbr/bbr1yy/1yr1r/rbby 2 c3",
        "sanqi bbbb/yyyyy/rrrrrr/bbbbbbb/yyyyyy/rrrrr/bbbb 1 d4",
    ];
    for text in positions {
        let game = SanQi::from_position_text(&Options::new(), text).unwrap();
        for depth in 1..=2 {
            // Leaves counted one by one through legal_moves.
            let slow: u64 = if depth == 1 {
                game.legal_moves().len() as u64
            } else {
                game.legal_moves()
                    .iter()
                    .map(|mv| game.play_move(mv).legal_moves().len() as u64)
                    .sum()
            };
            assert_eq!(game.perft(depth), slow, "{text} depth {depth}");
            assert_eq!(turnpost_shared::rules::perft(&game, depth), slow);
        }
    }
}

// ---- Pattern check against an independent full scan ---------------------------------------

/// Reads position text into a map (letter, number) -> stone, by the rules' format.
fn board_of(side: u8, text: &str) -> std::collections::HashMap<(i32, i32), char> {
    let rows = text.split(' ').nth(1).unwrap();
    let mut board = std::collections::HashMap::new();
    for (letter, (row, cells)) in rows.split('/').zip(cells_of(side)).enumerate() {
        let mut numbers = cells.iter().map(|c| c[1..].parse::<i32>().unwrap());
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once('.')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            for _ in 0..digits.parse::<usize>().unwrap_or(0) {
                numbers.next();
            }
            digits.clear();
            if c != '.' {
                board.insert((letter as i32 + 1, numbers.next().unwrap()), c);
            }
        }
    }
    board
}

/// Which kinds stand [circle, line, triangle], scanning every anchor of the whole board.
fn kinds_standing(side: u8, text: &str) -> [bool; 3] {
    let board = board_of(side, text);
    let span = 2 * i32::from(side) - 1;
    let one_colour = |l: i32, n: i32, offsets: &[(i32, i32)]| {
        let first = board.get(&(l + offsets[0].0, n + offsets[0].1));
        first.is_some()
            && offsets
                .iter()
                .all(|(a, b)| board.get(&(l + a, n + b)) == first)
    };
    let circle = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];
    let triangles = [
        [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)],
        [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)],
    ];
    let mut found = [false; 3];
    for l in 1..=span {
        for n in 1..=span {
            // A circle needs its centre on the board (off-board cells are never stones, so
            // the six neighbours being stones already places them on the board).
            found[0] |= (l - n).abs() < i32::from(side) && one_colour(l, n, &circle);
            for (dl, dn) in [(1, 0), (0, 1), (1, 1)] {
                let line: Vec<(i32, i32)> = (0..6).map(|k| (k * dl, k * dn)).collect();
                found[1] |= one_colour(l, n, &line);
            }
            found[2] |= triangles.iter().any(|t| one_colour(l, n, t));
        }
    }
    found
}

#[test]
fn win_checks_agree_with_a_full_scan_in_random_games() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut wins = [0; 2];
    for side in [4u8, 6] {
        for _ in 0..if side == 4 { 60 } else { 10 } {
            let mut game = start(side);
            loop {
                let text = game.position_text();
                let kinds = kinds_standing(side, &text);
                let mover = if text.contains(" 1 ") { 2 } else { 1 };
                let goal = if mover == 1 {
                    kinds[0] || kinds[2]
                } else {
                    kinds[1] || kinds[2]
                };
                if goal {
                    assert_eq!(game.status(), won(mover), "{text}");
                    wins[usize::from(mover - 1)] += 1;
                    break;
                }
                assert!(!matches!(game.status(), Status::Won { .. }), "{text}");
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Favour one colour so that patterns form before the board fills.
                let pick = if next(3) == 0 {
                    next(moves.len())
                } else {
                    let reds: Vec<usize> = (0..moves.len())
                        .filter(|&i| game.format_move(&moves[i]).starts_with('R'))
                        .collect();
                    if reds.is_empty() {
                        next(moves.len())
                    } else {
                        reds[next(reds.len())]
                    }
                };
                game = game.play_move(&moves[pick]);
            }
        }
    }
    assert!(wins[0] > 5 && wins[1] > 5, "{wins:?}");
}
