//! One round's pairing: the games to start and who sits out.

/// The games of one round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// Each game's entrants in seat order.
    pub games: Vec<Vec<usize>>,
    /// The entrant sitting out this round (Swiss with an odd count; scored as a win).
    pub bye: Option<usize>,
}
