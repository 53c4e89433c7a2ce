//! How a game looks on a terminal: header, board with coordinates and the last move
//! highlighted, whose turn it is.

use turnpost_shared::api::{GameSummary, GameView};
use turnpost_shared::play::{GameResult, GameStatus, ResultReason};
use turnpost_shared::render::render_text;
use turnpost_shared::{AnyGame, Options};

use crate::clock_display::{bank, clock_words, local_deadline, LONG, SHORT};
use crate::output::text_style;

/// The game's options as engine options.
pub fn engine_options(game: &GameView) -> Options {
    let mut options = Options::new();
    for (key, value) in &game.options {
        options.set(key, value.clone());
    }
    options
}

/// The engine position of a game, for local checks and drawing. A running game's dice seed is
/// withheld by the server, so only the roll in its position text is known (and needed).
pub fn engine_game(game: &GameView) -> Option<AnyGame> {
    let options = engine_options(game);
    AnyGame::from_position_text_seed_withheld(&options, &game.position)
        .ok()
        .or_else(|| {
            // A challenge whose dice are not drawn yet shows its start with no roll (`?`).
            AnyGame::new_seed_withheld(game.kind, &options)
                .ok()
                .filter(|start| game.ply == 0 && start.position_text() == game.position)
        })
}

/// For a Kechi die game: the seed's commitment while it runs, the seed and how to check it
/// once finished.
fn dice_line(game: &GameView) -> Option<String> {
    if game.options.get("total").map(String::as_str) != Some("die") {
        return None;
    }
    let Some(commitment) = game.seed_sha256.as_deref() else {
        return (game.status == GameStatus::Invited)
            .then(|| "dice: the seed is drawn when the game starts\n".to_string());
    };
    Some(match game.options.get("seed") {
        Some(seed) => format!(
            "dice seed: {seed}, SHA-256 {commitment} (check: printf %s {seed} | sha256sum; \
             replay: turnpost record {} > game.txt && turnpost engine replay game.txt)\n",
            game.id
        ),
        None => format!("dice: seed hidden until the game ends, SHA-256 {commitment}\n"),
    })
}

