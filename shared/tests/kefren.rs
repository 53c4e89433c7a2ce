//! Kefren rules, example by example (the rules specification, as read in `src/<game>/RULES.md`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::games::{Kefren, KefrenIllegal};
use turnpost_shared::{Game, MoveError, Options, Seat, Status};

/// A position with Black on `black`, White on `white` and `side` ('b' or 'w') to move.
fn position(black: &[&str], white: &[&str], side: char) -> Kefren {
    let mut rows = Vec::new();
    for row in (1..=19).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for column in 'A'..='I' {
            let name = format!("{column}{row}");
            let stone = if black.contains(&name.as_str()) {
                Some('b')
            } else if white.contains(&name.as_str()) {
                Some('w')
            } else {
                None
            };
            match stone {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rows.push(text);
    }
    let text = format!("kefren {} {side}", rows.join("/"));
    Kefren::from_position_text(&Options::new(), &text).unwrap()
}

fn moves(game: &Kefren) -> Vec<String> {
    let mut texts: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| game.format_move(m))
        .collect();
    texts.sort();
    texts
}

fn illegal(game: &Kefren, text: &str) -> KefrenIllegal {
    let parsed = game.parse_move(text).unwrap();
    game.resolve_move(&parsed).unwrap_err()
}

fn play(game: &Kefren, text: &str) -> Kefren {
    game.clone()
        .play(text)
        .unwrap_or_else(|f| panic!("{text}: {}", f.error))
}

fn legal(game: &Kefren, text: &str) -> bool {
    moves(game).contains(&text.to_string())
}

#[test]
fn start_position_and_opening_moves() {
    let start = Kefren::new(&Options::new()).unwrap();
    assert_eq!(
        start.position_text(),
        "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b"
    );
    assert_eq!(
        start.status(),
        Status::Ongoing {
            to_move: Seat::FIRST
        }
    );
    assert_eq!(moves(&start).len(), 25);
    assert!(legal(&start, "F2-F3"));
    let after = play(&start, "f2-f3");
    assert_eq!(after.status().to_move(), Seat::new(2));
}

#[test]
fn seed_example_twirl_around_e8() {
    // Black on G10, E8, F8, G7: G10 twirls to E10 using E8, but F8 blocks E8–G8.
    let game = position(&["G10", "E8", "F8", "G7"], &["A19"], 'b');
    assert!(legal(&game, "G10-E10"));
    assert!(!legal(&game, "G10-G8"));
    assert_eq!(
        illegal(&game, "G10-G8"),
        KefrenIllegal::NotReachable {
            from: "G10".into(),
            to: "G8".into()
        }
    );
}

#[test]
fn twirl_shapes_around_an_orthogonal_pivot() {
    // C3 around C5 (N = 2): right angle at the source gives A3/E3, at the pivot A5/E5.
    let game = position(&["C3", "C5"], &["I19"], 'b');
    let from_c3: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("C3-"))
        .collect();
    assert_eq!(from_c3, ["C3-A3", "C3-A5", "C3-E3", "C3-E5"]);
}

#[test]
fn twirl_shapes_around_a_diagonal_pivot() {
    // C3 around E5 (diagonal, N = 2): the other corners of the square are E3 and C5.
    let game = position(&["C3", "E5"], &["I19"], 'b');
    let from_c3: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("C3-"))
        .collect();
    assert_eq!(from_c3, ["C3-C5", "C3-E3"]);
}

#[test]
fn each_of_the_three_segments_must_be_empty() {
    // Between source and pivot: an enemy on C4 hides the pivot C5.
    // (H10 and H11 give Black other moves, so the game is not over.)
    let game = position(&["C3", "C5", "H10", "H11"], &["C4"], 'b');
    assert!(matches!(
        illegal(&game, "C3-E3"),
        KefrenIllegal::NotReachable { .. }
    ));
    // Between source and destination: D3 blocks C3→E3 but not C3→E5.
    let game = position(&["C3", "C5"], &["D3", "I19"], 'b');
    assert!(!legal(&game, "C3-E3"));
    assert!(legal(&game, "C3-E5"));
    // Between pivot and destination: D5 blocks C5→E5 (for E5) but not C5→E3's path D4.
    let game = position(&["C3", "C5"], &["D5", "I19"], 'b');
    assert!(!legal(&game, "C3-E5"));
    assert!(legal(&game, "C3-E3"));
    // D4 lies between C5 and E3 and between C3 and E5: both go.
    let game = position(&["C3", "C5"], &["D4", "I19"], 'b');
    assert!(!legal(&game, "C3-E3") && !legal(&game, "C3-E5"));
    // The inside of the triangle does not matter: G1 around G5 to C5 (right angle at the
    // pivot) with a stone on F3, inside the triangle G1–G5–C5.
    let game = position(&["G1", "G5"], &["F3", "I19"], 'b');
    assert!(legal(&game, "G1-C5"));
}

