//! What the bot knows about SanQi: pattern threats (patterns nearly filled with one colour, the
//! mover's goals counting for it and the opponent's against it) and replacements that build or
//! break them; a move that completes the opponent's goal is avoided.

use crate::mcts::{two_player_values, BotPolicy, SeatValues};
use crate::Game;

use super::board::SanQi;
use super::colour::EMPTY;
use super::geometry::SLOTS;
use super::moves::SanQiMove;
use super::shape::{Pattern, PatternKind};

/// Worth of a pattern holding k stones of its most common colour (k = 6 stands: the win
/// check handles it).
const WORTH: [f64; 7] = [0.0, 0.0, 0.03, 0.12, 0.45, 1.6, 0.0];
/// 0.5 to the power of the index.
const HALVES: [f64; 7] = [1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625];

/// How near `pattern` is to standing: the worth of its best colour, halved for each stone of
/// another colour (each needs a replacement).
fn threat(cells: &[u8; SLOTS], pattern: &Pattern) -> f64 {
    let mut counts = [0usize; 4];
    for cell in pattern.cells {
        let stone = cells.get(usize::from(cell)).copied().unwrap_or(EMPTY);
        if let Some(count) = counts.get_mut(usize::from(stone)) {
            *count += 1;
        }
    }
    let [empty, red, blue, yellow] = counts;
    let best = red.max(blue).max(yellow);
    let others = 6 - empty - best;
    let discount = HALVES.get(others).copied().unwrap_or(0.0);
    WORTH.get(best).copied().unwrap_or(0.0) * discount
}

/// Whose goal a pattern kind is, from seat `mover`'s side: +1 its own, −1 the opponent's.
/// Triangles win for both; the opponent moves next, so a near triangle is their chance first.
fn goal_sign(kind: PatternKind, mover: u8) -> f64 {
    match (kind, mover) {
        (PatternKind::Triangle, _) => -0.5,
        (PatternKind::Circle, 0) | (PatternKind::Line, 1) => 1.0,
        _ => -1.0,
    }
}

impl BotPolicy for SanQi {
    const PLAYOUT_PLIES: u32 = 4;
    const PRIOR_TEMPERATURE: f64 = 0.25;

    fn evaluate(&self) -> SeatValues {
        let (mut circles, mut lines, mut triangles) = (0.0, 0.0, 0.0);
        for pattern in &self.geometry().patterns {
            let value = threat(&self.cells, pattern);
            match pattern.kind {
                PatternKind::Circle => circles += value,
                PatternKind::Line => lines += value,
                PatternKind::Triangle => triangles += value,
            }
        }
        // Triangles win for either seat: the seat to move reaches them first.
        let tempo = if self.to_move == 0 { 0.5 } else { -0.5 };
        two_player_values(circles - lines + tempo * triangles)
    }

    fn move_score(&self, mv: &SanQiMove) -> f64 {
        let mover = self.to_move;
        let after = self.play_move(mv);
        if after.standing.meets_goals_of(mover) {
            return 50.0;
        }
        if after.standing.meets_goals_of(1 - mover) {
            return -50.0;
        }
        let geometry = self.geometry();
        let index = usize::from(mv.cell.index);
        let mut score = 0.0;
        for &number in geometry.through.get(index).map_or(&[][..], Vec::as_slice) {
            if let Some(pattern) = geometry.patterns.get(number as usize) {
                let change = threat(&after.cells, pattern) - threat(&self.cells, pattern);
                score += goal_sign(pattern.kind, mover) * change;
            }
        }
        score
    }

    fn budget_scale(&self) -> f64 {
        // Bigger boards: more moves and many more patterns per evaluation.
        match self.side {
            4 => 1.0,
            6 => 0.4,
            8 => 0.2,
            _ => 0.1,
        }
    }
}