/// The players with their seats: "anna (Black (seat 1)) vs bob (White (seat 2))".
pub fn players(seats: &[turnpost_shared::api::SeatView]) -> String {
    seats
        .iter()
        .map(|seat| {
            let pending = if seat.accepted {
                ""
            } else {
                ", not accepted yet"
            };
            format!("{} ({}{pending})", seat.player, seat.seat_name)
        })
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// "rated · anna 1500?, bob 1623 · for you: win +162, draw +0, loss -162": whether the game
/// is rated, the players' ratings (`?` provisional) and, before a rated two-player game
/// starts, how the caller's rating would change; none when the server shows no ratings.
pub fn ratings_line(game: &GameView) -> Option<String> {
    let rated: Vec<String> = game
        .seats
        .iter()
        .filter_map(|seat| Some(format!("{} {}", seat.player, seat.rating?)))
        .collect();
    if rated.is_empty() {
        return None;
    }
    let mut line = format!(
        "{} · {}",
        if game.rated { "rated" } else { "unrated" },
        rated.join(", ")
    );
    if let Some(changes) = game.rating_changes {
        line.push_str(&format!(
            " · for you: win {:+}, draw {:+}, loss {:+}",
            changes.win, changes.draw, changes.loss
        ));
    }
    Some(line)
}

/// Who is to move or how it ended, in words.
pub fn state_line(
    status: GameStatus,
    to_move: Option<u8>,
    your_turn: bool,
    result: Option<&GameResult>,
    reason: Option<ResultReason>,
    seats: &[turnpost_shared::api::SeatView],
) -> String {
    let name = |seat: u8| seat_player(seats, seat);
    match (status, to_move) {
        (GameStatus::Active, Some(seat)) if your_turn => format!("your move ({})", name(seat)),
        (GameStatus::Active, Some(seat)) => format!("{} to move", name(seat)),
        (GameStatus::Finished, _) => {
            format!("finished: {}", result_words(result, reason, seats))
        }
        (other, _) => other.to_string(),
    }
}

/// A result for people: "anna won by resignation", "draw by agreement", from the API's
/// `won 1` / `won 1 3` / `draw` and the reason.
pub fn result_words(
    result: Option<&GameResult>,
    reason: Option<ResultReason>,
    seats: &[turnpost_shared::api::SeatView],
) -> String {
    let how = reason.map_or("", ResultReason::after_result);
    match result {
        Some(result) if result.is_draw() => format!("draw{how}"),
        Some(result) => {
            let names: Vec<String> = result
                .winners()
                .iter()
                .map(|&seat| {
                    u8::try_from(seat)
                        .map_or_else(|_| seat.to_string(), |seat| seat_player(seats, seat))
                })
                .collect();
            format!("{} won{how}", names.join(" and "))
        }
        None => format!("over{how}"),
    }
}

/// The count shown for a game: "move 9" while active (the move to be played now, counting
/// from 1), "8 moves played" otherwise. The API's `ply` and `--ply` are the moves played so far.
pub fn move_count(status: GameStatus, ply: u32) -> String {
    match (status, ply) {
        (GameStatus::Active, _) => format!("move {}", ply + 1),
        (_, 1) => "1 move played".to_string(),
        (_, n) => format!("{n} moves played"),
    }
}

/// In a Kechi die game, the roll of the player to move when that is the caller (the position
/// text's total field).
fn die_roll(game: &GameView) -> Option<String> {
    let die = game.kind == turnpost_shared::GameKind::Kechi
        && game.options.get("total").map(String::as_str) == Some("die")
        && game.your_turn;
    die.then(|| game.position.split_whitespace().nth(3).map(str::to_string))
        .flatten()
}

/// Who left and, once over, the places, for games of three or more seats: "left: cleo, then
/// bob · places: 1 anna, 2 bob, 3 cleo"; empty when there is nothing to say. (In two-seat
/// games the result already says it all.)
pub fn departures_words(
    seats: &[turnpost_shared::api::SeatView],
    departed: &[u8],
    placings: Option<&[u8]>,
) -> String {
    let mut parts = Vec::new();
    if !departed.is_empty() {
        let names: Vec<String> = departed
            .iter()
            .map(|&s| {
                let bot = seats
                    .iter()
                    .find(|seat| seat.seat == s)
                    .and_then(|seat| seat.played_by.as_deref());
                match bot {
                    Some(bot) => format!("{} ({bot} plays on)", seat_player(seats, s)),
                    None => seat_player(seats, s),
                }
            })
            .collect();
        parts.push(format!("left: {}", names.join(", then ")));
    }
    if let Some(places) = placings.filter(|_| seats.len() > 2) {
        let mut ranked: Vec<(u8, String)> = places
            .iter()
            .zip(1u8..)
            .map(|(&place, seat)| (place, seat_player(seats, seat)))
            .collect();
        ranked.sort();
        let shown: Vec<String> = ranked
            .iter()
            .map(|(place, name)| format!("{place} {name}"))
            .collect();
        parts.push(format!("places: {}", shown.join(", ")));
    }
    parts.join(" · ")
}

/// The whole game for people.
pub fn describe(game: &GameView) -> String {
    let mut text = format!("{} #{} · {}\n", game.kind, game.id, players(&game.seats));
    let state = state_line(
        game.status,
        game.to_move,
        game.your_turn,
        game.result.as_ref(),
        game.result_reason,
        &game.seats,
    );
    text.push_str(&format!("{} · {state}", move_count(game.status, game.ply)));
    if game.status != GameStatus::Finished {
        if let Some(reason) = &game.result_reason {
            text.push_str(&format!(" ({reason})"));
        }
    }
    text.push('\n');
    if let (Some(seat), Some(engine)) = (
        game.your_seat.and_then(turnpost_shared::Seat::new),
        engine_game(game),
    ) {
        if matches!(game.status, GameStatus::Active | GameStatus::Invited) {
            text.push_str(&format!("your goal: {}\n", engine.goal(seat)));
        }
        if let Some(roll) = die_roll(game) {
            text.push_str(&format!(
                "your die roll: {roll} (move your stones {roll} in all)\n"
            ));
        }
    }
    if let Some(line) = ratings_line(game) {
        text.push_str(&line);
        text.push('\n');
    }
    let departures = departures_words(&game.seats, &game.departed, game.placings.as_deref());
    if !departures.is_empty() {
        text.push_str(&departures);
        text.push('\n');
    }
    if let Some(dice) = dice_line(game) {
        text.push_str(&dice);
    }
    text.push_str(&clock_lines(game));
    if let Some(seat) = game.draw_offered_by {
        text.push_str(&format!("a draw is offered by seat {seat}"));
        if !game.draw_accepted_by.is_empty() {
            let seats: Vec<String> = game.draw_accepted_by.iter().map(u8::to_string).collect();
            text.push_str(&format!(", accepted by seat {}", seats.join(", ")));
        }
        text.push('\n');
    }
    let last = game.last_moves.last();
    if let Some(last) = last {
        let how = if last.prepared {
            ", prepared answer"
        } else {
            ""
        };
        text.push_str(&format!(
            "last move: {} (move {}, {}{how})\n",
            last.notation,
            last.ply + 1,
            seat_player(&game.seats, last.seat)
        ));
    }
    text.push('\n');
    match engine_game(game) {
        Some(engine) => {
            text.push_str(&render_text(&marked_view(&engine, game), text_style()));
        }
        None => text.push_str(&game.board),
    }
    text
}

/// The board with the moves since the seat to move last moved marked in their movers'
/// colours (`moves_to_mark`, the rule of mails and pages): the same picture for the terminal
/// and `turnpost board --svg`.
pub fn marked_view(engine: &AnyGame, game: &GameView) -> turnpost_shared::render::BoardView {
    let marked = turnpost_shared::render::moves_to_mark(&game.last_moves, engine.seat_count());
    engine.board_view_with_moves(marked.iter().filter_map(|mv| {
        let seat = turnpost_shared::Seat::new(mv.seat)?;
        (!turnpost_shared::play::DepartureText::is_departure(&mv.notation))
            .then_some((seat, mv.notation.as_str()))
    }))
}

/// The clock, the timeout mode, Fischer banks, the deadline in local time, and the command to
/// claim a win on time when the caller may.
fn clock_lines(game: &GameView) -> String {
    let mut parts = Vec::new();
    if let Some(clock) = &game.clock {
        parts.push(format!("clock: {}", clock_words(clock)));
    }
    parts.push(format!("timeout: {}", game.timeout));
    let banks: Vec<String> = game
        .seats
        .iter()
        .filter_map(|seat| {
            seat.bank_seconds
                .map(|seconds| format!("{} {}", seat.player, bank(seconds)))
        })
        .collect();
    if !banks.is_empty() {
        parts.push(format!("banks: {}", banks.join(", ")));
    }
    let mut text = parts.join(" · ");
    text.push('\n');
    if let Some(deadline) = &game.deadline {
        let whose = match game.to_move {
            Some(_) if game.your_turn => "your deadline".to_string(),
            Some(seat) => format!("deadline of {}", seat_player(&game.seats, seat)),
            None => "deadline".to_string(),
        };
        text.push_str(&format!("{whose}: {}\n", local_deadline(deadline, LONG)));
    }
    if game.claimable {
        text.push_str(&format!(
            "you may claim a win on time: turnpost claim {}\n",
            game.id
        ));
    }
    text
}

/// The name of the player in `seat`, or "seat N".
fn seat_player(seats: &[turnpost_shared::api::SeatView], seat: u8) -> String {
    seats
        .iter()
        .find(|s| s.seat == seat)
        .map_or_else(|| format!("seat {seat}"), |s| s.player.clone())
}

/// When the seat to move runs out of time, for a list: "due Tue 24 Nov 14:03 (in 2 d 3 h)",
/// or nothing.
fn due(game: &GameSummary) -> String {
    game.deadline
        .as_deref()
        .map(|at| format!("due {}", local_deadline(at, SHORT)))
        .unwrap_or_default()
}

/// The columns of a game list line: id, kind, move count, state, deadline, and who plays
/// (for a challenge: who sent it and whom it waits for).
fn summary_cells(game: &GameSummary) -> [String; 6] {
    let state = state_line(
        game.status,
        game.to_move,
        game.your_turn,
        game.result.as_ref(),
        None,
        &game.seats,
    );
    // Ratings beside the names where the server shows them: "anna 1500?, bob 1623".
    let names: Vec<String> = game
        .seats
        .iter()
        .map(|seat| match seat.rating {
            Some(rating) => format!("{} {rating}", seat.player),
            None => seat.player.clone(),
        })
        .collect();
    let pending: Vec<&str> = game
        .seats
        .iter()
        .filter(|seat| !seat.accepted)
        .map(|seat| seat.player.as_str())
        .collect();
    let mut who = if game.status == GameStatus::Invited {
        let from = game
            .challenger
            .as_deref()
            .map(|name| format!("from {name}"));
        let waiting = (!pending.is_empty()).then(|| format!("waiting for {}", pending.join(", ")));
        let parts: Vec<String> = from.into_iter().chain(waiting).collect();
        if parts.is_empty() {
            names.join(", ")
        } else {
            parts.join(", ")
        }
    } else {
        names.join(", ")
    };
    let departures = departures_words(&game.seats, &game.departed, game.placings.as_deref());
    if !departures.is_empty() {
        who.push_str(&format!("  ({departures})"));
    }
    [
        game.id.to_string(),
        game.kind.to_string(),
        move_count(game.status, game.ply),
        state,
        due(game),
        who,
    ]
}

/// The lines of a game list, its columns as wide as their longest entry (kind names and
/// states differ in length), each line within [`LIST_WIDTH`].
pub fn summary_lines(games: &[GameSummary]) -> Vec<String> {
    let rows: Vec<[String; 6]> = games.iter().map(summary_cells).collect();
    // Ids right-aligned in six columns at least, as the lists always showed them.
    let mut widths = [6, 0, 0, 0, 0, 0];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (index, (cell, width)) in row.iter().zip(widths).enumerate() {
                if width == 0 {
                    continue;
                }
                if index == 0 {
                    line.push_str(&format!("{cell:>width$}  "));
                } else {
                    line.push_str(&format!("{cell:<width$}  "));
                }
            }
            fit(line.trim_end(), LIST_WIDTH)
        })
        .collect()
}

