//! Games that repeat end (issue 48, point 4): a draw by threefold repetition in the games whose
//! positions can recur (Kefren, Chinese Checkers), none in those whose cannot (Kechi, SanQi),
//! and a move limit; the bots know the rule.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::bot::{analyse, analyse_knowing, BotLevel, SplitMix64};
use turnpost_shared::play::{LengthEnding, PositionHistory, ResultReason, REPETITIONS};
use turnpost_shared::{AnyGame, GameKind, Options};

fn start(kind: GameKind, options: &[&str]) -> AnyGame {
    let options = Options::from_pairs(options.iter().map(|o| (*o).to_owned())).unwrap();
    AnyGame::new(kind, &options).unwrap()
}

/// Plays `lines` from `game` into `history`, answering the position and each line's ending.
fn play(
    mut game: AnyGame,
    history: &mut PositionHistory,
    lines: &[&str],
) -> (AnyGame, Vec<Option<LengthEnding>>) {
    let mut endings = Vec::new();
    for line in lines {
        game = game.play_line(line).unwrap().0;
        endings.push(history.after_line(line, &game));
    }
    (game, endings)
}

/// The shuttle of issue 48: each side steps a stone forward and back.
const KEFREN_SHUTTLE: [&str; 4] = ["A2-A3", "A18-A17", "A3-A2", "A17-A18"];

#[test]
fn kefren_the_third_standing_of_a_position_ends_the_game_drawn() {
    let game = start(GameKind::Kefren, &[]);
    let mut history = PositionHistory::new(&game);
    // After one round the start stands twice: the game goes on.
    let (game, endings) = play(game, &mut history, &KEFREN_SHUTTLE);
    assert_eq!(endings, [None; 4]);
    assert_eq!(history.times_stood(&game.position_text()), 2);
    assert!(!game.status().is_over());
    // Three moves more: positions after A2-A3 … stand twice, still no end.
    let (game, endings) = play(game, &mut history, &KEFREN_SHUTTLE[..3]);
    assert_eq!(endings, [None; 3]);
    assert!(history.completes_repetition(&game.play("A17-A18").unwrap().0.position_text()));
    // The fourth brings the start back for the third time.
    let (_, endings) = play(game, &mut history, &KEFREN_SHUTTLE[3..]);
    assert_eq!(endings, [Some(LengthEnding::Repetition)]);
    assert_eq!(history.ending(), Some(LengthEnding::Repetition));
    assert_eq!(history.moves(), 8);
    assert_eq!(LengthEnding::Repetition.reason(), ResultReason::Repetition);
    assert_eq!(ResultReason::Repetition.after_result(), " by repetition");
    assert_eq!(REPETITIONS, 3);
}

#[test]
fn kefren_replay_finds_the_first_ending_and_goes_on() {
    let game = start(GameKind::Kefren, &[]);
    let mut lines: Vec<&str> = Vec::new();
    for _ in 0..5 {
        lines.extend(KEFREN_SHUTTLE);
    }
    // A record stored before the rule replays whole; its first ending is at move 8.
    let (end, history) = PositionHistory::replay(&game, &lines).unwrap();
    assert_eq!(history.ending(), Some(LengthEnding::Repetition));
    assert_eq!(history.moves(), 20);
    assert_eq!(history.times_stood(&end.position_text()), 6);
    let (_, short) = PositionHistory::replay(&game, &lines[..7]).unwrap();
    assert_eq!(short.ending(), None);
    let counted = PositionHistory::of_record(&game, &lines[..8]).unwrap();
    assert_eq!(counted.ending(), Some(LengthEnding::Repetition));
}

#[test]
fn kefren_the_same_board_with_the_other_side_to_move_is_another_position() {
    let options = Options::default();
    let black = AnyGame::from_position_text(
        &options,
        "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb b",
    )
    .unwrap();
    let white = AnyGame::from_position_text(
        &options,
        "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bbbbbbbbb/bbbbbbbbb w",
    )
    .unwrap();
    let mut history = PositionHistory::new(&black);
    // The same board with White to move stands twice more: not a third standing of the start.
    assert_eq!(history.after_line("A2-A3", &white), None);
    assert_eq!(history.after_line("A3-A2", &white), None);
    assert_eq!(history.times_stood(&black.position_text()), 1);
    assert_eq!(history.times_stood(&white.position_text()), 2);
    assert!(history.completes_repetition(&white.position_text()));
    assert!(!history.completes_repetition(&black.position_text()));
}