#[test]
fn destination_must_not_hold_a_friendly_stone() {
    let game = position(&["C3", "C5", "E3"], &["I19"], 'b');
    assert!(!legal(&game, "C3-E3"));
    assert_eq!(
        illegal(&game, "C3-E3"),
        KefrenIllegal::OwnStone { cell: "E3".into() }
    );
}

#[test]
fn mandatory_capturing_example_chain_must_continue() {
    // Black F3, F4; White D4, E5. Black's F3-E4 (pivot F4) offers E4 to White.
    let before = position(&["F3", "F4"], &["D4", "E5"], 'b');
    let after = play(&before, "F3-E4");
    assert_eq!(moves(&after), ["D4:E4:F4", "E5:E4"]);
    // The page's `D4:E4` is not a complete move: the stone must go on capturing F4.
    assert_eq!(
        illegal(&after, "D4:E4"),
        KefrenIllegal::ChainMustContinue {
            at: "E4".into(),
            example: "E4:F4".into()
        }
    );
    // Separators are interchangeable: `D4-E4-F4` and `d4xe4xf4` are the chain.
    for text in ["D4-E4-F4", "d4xe4xf4", "D4:E4:F4"] {
        let game = play(&after, text);
        // Black has no stones left: White wins.
        assert_eq!(
            game.status(),
            Status::won_by(Seat::new(2).unwrap()),
            "{text}"
        );
    }
    // A non-capture is refused while a capture is available.
    assert!(matches!(
        illegal(&after, "E5-D5"),
        KefrenIllegal::MustCapture { .. }
    ));
}

#[test]
fn captures_never_go_backwards() {
    // White C6 and E6 could take E8 with each other as pivot, but for White that is backwards.
    let game = position(&["E8", "A1"], &["C6", "E6"], 'w');
    assert!(!moves(&game).iter().any(|m| m.contains(':')));
    assert_eq!(
        illegal(&game, "C6:E8"),
        KefrenIllegal::CaptureBackwards {
            from: "C6".into(),
            to: "E8".into()
        }
    );
    // The same geometry is a forward capture for Black.
    let game = position(&["C6", "E6"], &["E8", "I19"], 'b');
    assert!(legal(&game, "C6:E8"));
    assert!(legal(&game, "E6:E8") || legal(&game, "C6:E8"));
    // Non-capturing twirls may go backwards.
    let game = position(&["C6", "C8"], &["I19"], 'b');
    assert!(legal(&game, "C8-A8") && legal(&game, "C6-A6"));
    assert!(legal(&game, "C8-E6") && legal(&game, "C6-E8"));
}

#[test]
fn a_stone_next_to_a_friend_can_still_twirl() {
    // "D4 cannot move until some other friend comes to the rescue" is loose: D4 twirls round E4.
    let game = position(&["D4", "E4"], &["I19"], 'b');
    let from_d4: Vec<String> = moves(&game)
        .into_iter()
        .filter(|m| m.starts_with("D4-"))
        .collect();
    assert_eq!(from_d4, ["D4-D3", "D4-D5", "D4-E3", "D4-E5"]);
}

#[test]
fn any_complete_chain_may_be_chosen_but_a_chain_must_go_on() {
    // Black C3 and C2, White D3, B3, D4. Each black stone can take D3 or B3 around the other;
    // only C2:D3 can go on (around C3, onto D4). The longest chain is not required.
    let game = position(&["C3", "C2"], &["D3", "B3", "D4", "I19"], 'b');
    assert_eq!(moves(&game), ["C2:B3", "C2:D3:D4", "C3:B3", "C3:D3"]);
    assert_eq!(
        illegal(&game, "C2:D3"),
        KefrenIllegal::ChainMustContinue {
            at: "D3".into(),
            example: "D3:D4".into()
        }
    );
    // The captured stones leave the board at once.
    let after = play(&game, "C2:D3:D4");
    assert_eq!(
        after.position_text(),
        "kefren 8w/9/9/9/9/9/9/9/9/9/9/9/9/9/9/3b5/1wb6/9/9 w"
    );
}