/// Game list lines stay within this many columns (six players' names included).
pub const LIST_WIDTH: usize = 100;

/// `text` cut to `width` characters, ending with `…` when cut.
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('\u{2026}');
    cut
}

#[cfg(test)]
mod tests {
    use turnpost_shared::api::SeatView;

    use super::*;

    fn seat(seat: u8, player: &str, bank_seconds: Option<u64>) -> SeatView {
        SeatView {
            seat,
            seat_name: format!("seat {seat}"),
            player: player.into(),
            accepted: true,
            bank_seconds,
            played_by: None,
            open: false,
            rating: None,
            engine: false,
        }
    }

    fn game(clock: &str, timeout: &str, banks: [Option<u64>; 2]) -> GameView {
        GameView {
            id: 42,
            kind: turnpost_shared::GameKind::Kefren,
            options: Default::default(),
            seed_sha256: None,
            clock: Some(clock.into()),
            timeout: timeout.parse().unwrap(),
            on_leave: turnpost_shared::play::OnLeave::Remove,
            deadline: Some("2026-11-24T13:03:00Z".into()),
            claimable: false,
            seats: vec![seat(1, "anna", banks[0]), seat(2, "bob", banks[1])],
            status: GameStatus::Active,
            result: None,
            result_reason: None,
            ply: 3,
            to_move: Some(1),
            your_seat: Some(2),
            your_turn: false,
            draw_offered_by: None,
            position: String::new(),
            board: String::new(),
            last_moves: Vec::new(),
            legal_moves: None,
            created_at: "2026-11-20T00:00:00Z".into(),
            expires_at: None,
            started_at: None,
            finished_at: None,
            last_activity_at: "2026-11-21T00:00:00Z".into(),
            draw_accepted_by: Vec::new(),
            departed: Vec::new(),
            placings: None,
            rated: false,
            rating_changes: None,
        }
    }

