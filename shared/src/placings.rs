//! Every seat's final place (rules: "A seat leaving"): the winners first; the seats still
//! playing at the end next, sharing their place; then the seats that left, the last to leave
//! highest. Places are competition ranks ("1, 2, 2, 4"): a seat's place is one more than the
//! number of seats ranked above it.

use crate::{Seat, Status};

/// The place of each seat (index: seat − 1) in a finished game of `seat_count` seats ending in
/// `status` after the seats in `departed` left (first to leave first); `None` while the game
/// goes on. A draw (`Status::Draw`, or a draw agreed by every seat still playing, which the
/// server records) puts the seats still playing first, together.
pub fn placings(seat_count: u8, status: &Status, departed: &[Seat]) -> Option<Vec<u8>> {
    let winners: &[Seat] = match status {
        Status::Ongoing { .. } => return None,
        Status::Won { winners } => winners,
        Status::Draw => &[],
    };
    // Rank keys: lower is better. Winners 0; the others still playing 1; departed seats by
    // how late they left (the last to leave comes first).
    let rank = |seat: Seat| -> usize {
        match departed.iter().position(|&left| left == seat) {
            Some(order) => 2 + departed.len() - order,
            None if winners.contains(&seat) || winners.is_empty() => 0,
            None => 1,
        }
    };
    let seats: Vec<Seat> = (0..usize::from(seat_count)).map(Seat::from_index).collect();
    Some(
        seats
            .iter()
            .map(|&seat| {
                let above = seats
                    .iter()
                    .filter(|&&other| rank(other) < rank(seat))
                    .count();
                u8::try_from(above + 1).unwrap_or(u8::MAX)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    #[test]
    fn places_follow_the_rules() {
        assert_eq!(
            placings(2, &Status::Ongoing { to_move: seat(1) }, &[]),
            None
        );
        assert_eq!(placings(2, &Status::won_by(seat(2)), &[]), Some(vec![2, 1]));
        // Three seats: 3 left, then 1 left; 2 remains and wins.
        assert_eq!(
            placings(3, &Status::won_by(seat(2)), &[seat(3), seat(1)]),
            Some(vec![2, 1, 3])
        );
        // Six seats: 4 left first, then 6; seat 1 wins with 2, 3, 5 still playing.
        assert_eq!(
            placings(6, &Status::won_by(seat(1)), &[seat(4), seat(6)]),
            Some(vec![1, 2, 2, 6, 2, 5])
        );
        // A draw among the seats still playing.
        assert_eq!(
            placings(4, &Status::Draw, &[seat(2)]),
            Some(vec![1, 4, 1, 1])
        );
    }
}