#[test]
fn rank_count_after_white_move_decides() {
    // Black has a stone on row 19, White none on row 1, and White has just moved: Black wins.
    let game = position(&["A19", "C1", "C2"], &["E10", "E11"], 'b');
    assert_eq!(game.status(), Status::won_by(Seat::FIRST));
    assert!(game.legal_moves().is_empty());
    assert_eq!(illegal(&game, "C1-B1"), KefrenIllegal::GameOver);
    // Equal counts: play goes on.
    let game = position(&["A19", "C2", "C3"], &["E1", "E11"], 'b');
    assert!(!game.status().is_over());
    // The count is made only after White's move: with White to move, Black's row-19 stone
    // does not end the game yet.
    let game = position(&["A19", "C1", "C2"], &["E10", "E11"], 'w');
    assert_eq!(
        game.status(),
        Status::Ongoing {
            to_move: Seat::new(2).unwrap()
        }
    );
    // White answers with a move that does not reach row 1: Black wins after it.
    let after = play(&game, "E10-D10");
    assert_eq!(after.status(), Status::won_by(Seat::FIRST));
}

#[test]
fn no_legal_move_loses() {
    // White has a lone stone: no pivot, no move.
    let game = position(&["A1", "A2"], &["E10"], 'w');
    assert_eq!(game.status(), Status::won_by(Seat::FIRST));
    // White has no stones at all.
    let game = position(&["A1", "A2"], &[], 'w');
    assert_eq!(game.status(), Status::won_by(Seat::FIRST));
    assert_eq!(game.count_moves(), 0);
}

#[test]
fn resolution_errors_name_the_rule() {
    let start = Kefren::new(&Options::new()).unwrap();
    assert_eq!(
        illegal(&start, "E5-E6"),
        KefrenIllegal::NoStone { cell: "E5".into() }
    );
    assert_eq!(
        illegal(&start, "E18-E17"),
        KefrenIllegal::NotYourStone { cell: "E18".into() }
    );
    assert_eq!(
        illegal(&start, "E2-E20"),
        KefrenIllegal::OffBoard { cell: "E20".into() }
    );
    assert_eq!(
        illegal(&start, "E2-E9"),
        KefrenIllegal::NotReachable {
            from: "E2".into(),
            to: "E9".into()
        }
    );
    assert!(matches!(
        illegal(&start, "F2-F3-F4"),
        KefrenIllegal::NotACapture { .. }
    ));
    let failure = start.clone().play("F2-F9").unwrap_err();
    assert_eq!(failure.position, start, "the position comes back unchanged");
    assert!(matches!(failure.error, MoveError::Illegal { .. }));
    let failure = start.clone().play("F2-").unwrap_err();
    assert!(matches!(failure.error, MoveError::Syntax(ref e) if e.offset == 3));
}

#[test]
fn position_text_errors_name_the_field() {
    let options = Options::new();
    let cases = [
        ("kechi 9 b", "kind"),
        ("kefren 9/9 b", "rows"),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb",
            "side",
        ),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb x",
            "side",
        ),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbb b",
            "rows",
        ),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbbb b",
            "rows",
        ),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbqb b",
            "rows",
        ),
        (
            "kefren bbbbbbbbb/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b",
            "rows",
        ),
        (
            "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b 1",
            "end",
        ),
    ];
    for (text, field) in cases {
        let error = Kefren::from_position_text(&options, text).unwrap_err();
        assert_eq!(error.field, field, "{text}: {error}");
    }
    let error =
        Kefren::from_position_text(&Options::from_pairs(["size=3"]).unwrap(), "x").unwrap_err();
    assert_eq!(error.field, "options");
}

#[test]
fn options_are_refused_by_name() {
    let error = Kefren::new(&Options::from_pairs(["lines=5"]).unwrap()).unwrap_err();
    assert!(error.to_string().contains("lines"), "{error}");
}