    fn listed(id: i64, kind: turnpost_shared::GameKind, status: GameStatus) -> GameSummary {
        GameSummary {
            id,
            kind,
            status,
            seats: vec![seat(1, "anna", None), seat(2, "bartholomew", None)],
            ply: 7,
            to_move: (status == GameStatus::Active).then_some(2),
            your_turn: false,
            deadline: None,
            result: None,
            last_activity_at: "2026-11-21T00:00:00Z".into(),
            departed: Vec::new(),
            placings: None,
            challenger: None,
        }
    }

    #[test]
    fn list_columns_line_up_whatever_the_kind_names() {
        let mut invited = listed(3, turnpost_shared::GameKind::Kechi, GameStatus::Invited);
        invited.seats[1].accepted = false;
        invited.challenger = Some("anna".into());
        let games = [
            listed(
                1234,
                turnpost_shared::GameKind::ChineseCheckers,
                GameStatus::Active,
            ),
            listed(7, turnpost_shared::GameKind::Kefren, GameStatus::Active),
            invited,
        ];
        let lines = summary_lines(&games);
        assert_eq!(lines.len(), 3);
        // Every column starts at the same character on every line.
        for column in ["move 8", "bartholomew to move"] {
            let starts: Vec<Option<usize>> = lines[..2]
                .iter()
                .map(|line| line.find(column).map(|at| line[..at].chars().count()))
                .collect();
            assert!(starts[0].is_some() && starts[0] == starts[1], "{lines:#?}");
        }
        let who: Vec<usize> = lines
            .iter()
            .map(|line| line.rfind("  ").unwrap_or(0) + 2)
            .collect();
        assert_eq!(who[0], who[1], "{lines:#?}");
        assert_eq!(who[1], who[2], "{lines:#?}");
        assert!(
            lines[2].ends_with("from anna, waiting for bartholomew"),
            "{lines:#?}"
        );
    }