/// A seat's first step out of its point and the step back, for a shuttle.
fn out_and_back(game: &AnyGame) -> (String, String) {
    let out = game.legal_moves().into_iter().next().unwrap();
    let (from, to) = out.split_once('-').unwrap();
    (out.clone(), format!("{to}-{from}"))
}

/// Chinese Checkers shuttle lines for every seat of `game`: each seat steps out in turn, then
/// each steps back.
fn cc_shuttle(game: &AnyGame) -> Vec<String> {
    let mut outs = Vec::new();
    let mut backs = Vec::new();
    let mut position = game.clone();
    for _ in 0..game.seat_count() {
        let (out, back) = out_and_back(&position);
        position = position.play(&out).unwrap().0;
        outs.push(out);
        backs.push(back);
    }
    outs.into_iter().chain(backs).collect()
}

#[test]
fn chinese_checkers_repeats_end_drawn_for_two_and_three_seats() {
    for players in ["players=2", "players=3"] {
        let game = start(GameKind::ChineseCheckers, &[players]);
        let shuttle = cc_shuttle(&game);
        let lines: Vec<&str> = shuttle.iter().map(String::as_str).collect();
        let mut history = PositionHistory::new(&game);
        let (game, first) = play(game, &mut history, &lines);
        let (game, second) = play(game, &mut history, &lines[..lines.len() - 1]);
        assert!(
            first.iter().chain(&second).all(Option::is_none),
            "{players}"
        );
        let (_, last) = play(game, &mut history, &lines[lines.len() - 1..]);
        assert_eq!(last, [Some(LengthEnding::Repetition)], "{players}");
    }
}

#[test]
fn chinese_checkers_a_departure_is_no_move_and_a_takeover_no_new_position() {
    let game = start(GameKind::ChineseCheckers, &["players=3"]);
    let mut history = PositionHistory::new(&game);
    // A bot taking seat 3 over leaves the position as it is: it does not stand again.
    let (game, endings) = play(game, &mut history, &["resign 3 bot", "resign 3 bot"]);
    assert_eq!(endings, [None, None]);
    assert_eq!(history.times_stood(&game.position_text()), 1);
    assert_eq!(history.moves(), 0);
    // A seat leaving changes the position (its pegs go): the new one stands once.
    let (game, _) = play(game, &mut history, &["resign 2"]);
    assert_eq!(history.times_stood(&game.position_text()), 1);
    assert_eq!(history.moves(), 0);
}

/// Plays from `game` the first legal move (in the order the seed shuffles them) that neither
/// ends the game by its rules nor completes a repetition, until the history ends it or
/// `plies` moves; answers the history.
fn wander(game: AnyGame, seed: u64, plies: u32) -> (AnyGame, PositionHistory) {
    let mut history = PositionHistory::new(&game);
    let mut rng = SplitMix64::new(seed);
    let mut game = game;
    for _ in 0..plies {
        let mut moves = game.legal_moves();
        let mut chosen = None;
        while !moves.is_empty() {
            let mv = moves.swap_remove(rng.below(moves.len()));
            let next = game.play(&mv).unwrap().0;
            if !next.status().is_over() && !history.completes_repetition(&next.position_text()) {
                chosen = Some((mv, next));
                break;
            }
        }
        let (mv, next) = chosen.expect("a move that neither ends nor repeats");
        game = next;
        if history.after_line(&mv, &game).is_some() {
            break;
        }
    }
    (game, history)
}

#[test]
fn the_move_limit_ends_a_game_that_never_repeats_thrice() {
    let game = start(GameKind::ChineseCheckers, &[]);
    assert_eq!(game.move_limit(), 600);
    assert_eq!(
        start(GameKind::ChineseCheckers, &["players=6"]).move_limit(),
        1800
    );
    let (game, history) = wander(game, 7, 700);
    assert_eq!(history.ending(), Some(LengthEnding::MoveLimit));
    assert_eq!(history.moves(), 600);
    assert!(!game.status().is_over());
    assert_eq!(ResultReason::MoveLimit.as_str(), "move_limit");
    assert_eq!(ResultReason::MoveLimit.after_result(), " by the move limit");
}

#[test]
fn kefren_has_the_default_move_limit() {
    let game = start(GameKind::Kefren, &[]);
    assert_eq!(game.move_limit(), 1000);
    let history = PositionHistory::new(&game);
    assert_eq!(history.limit(), 1000);
    assert!(!history.next_move_reaches_limit());
}

