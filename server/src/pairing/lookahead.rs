//! Looking ahead in a Swiss: can the rounds still to come be paired without repeats?
//!
//! The players not yet met form a graph; the coming rounds need that many edge-disjoint
//! perfect matchings in it (with an odd count, a dummy player stands for the bye, met by whoever
//! has had one). A greedy Swiss can paint itself into a corner: six players whose unplayed
//! pairs form two triangles cannot play a fourth round without a repeat. The search below
//! finds the matchings one after another, always extending from the player with the fewest
//! open partners, and backtracks, within a bounded effort.

use super::colour::colours_can_fit;

/// Search nodes one look may visit; past it the answer is "probably yes".
const BUDGET: u64 = 20_000;

/// Whether `rounds` more rounds can be paired in `open` (a symmetric matrix: `open[a][b]` when
/// a and b may still meet; even size) with every colour difference staying within the limit,
/// as far as a bounded search can tell (past the bound: yes). `differences` are the players'
/// whites minus blacks now (None for the dummy standing for the bye); in the rounds looked at,
/// the player with the lower difference of a pair takes white.
pub(super) fn rounds_still_pairable(
    open: Vec<Vec<bool>>,
    differences: Vec<Option<i32>>,
    rounds: u32,
) -> bool {
    let size = open.len();
    let mut look = Look {
        open,
        differences,
        partner: vec![None; size],
        nodes: 0,
        gave_up: false,
    };
    look.rounds(rounds) || look.gave_up
}

struct Look {
    open: Vec<Vec<bool>>,
    differences: Vec<Option<i32>>,
    /// The matching being built for the current round.
    partner: Vec<Option<usize>>,
    nodes: u64,
    gave_up: bool,
}

impl Look {
    /// Whether `rounds` disjoint perfect matchings remain.
    fn rounds(&mut self, rounds: u32) -> bool {
        if rounds == 0 {
            return true;
        }
        self.matching(rounds)
    }

    /// Whether `v` and `w` may meet in the round being built.
    fn may_meet(&self, v: usize, w: usize) -> bool {
        let colours_fit = match (self.differences.get(v), self.differences.get(w)) {
            (Some(Some(a)), Some(Some(b))) => colours_can_fit(*a, *b),
            _ => true,
        };
        v != w && self.partner[w].is_none() && self.open[v][w] && colours_fit
    }

    /// Extends the current round's matching; once complete, takes its pairs out of the graph
    /// and looks for the remaining rounds.
    fn matching(&mut self, rounds: u32) -> bool {
        self.nodes += 1;
        if self.nodes > BUDGET {
            self.gave_up = true;
        }
        if self.gave_up {
            return false;
        }
        let size = self.open.len();
        let options = |v: usize| (0..size).filter(|&w| self.may_meet(v, w)).count();
        let Some(player) = (0..size)
            .filter(|&v| self.partner[v].is_none())
            .min_by_key(|&v| options(v))
        else {
            return self.next_round(rounds);
        };
        let partners: Vec<usize> = (0..size).filter(|&w| self.may_meet(player, w)).collect();
        for other in partners {
            self.partner[player] = Some(other);
            self.partner[other] = Some(player);
            let found = self.matching(rounds);
            self.partner[player] = None;
            self.partner[other] = None;
            if found || self.gave_up {
                return found;
            }
        }
        false
    }

    /// The current round's matching is complete: close its pairs, give them colours and look
    /// further.
    fn next_round(&mut self, rounds: u32) -> bool {
        let pairs: Vec<(usize, usize)> = self
            .partner
            .iter()
            .enumerate()
            .filter_map(|(v, partner)| partner.filter(|&w| v < w).map(|w| (v, w)))
            .collect();
        let saved_partners = std::mem::replace(&mut self.partner, vec![None; self.open.len()]);
        let saved_differences = self.differences.clone();
        for &(a, b) in &pairs {
            self.open[a][b] = false;
            self.open[b][a] = false;
            if let (Some(Some(x)), Some(Some(y))) =
                (self.differences.get(a), self.differences.get(b))
            {
                let (white, black) = if x <= y { (a, b) } else { (b, a) };
                self.differences[white] = self.differences[white].map(|d| d + 1);
                self.differences[black] = self.differences[black].map(|d| d - 1);
            }
        }
        let found = self.rounds(rounds - 1);
        for &(a, b) in &pairs {
            self.open[a][b] = true;
            self.open[b][a] = true;
        }
        self.differences = saved_differences;
        self.partner = saved_partners;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All pairs open except those listed.
    fn open_except(size: usize, played: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let mut open: Vec<Vec<bool>> = (0..size)
            .map(|a| (0..size).map(|b| a != b).collect())
            .collect();
        for &(a, b) in played {
            open[a][b] = false;
            open[b][a] = false;
        }
        open
    }

    #[test]
    fn two_triangles_cannot_be_paired_but_a_hexagon_can() {
        // Played: every pair across {0, 1, 2} and {3, 4, 5}; open: two triangles.
        let across: Vec<(usize, usize)> =
            (0..3).flat_map(|a| (3..6).map(move |b| (a, b))).collect();
        let all = |size: usize| open_except(size, &[]);
        let even = |size: usize| vec![Some(0); size];
        assert!(!rounds_still_pairable(open_except(6, &across), even(6), 1));
        // Played: three rounds leaving the 6-cycle 0-1-2-3-4-5-0 open: two more rounds fit.
        let mut played = Vec::new();
        for a in 0..6 {
            for b in a + 1..6 {
                let cycle_neighbours = b - a == 1 || (a == 0 && b == 5);
                if !cycle_neighbours {
                    played.push((a, b));
                }
            }
        }
        assert!(rounds_still_pairable(open_except(6, &played), even(6), 2));
        assert!(!rounds_still_pairable(open_except(6, &played), even(6), 3));
        // Nothing played: a whole round-robin of 8 fits, of 4 not a fourth round.
        assert!(rounds_still_pairable(all(8), even(8), 7));
        assert!(!rounds_still_pairable(all(4), even(4), 4));
        // 0 and 1 have both had white twice more than black: they cannot meet. With 0-3
        // played, 0-2 1-3 is left; with 0-2 and 0-3 played, only 0-1 was (the dummy, 3, has no
        // colour).
        let colours = vec![Some(2), Some(2), Some(0), None];
        assert!(rounds_still_pairable(
            open_except(4, &[(0, 3)]),
            colours.clone(),
            1
        ));
        assert!(!rounds_still_pairable(
            open_except(4, &[(0, 2), (0, 3)]),
            colours,
            1
        ));
    }
}