    #[test]
    fn show_marks_the_moves_since_the_seat_to_move_last_moved() {
        // Four moves played: the page and the mails mark only the last (two seats), in its
        // mover's colour; so does the terminal.
        let mut engine = AnyGame::new(turnpost_shared::GameKind::Kefren, &Options::new()).unwrap();
        let mut view = game("3d", "auto", [None, None]);
        for ply in 0..4u32 {
            let seat = engine.status().to_move().unwrap();
            let mv = engine.legal_moves()[0].clone();
            let (next, notation) = engine.play(&mv).unwrap();
            view.last_moves.push(turnpost_shared::api::MoveView {
                ply,
                seat: seat.number(),
                notation,
                played_at: "2026-11-21T00:00:00Z".into(),
                automatic: false,
                prepared: false,
            });
            engine = next;
        }
        view.position = engine.position_text();
        let marked = marked_view(&engine, &view);
        let last = &view.last_moves[3];
        let colour = engine.seat_colour(turnpost_shared::Seat::new(last.seat).unwrap());
        let mut cells: Vec<String> = marked
            .cells
            .iter()
            .filter(|cell| cell.highlighted)
            .map(|cell| cell.name.to_ascii_uppercase())
            .collect();
        cells.sort();
        let mut named: Vec<String> = last
            .notation
            .split(['-', ':'])
            .map(str::to_ascii_uppercase)
            .collect();
        named.sort();
        assert_eq!(cells, named, "{}", last.notation);
        assert!(marked
            .cells
            .iter()
            .filter(|cell| cell.highlighted)
            .all(|cell| cell.mark == Some(colour)));
    }

    #[test]
    fn results_name_players_and_moves_count_from_one() {
        let view = game("3d", "auto", [None, None]);
        assert_eq!(
            result_words(
                Some(&GameResult::won([2])),
                Some(ResultReason::Resignation),
                &view.seats
            ),
            "bob won by resignation"
        );
        assert_eq!(
            result_words(
                Some(&GameResult::won([1])),
                Some(ResultReason::Timeout),
                &view.seats
            ),
            "anna won on time"
        );
        assert_eq!(
            result_words(
                Some(&GameResult::draw()),
                Some(ResultReason::Agreement),
                &view.seats
            ),
            "draw by agreement"
        );
        assert_eq!(
            result_words(
                Some(&GameResult::won([1, 3])),
                Some(ResultReason::Rules),
                &view.seats
            ),
            "anna and seat 3 won"
        );
        assert_eq!(
            result_words(None, Some(ResultReason::Declined), &view.seats),
            "over (declined)"
        );
        assert_eq!(move_count(GameStatus::Active, 8), "move 9");
        assert_eq!(move_count(GameStatus::Finished, 1), "1 move played");
        assert_eq!(move_count(GameStatus::Finished, 8), "8 moves played");
    }

