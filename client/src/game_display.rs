//! How a game looks on a terminal: header, board with coordinates and the last move
//! highlighted, whose turn it is.

use turnpost_shared::{render_text, AnyGame, GameSummary, GameView, Options};

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

/// The engine position of a game, for local checks and drawing.
pub fn engine_game(game: &GameView) -> Option<AnyGame> {
    AnyGame::from_position_text(&engine_options(game), &game.position).ok()
}

/// The players with their seats: "anna (Black (seat 1)) vs bob (White (seat 2))".
pub fn players(seats: &[turnpost_shared::SeatView]) -> String {
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

/// Who is to move or how it ended, in words.
pub fn state_line(
    status: &str,
    to_move: Option<u8>,
    your_turn: bool,
    result: Option<&str>,
    seats: &[turnpost_shared::SeatView],
) -> String {
    let name = |seat: u8| seat_player(seats, seat);
    match (status, to_move) {
        ("active", Some(seat)) if your_turn => format!("your move ({})", name(seat)),
        ("active", Some(seat)) => format!("{} to move", name(seat)),
        ("finished", _) => format!("finished: {}", result.unwrap_or("over")),
        (other, _) => other.to_string(),
    }
}

/// The whole game for people.
pub fn describe(game: &GameView) -> String {
    let mut text = format!("{} #{} · {}\n", game.kind, game.id, players(&game.seats));
    let state = state_line(
        &game.status,
        game.to_move,
        game.your_turn,
        game.result.as_deref(),
        &game.seats,
    );
    text.push_str(&format!("ply {} · {state}", game.ply));
    if let Some(reason) = &game.result_reason {
        text.push_str(&format!(" ({reason})"));
    }
    text.push('\n');
    text.push_str(&clock_lines(game));
    if let Some(seat) = game.draw_offered_by {
        text.push_str(&format!("a draw is offered by seat {seat}\n"));
    }
    let last = game.last_moves.last();
    if let Some(last) = last {
        text.push_str(&format!(
            "last move: {} (ply {})\n",
            last.notation, last.ply
        ));
    }
    text.push('\n');
    match engine_game(game) {
        Some(engine) => {
            let mut view = engine.board_view();
            if let Some(last) = last {
                view.highlight_move(&last.notation);
            }
            text.push_str(&render_text(&view, text_style()));
        }
        None => text.push_str(&game.board),
    }
    text
}

/// The clock, the timeout mode, Fischer banks, the deadline in local time, and the command to
/// claim a win on time when the caller may.
pub fn clock_lines(game: &GameView) -> String {
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

fn seat_player(seats: &[turnpost_shared::SeatView], seat: u8) -> String {
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

/// One line of a game list.
pub fn summary_line(game: &GameSummary) -> String {
    let state = state_line(
        &game.status,
        game.to_move,
        game.your_turn,
        game.result.as_deref(),
        &game.seats,
    );
    format!(
        "{:>6}  {:<16}  ply {:>4}  {:<28}  {:<36}  {}",
        game.id,
        game.kind,
        game.ply,
        state,
        due(game),
        players(&game.seats)
    )
}
