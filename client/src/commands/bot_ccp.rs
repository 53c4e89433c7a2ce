//! The Chinese Checkers board as CCP (the Chinese Checkers Protocol of the public CCERL engine
//! benchmark) numbers it, for `turnpost bot run --protocol ccp`: which games a CCP engine can
//! play, a turnpost position as a `position cells …` line, and a `bestmove` back as turnpost
//! move text.
//!
//! CCP's board (the benchmark's reference engine): the 121 holes are cell ids 0–120, in rows
//! from the top point to the bottom one and left to right within a row; player 0 starts in the
//! top point (ids 0–9) and moves first, player 1 starts in the bottom one (ids 111–120).
//! turnpost's holes run in the same order (rows `A`–`Q`, numbers ascending, the order of the
//! position text), but its first seat starts in the bottom point (point 1). So seat 1 is CCP's
//! player 0 and seat 2 its player 1, and the board is turned half a turn: hole index `i` is
//! cell `120 − i`. The start position is then CCP's start position, player 0 to move at ply 0.

use turnpost_shared::api::GameView;
use turnpost_shared::games::ChineseCheckersHole;
use turnpost_shared::GameKind;

/// Holes (and CCP cells) on the board.
const HOLES: usize = 121;

/// Why a game cannot be played by a CCP engine, or `Ok` when it can: Chinese Checkers with two
/// players, one set each, and nothing CCP cannot say (inert pegs, long jumps, swap moves).
///
/// # Errors
/// A sentence for people naming what does not fit.
pub fn fits(game: &GameView) -> Result<(), String> {
    if game.kind != GameKind::ChineseCheckers {
        return Err(format!(
            "a CCP engine plays only chinese-checkers, not {}",
            game.kind
        ));
    }
    // An option the game does not list has its default, which CCP shares.
    let allowed: [(&str, &[&str]); 5] = [
        ("players", &["2"]),
        ("sets", &["1"]),
        ("unused", &["open"]),
        ("jumps", &["short"]),
        // CCP's winning rule is Parlett's (a full goal with one own peg: "anti-block");
        // `none` only makes some wins later, but a swap is a move CCP cannot write.
        ("anti-spoiling", &["parlett", "none"]),
    ];
    for (key, value) in &game.options {
        let fits = allowed
            .iter()
            .find(|(name, _)| name == key)
            .is_some_and(|(_, values)| values.contains(&value.as_str()));
        if !fits {
            return Err(format!(
                "a CCP engine plays Chinese Checkers only with 2 players, 10 pegs each on the \
                 121 holes and short jumps, not {key}={value}"
            ));
        }
    }
    Ok(())
}

/// The CCP cell of turnpost hole `index` (0–120, the position text's order).
#[must_use]
pub fn cell_of_hole(index: usize) -> Option<usize> {
    (index < HOLES).then(|| HOLES - 1 - index)
}

/// The turnpost hole index of CCP cell `cell`.
#[must_use]
pub fn hole_of_cell(cell: usize) -> Option<usize> {
    // Half a turn is its own inverse.
    cell_of_hole(cell)
}

/// The turnpost name (`A5`, `Q13`) of hole `index`.
fn hole_name(index: usize) -> Option<String> {
    ChineseCheckersHole::from_index(index).map(|hole| hole.to_string())
}