    #[test]
    fn kechi_die_games_say_your_die_roll() {
        let mut view = game("3d", "auto", [None, None]);
        view.kind = turnpost_shared::GameKind::Kechi;
        view.options.insert("total".into(), "die".into());
        view.your_turn = true;
        view.position = "kechi w...w...w...w/..../..../..../............./..../..../..../\
                         ............./..../..../..../b...b...b...b w 2 0 0 0"
            .into();
        assert_eq!(die_roll(&view).as_deref(), Some("2"));
        view.your_turn = false;
        assert_eq!(die_roll(&view), None);
    }

    #[test]
    fn kechi_die_games_show_the_commitment_then_the_seed() {
        let mut view = game("3d", "auto", [None, None]);
        view.kind = turnpost_shared::GameKind::Kechi;
        view.options.insert("total".into(), "die".into());
        assert_eq!(dice_line(&view), None, "no commitment, nothing to say");
        view.status = GameStatus::Invited;
        assert_eq!(
            dice_line(&view).as_deref(),
            Some("dice: the seed is drawn when the game starts\n")
        );
        view.status = GameStatus::Active;
        view.seed_sha256 = Some("73475c".into());
        assert_eq!(
            dice_line(&view).as_deref(),
            Some("dice: seed hidden until the game ends, SHA-256 73475c\n")
        );
        view.options.insert("seed".into(), "42".into());
        let line = dice_line(&view).unwrap();
        assert!(
            line.starts_with("dice seed: 42, SHA-256 73475c (check: printf %s 42 | sha256sum;"),
            "{line}"
        );
        assert!(describe(&view).contains(&line));
        view.options.insert("total".into(), "6".into());
        assert_eq!(dice_line(&view), None, "no dice with total=6");
    }

    #[test]
    fn departures_and_places_in_words() {
        let seats = [
            seat(1, "anna", None),
            seat(2, "bob", None),
            seat(3, "cleo", None),
        ];
        assert_eq!(departures_words(&seats, &[], None), "");
        assert_eq!(departures_words(&seats, &[3], None), "left: cleo");
        assert_eq!(
            departures_words(&seats, &[3, 2], Some(&[1, 2, 3])),
            "left: cleo, then bob · places: 1 anna, 2 bob, 3 cleo"
        );
        assert_eq!(
            departures_words(&seats[..2], &[], Some(&[2, 1])),
            "",
            "two seats: the result says it all"
        );
        let mut game = game("3d", "auto", [None, None]);
        game.seats = seats.to_vec();
        game.departed = vec![2];
        assert!(
            describe(&game).contains("left: bob\n"),
            "{}",
            describe(&game)
        );
    }

    #[test]
    fn days_per_move_clock_with_the_opponents_deadline() {
        let lines = clock_lines(&game("3d", "auto", [None, None]));
        let mut lines = lines.lines();
        assert_eq!(lines.next(), Some("clock: 3 days per move · timeout: auto"));
        let deadline = lines.next().unwrap();
        assert!(deadline.starts_with("deadline of anna: "), "{deadline}");
        assert!(deadline.contains("2026-11-2"), "{deadline}");
        assert_eq!(lines.next(), None);
    }

    #[test]
    fn fischer_banks_and_the_claim_command() {
        let mut view = game(
            "7d+1d/14d",
            "claim",
            [Some(86_400), Some(7 * 86_400 + 7_200)],
        );
        view.claimable = true;
        let lines = clock_lines(&view);
        assert!(
            lines.starts_with(
                "clock: Fischer 7d+1d/14d (7 days, +1 day a move, at most 14) · timeout: claim \
                 · banks: anna 1 d, bob 7 d 2 h\n"
            ),
            "{lines}"
        );
        assert!(
            lines.ends_with("you may claim a win on time: turnpost claim 42\n"),
            "{lines}"
        );
    }
}
