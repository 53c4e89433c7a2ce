//! Seats that have left the game (rules: "A seat leaving"), in the order they left.

use super::points::POINTS;

/// The seats (0-based) that have left, in the order they left; a fixed array so that positions
/// stay `Copy`-cheap to clone in the move generator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct LeftSeats {
    order: [u8; POINTS],
    count: u8,
}

impl LeftSeats {
    /// Whether `seat` (0-based) has left.
    pub(crate) fn contains(&self, seat: usize) -> bool {
        self.seats().any(|left| left == seat)
    }

    /// The seats that left, first to leave first.
    pub(crate) fn seats(&self) -> impl Iterator<Item = usize> + '_ {
        self.order
            .iter()
            .take(usize::from(self.count))
            .map(|&seat| usize::from(seat))
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.count)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// `seat` (0-based) leaves; a seat already listed, or a seventh, is ignored (callers check).
    pub(crate) fn push(&mut self, seat: usize) {
        if self.contains(seat) {
            return;
        }
        if let (Some(slot), Ok(seat)) = (
            self.order.get_mut(usize::from(self.count)),
            u8::try_from(seat),
        ) {
            *slot = seat;
            self.count += 1;
        }
    }
}