/// The request lines for the seat to move in `game`: `position cells <121 chars> player <0|1>
/// ply <N>`. Seat 1's pegs (digit `1`) are CCP's `0`, seat 2's (digit `4`, the top point they
/// start in) are `1`.
///
/// # Errors
/// A sentence when the position text is not a two-player Chinese Checkers position.
pub fn position_line(game: &GameView) -> Result<String, String> {
    let mut fields = game.position.split_whitespace();
    let (Some("chinese-checkers"), Some(rows), Some(seat)) =
        (fields.next(), fields.next(), fields.next())
    else {
        return Err(format!(
            "game #{} has no Chinese Checkers position text",
            game.id
        ));
    };
    let holes: Vec<char> = rows.chars().filter(|c| *c != '/').collect();
    if holes.len() != HOLES {
        return Err(format!(
            "game #{}: the position has {} holes, not 121",
            game.id,
            holes.len()
        ));
    }
    let mut cells = vec!['.'; HOLES];
    for (index, hole) in holes.iter().enumerate() {
        let cell = match hole {
            '.' => '.',
            '1' => '0',
            '4' => '1',
            other => {
                return Err(format!(
                    "game #{}: a peg `{other}` that no CCP player has",
                    game.id
                ))
            }
        };
        if let Some(slot) = cell_of_hole(index).and_then(|at| cells.get_mut(at)) {
            *slot = cell;
        }
    }
    let player = match seat {
        "1" => 0,
        "2" => 1,
        other => {
            return Err(format!(
                "game #{}: seat {other} to move, which no CCP player is",
                game.id
            ))
        }
    };
    Ok(format!(
        "position cells {} player {player} ply {}",
        cells.into_iter().collect::<String>(),
        game.ply
    ))
}