#[test]
fn kechi_and_sanqi_positions_never_recur() {
    for (kind, options) in [
        (GameKind::Kechi, &[][..]),
        (GameKind::Kechi, &["total=die", "seed=5"][..]),
        (GameKind::SanQi, &[][..]),
        (GameKind::SanQi, &["side=4"][..]),
    ] {
        let game = start(kind, options);
        assert!(!game.positions_recur(), "{kind}");
        for seed in 0..4 {
            // Random games to their end: no position twice, and far below the move limit.
            let mut rng = SplitMix64::new(seed);
            let mut position = game.clone();
            let mut seen = std::collections::HashSet::new();
            let mut history = PositionHistory::new(&game);
            while !position.status().is_over() {
                assert!(
                    seen.insert(position.position_text()),
                    "{kind}: a position recurs"
                );
                let moves = position.legal_moves();
                let mv = &moves[rng.below(moves.len())];
                position = position.play(mv).unwrap().0;
                assert_eq!(history.after_line(mv, &position), None);
            }
            assert!(history.moves() < game.move_limit(), "{kind}");
        }
    }
}

/// A Kefren position where Black is far ahead (18 stones to White's 2, nothing in reach of
/// anything), with `side` to move.
fn lopsided(side: char) -> AnyGame {
    let empty = vec!["9"; 16].join("/");
    let text = format!("kefren ww7/{empty}/bbbbbbbbb/bbbbbbbbb {side}");
    AnyGame::from_position_text(&Options::default(), &text).unwrap()
}

/// Both sides shuttle a stone: Black A2-A3 and back, White A19-A18 and back.
const LOPSIDED_SHUTTLE: [&str; 4] = ["A2-A3", "A19-A18", "A3-A2", "A18-A19"];

#[test]
fn a_bot_that_is_ahead_does_not_complete_a_repetition() {
    let position = lopsided('b');
    let level = BotLevel::new(3).unwrap();
    for seed in 0..4 {
        // The move the bot plays blind to the history …
        let blind = analyse(&position, level, seed).unwrap().mv;
        let (from, to) = blind.split_once('-').unwrap();
        let back = format!("{to}-{from}");
        // … made the position after it stand twice: from just after it, White and Black
        // shuttle back to `position`, twice, the blind move coming in between.
        let after = position.play(&blind).unwrap().0;
        let lines = [
            "A19-A18", &back, "A18-A19", &blind, "A19-A18", &back, "A18-A19",
        ];
        let (again, history) = PositionHistory::replay(&after, &lines).unwrap();
        assert_eq!(again.position_text(), position.position_text());
        assert_eq!(history.ending(), None);
        assert!(history.completes_repetition(&after.position_text()));
        let choice = analyse_knowing(&again, &history, level, seed).unwrap();
        assert!(
            choice.values[0] > 0.5,
            "Black should see itself ahead: {choice:?}"
        );
        assert_ne!(choice.mv, blind, "seed {seed}: the winning bot repeated");
        let next = again.play(&choice.mv).unwrap().0;
        assert!(!history.completes_repetition(&next.position_text()));
    }
}

#[test]
fn a_bot_that_is_behind_takes_the_draw_by_repetition() {
    // From Black to move, seven lines leave White to move with A18-A19 making the start stand
    // for the third time: far behind, White takes the draw.
    let start = lopsided('b');
    let lines: Vec<&str> = [&LOPSIDED_SHUTTLE[..], &LOPSIDED_SHUTTLE[..3]].concat();
    let (position, history) = PositionHistory::replay(&start, &lines).unwrap();
    let repeat = position.play("A18-A19").unwrap().0.position_text();
    assert!(history.completes_repetition(&repeat));
    let blind: Vec<String> = (0..4)
        .map(|seed| {
            analyse(&position, BotLevel::new(3).unwrap(), seed)
                .unwrap()
                .mv
        })
        .collect();
    assert!(blind.iter().all(|mv| mv != "A18-A19"), "{blind:?}");
    for seed in 0..4 {
        let choice = analyse_knowing(&position, &history, BotLevel::new(3).unwrap(), seed).unwrap();
        assert!(
            choice.values[1] < 0.45,
            "White should see itself behind: {choice:?}"
        );
        assert_eq!(
            choice.mv, "A18-A19",
            "seed {seed}: the losing bot played on"
        );
    }
}
