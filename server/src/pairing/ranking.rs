//! The order pairing reads players in: points first, then seed, then entry order.

use super::entrant::Entrant;
use super::points::HalfPoints;

/// `players` sorted best first: more points, then a higher seed, then earlier entry. Seeds
/// compare totally (a NaN seed sorts as the IEEE total order puts it, never panics).
pub(super) fn ranked(players: &[usize], entrants: &[Entrant], points: &[HalfPoints]) -> Vec<usize> {
    let mut order = players.to_vec();
    order.sort_by(|&a, &b| {
        let points_of = |i: usize| points.get(i).copied().unwrap_or_default();
        let seed_of = |i: usize| entrants.get(i).map_or(f64::NEG_INFINITY, |e| e.seed);
        points_of(b)
            .cmp(&points_of(a))
            .then_with(|| seed_of(b).total_cmp(&seed_of(a)))
            .then_with(|| a.cmp(&b))
    });
    order
}

/// The entrants playing `round`, ranked (see [`ranked`]): the order Swiss and table rounds
/// pair in.
pub(super) fn ranked_playing(
    entrants: &[Entrant],
    points: &[HalfPoints],
    round: u32,
) -> Vec<usize> {
    let playing: Vec<usize> = entrants
        .iter()
        .enumerate()
        .filter(|(_, entrant)| entrant.plays_in(round))
        .map(|(i, _)| i)
        .collect();
    ranked(&playing, entrants, points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_then_seed_then_entry_order() {
        let entrants = [
            Entrant::playing(1500.0),
            Entrant::playing(1600.0),
            Entrant::playing(1500.0),
            Entrant::playing(1400.0),
        ];
        let no_points = [HalfPoints(0); 4];
        assert_eq!(ranked(&[0, 1, 2, 3], &entrants, &no_points), [1, 0, 2, 3]);
        let points = [HalfPoints(0), HalfPoints(0), HalfPoints(1), HalfPoints(2)];
        assert_eq!(ranked(&[0, 1, 2, 3], &entrants, &points), [3, 2, 1, 0]);
    }
}
