use crate::Game;

/// Counts the move sequences of length `depth` from `game`, counting the last ply in bulk.
/// A finished game has no moves, so it contributes nothing past depth 0.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => game
            .legal_moves()
            .iter()
            .map(|mv| perft(&game.play_move(mv), depth - 1))
            .sum(),
    }
}
