//! Which of a game's last moves a board marks: one rule for the terminal, mails, pages and
//! pictures.

/// The moves a board marks, each in its mover's colour: those since the seat to move last
/// moved (the last one fewer than the seats, at least one), so each other seat's latest move
/// is marked, once. `moves` are the game's last moves, oldest first.
pub fn moves_to_mark<T>(moves: &[T], seat_count: u8) -> &[T] {
    let count = usize::from(seat_count).saturating_sub(1).max(1);
    moves
        .get(moves.len().saturating_sub(count)..)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_other_seats_latest_move() {
        let moves = [1, 2, 3, 4, 5, 6];
        assert_eq!(moves_to_mark(&moves, 2), [6]);
        assert_eq!(moves_to_mark(&moves, 3), [5, 6]);
        assert_eq!(moves_to_mark(&moves, 6), [2, 3, 4, 5, 6]);
        assert_eq!(moves_to_mark(&moves[..1], 4), [1]);
        assert!(moves_to_mark::<u8>(&[], 2).is_empty());
    }
}