/// The move of a `bestmove` answer (`4-15-28-41`, a hop chain, or `4-41`, its ends) as
/// turnpost move text (`Q13-O11-…`): the game then checks it like any move text, a chain hop
/// by hop, a source and final hole as the move between them.
///
/// # Errors
/// A sentence when the answer is not cell ids 0–120 joined by `-` (`0000`, "no move", too).
pub fn move_text(answer: &str) -> Result<String, String> {
    let holes: Option<Vec<String>> = answer
        .trim()
        .split(['-', ','])
        .map(|cell| {
            cell.parse::<usize>()
                .ok()
                .and_then(hole_of_cell)
                .and_then(hole_name)
        })
        .collect();
    match holes {
        Some(holes) if holes.len() >= 2 => Ok(holes.join("-")),
        _ => Err(format!(
            "the CCP engine answered `bestmove {}`, which is not two or more cell ids 0-120 \
             joined by `-`",
            answer.trim()
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, clippy::unwrap_used, reason = "tests")]
    use super::*;
    use turnpost_shared::{AnyGame, Options};

    fn game(position: &str, ply: u32, options: serde_json::Value) -> GameView {
        serde_json::from_value(serde_json::json!({
            "id": 9, "kind": "chinese-checkers", "options": options, "clock": null,
            "timeout": "auto", "deadline": null, "claimable": false, "seats": [],
            "status": "active", "result": null, "result_reason": null, "ply": ply,
            "to_move": 1, "your_seat": 1, "your_turn": true, "draw_offered_by": null,
            "position": position, "board": "", "last_moves": [], "legal_moves": null,
            "created_at": "2026-01-01T00:00:00Z", "expires_at": null, "started_at": null,
            "finished_at": null, "last_activity_at": "2026-01-01T00:00:00Z"
        }))
        .expect("a game view")
    }

    #[test]
    fn every_cell_round_trips() {
        let mut names = std::collections::HashSet::new();
        for index in 0..HOLES {
            let cell = cell_of_hole(index).unwrap();
            assert!(cell < HOLES);
            assert_eq!(hole_of_cell(cell), Some(index));
            names.insert(hole_name(index).unwrap());
        }
        assert_eq!(names.len(), HOLES);
        assert_eq!(cell_of_hole(HOLES), None);
        assert_eq!(hole_name(HOLES), None);
        // The ends: CCP's top tip (player 0's home) is turnpost's bottom tip, Q13.
        assert_eq!(move_text("0-1").unwrap(), "Q13-P13");
        assert_eq!(move_text("120-119").unwrap(), "A5-B5");
        // Row E (13 holes) is CCP's row of cells 107-95 turned round: E1 is cell 120-10.
        assert_eq!(move_text("110-98").unwrap(), "E1-E13");
        // Each name is a hole the game knows, at the same index as its position text.
        let start = AnyGame::new(GameKind::ChineseCheckers, &Options::default()).unwrap();
        assert!(start
            .position_text()
            .starts_with("chinese-checkers 4/44/444/4444/"));
        for index in 0..HOLES {
            let name = hole_name(index).unwrap();
            let next = hole_name((index + 1) % HOLES).unwrap();
            // Any two holes make a text the game reads (legal or not), never a syntax error.
            let error = start.canonical_move(&format!("{name}-{next}"));
            assert!(
                !matches!(error, Err(turnpost_shared::MoveError::Syntax(_))),
                "{name}-{next}: {error:?}"
            );
        }
    }

    #[test]
    fn the_start_is_the_ccp_start() {
        let start = AnyGame::new(GameKind::ChineseCheckers, &Options::default()).unwrap();
        let line = position_line(&game(&start.position_text(), 0, serde_json::json!({}))).unwrap();
        // CCP: player 0's ten pegs on cells 0-9 (the top point), player 1's on 111-120.
        let expected = format!("{}{}{}", "0".repeat(10), ".".repeat(101), "1".repeat(10));
        assert_eq!(line, format!("position cells {expected} player 0 ply 0"));
        // CCP player 0's step from cell 6 (its point's row nearest the centre) to 14 is
        // seat 1's N13-M13, a legal first move.
        let legal = start.legal_moves();
        let step = move_text("6-14").unwrap();
        assert_eq!(step, "N13-M13");
        assert!(
            legal.contains(&start.canonical_move(&step).unwrap()),
            "{legal:?}"
        );
        // Cells 6 and 16 are not neighbours in CCP, nor are their holes in turnpost.
        assert!(start.canonical_move(&move_text("6-16").unwrap()).is_err());
    }

    #[test]
    fn a_hop_chain_and_the_second_seat_map_back() {
        let start = AnyGame::new(GameKind::ChineseCheckers, &Options::default()).unwrap();
        // After seat 1's N13-M13 (CCP 6-16), seat 2 (CCP player 1) is to move at ply 1.
        let (after, _) = start.play("N13-M13").unwrap();
        let line = position_line(&game(&after.position_text(), 1, serde_json::json!({}))).unwrap();
        let cells = line.split_whitespace().nth(2).unwrap();
        assert_eq!(&cells[6..7], ".");
        assert_eq!(&cells[14..15], "0");
        assert!(line.ends_with(" player 1 ply 1"), "{line}");
        // Player 1's hop over its own peg: from cell 117 over 114 to 106, seat 2's C5-E5.
        let hop = move_text("117-114-106").unwrap();
        assert_eq!(hop, "C5-D5-E5");
        assert!(
            after.canonical_move(&hop).is_err(),
            "D5 is a peg, no landing"
        );
        let hop = move_text("117-106").unwrap();
        assert_eq!(hop, "C5-E5");
        assert_eq!(after.canonical_move(&hop).unwrap(), "C5-E5");
        // Not a move: no cells, one cell, a cell off the board, CCP's null move.
        for bad in ["", "5", "4-121", "0000", "a-b"] {
            assert!(move_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_two_player_short_jump_games_fit() {
        let start = "chinese-checkers 4/44/444/4444/............./............/.........../........../........./........../.........../............/............./1111/111/11/1 1";
        assert!(fits(&game(start, 0, serde_json::json!({}))).is_ok());
        assert!(fits(&game(
            start,
            0,
            serde_json::json!({"players": "2", "anti-spoiling": "none"})
        ))
        .is_ok());
        for (key, value) in [
            ("players", "3"),
            ("jumps", "long"),
            ("unused", "filled"),
            ("anti-spoiling", "swap"),
            ("sets", "3"),
        ] {
            let why = fits(&game(start, 0, serde_json::json!({ key: value }))).unwrap_err();
            assert!(why.contains(&format!("{key}={value}")), "{why}");
        }
        let mut kefren = game(start, 0, serde_json::json!({}));
        kefren.kind = GameKind::Kefren;
        assert_eq!(
            fits(&kefren).unwrap_err(),
            "a CCP engine plays only chinese-checkers, not kefren"
        );
    }
}
