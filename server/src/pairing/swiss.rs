//! Swiss pairing (Dutch-like): players in score groups, the top half of a group against its
//! bottom half, the odd one out floating down to the next group; no pair meets twice and no
//! colour difference passes 2 while any pairing allows it.
//!
//! The pairing is the first one a depth-first search finds when it reads the players best
//! first and tries each one's opponents in the order above. The search runs under rules that
//! relax step by step, each with a bounded effort, so an impossible round still gets the least
//! bad pairing quickly: (1) no repeats, colour difference within 2, nobody three times the same
//! colour in a row, and preferably a pairing that leaves the next round pairable without
//! repeats; (2) the same allowing a third colour in a row; (3) as few repeat meetings as it can
//! find with the colour difference within 2; (4) as few repeats as it can find, colours as they
//! fall. With an odd count the bye goes to the lowest-ranked player without one for whom the
//! rest can be paired under the strictest rules possible; a second bye only when everyone
//! playing has had one.

use super::colour::{Colour, ColourHistory, Strength};
use super::entrant::Entrant;
use super::history::History;
use super::ranking::ranked;
use super::round_pairing::Pairing;

/// Search nodes one attempt may visit before it gives up (or settles for what it found).
const NODE_BUDGET: u64 = 20_000;
/// Search nodes the look at the next round may visit; past it the next round counts as fine.
const LOOKAHEAD_BUDGET: u64 = 5_000;
/// Complete pairings an attempt checks against the next round before it takes its first.
const LOOKAHEAD_LEAVES: u32 = 64;

/// What a pairing attempt allows, strictest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    /// No repeats, colour difference within 2, no third colour in a row.
    Strict,
    /// No repeats, colour difference within 2.
    NoRepeats,
    /// At most this many repeat meetings, colour difference within 2.
    Repeats(u32),
    /// At most this many repeat meetings, colours as they fall.
    Anything(u32),
}

impl Rules {
    /// Every attempt in order, for `players` to pair.
    fn in_order(players: usize) -> Vec<Self> {
        let mut limits = vec![1, 2, 3];
        let mut limit = 4_u32;
        let most = u32::try_from(players).unwrap_or(u32::MAX).max(4);
        while limit < most {
            limits.push(limit);
            limit = limit.saturating_mul(2);
        }
        limits.push(u32::MAX);
        let mut rules = vec![Self::Strict, Self::NoRepeats];
        rules.extend(limits.iter().map(|&limit| Self::Repeats(limit)));
        rules.extend(limits.iter().map(|&limit| Self::Anything(limit)));
        rules
    }

    fn repeat_limit(self) -> u32 {
        match self {
            Self::Strict | Self::NoRepeats => 0,
            Self::Repeats(limit) | Self::Anything(limit) => limit,
        }
    }
}

/// The pairing of a Swiss round for the entrants still playing (at least two).
pub(super) fn pair_swiss(
    entrants: &[Entrant],
    history: &History,
    round: u32,
    rounds: u32,
) -> Pairing {
    let playing: Vec<usize> = (0..entrants.len())
        .filter(|&i| entrants[i].plays_in(round))
        .collect();
    let order = ranked(&playing, entrants, &history.points);
    let look_ahead = round < rounds;
    let bye_pools: Vec<Vec<Option<usize>>> = if order.len() % 2 == 0 {
        vec![vec![None]]
    } else {
        // Lowest-ranked first: those without a bye, then (only if none can) the fewest byes.
        let without: Vec<Option<usize>> = order
            .iter()
            .rev()
            .filter(|&&i| history.byes[i] == 0)
            .map(|&i| Some(i))
            .collect();
        let mut everyone: Vec<usize> = order.iter().rev().copied().collect();
        everyone.sort_by_key(|&i| history.byes[i]);
        vec![without, everyone.into_iter().map(Some).collect()]
    };
    for pool in bye_pools.iter().filter(|pool| !pool.is_empty()) {
        for rules in Rules::in_order(order.len()) {
            for &bye in pool {
                let search = Search::new(history, rules, &order, bye, look_ahead);
                if let Some(pairs) = search.run() {
                    return Pairing {
                        games: boards(history, &order, pairs),
                        bye,
                    };
                }
            }
        }
    }
    // Unreachable in practice: the last rules allow any pairing. Pair in rank order.
    let pairs = order
        .chunks_exact(2)
        .map(|pair| (pair[0], pair[1]))
        .collect();
    Pairing {
        games: boards(history, &order, pairs),
        bye: (order.len() % 2 == 1)
            .then(|| order.last().copied())
            .flatten(),
    }
}

/// The games in board order (the better-ranked player's rank), each `[white, black]`.
fn boards(history: &History, order: &[usize], pairs: Vec<(usize, usize)>) -> Vec<Vec<usize>> {
    let rank = |entrant: usize| {
        order
            .iter()
            .position(|&i| i == entrant)
            .unwrap_or(usize::MAX)
    };
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| if rank(a) <= rank(b) { (a, b) } else { (b, a) })
        .collect();
    pairs.sort_by_key(|&(higher, _)| rank(higher));
    pairs
        .into_iter()
        .enumerate()
        .map(|(board, (higher, lower))| {
            let higher_colour = allocate(
                &history.colours[higher],
                &history.colours[lower],
                board % 2 == 0,
            );
            match higher_colour {
                Colour::White => vec![higher, lower],
                Colour::Black => vec![lower, higher],
            }
        })
        .collect()
}

/// The higher-ranked player's colour: within the colour difference limit and avoiding a third
/// colour in a row where either allocation can; then the stronger preference wins (the
/// higher-ranked player's on a tie); players without a preference alternate by board, the
/// higher-ranked one white on odd boards (`white_board`).
fn allocate(higher: &ColourHistory, lower: &ColourHistory, white_board: bool) -> Colour {
    let wanted = match (higher.preference(), lower.preference()) {
        (None, None) => {
            if white_board {
                Colour::White
            } else {
                Colour::Black
            }
        }
        (Some((colour, _)), None) => colour,
        (None, Some((colour, _))) => colour.other(),
        (Some((mine, my_strength)), Some((theirs, their_strength))) => {
            if my_strength >= their_strength {
                mine
            } else {
                theirs.other()
            }
        }
    };
    let cost = |colour: Colour| {
        let beyond_difference = usize::from(!higher.difference_allows(colour))
            + usize::from(!lower.difference_allows(colour.other()));
        let third_in_a_row = usize::from(higher.third_in_a_row(colour))
            + usize::from(lower.third_in_a_row(colour.other()));
        (beyond_difference, third_in_a_row, colour != wanted)
    };
    if cost(wanted.other()) < cost(wanted) {
        wanted.other()
    } else {
        wanted
    }
}

/// One depth-first pairing attempt under one set of rules.
struct Search<'a> {
    history: &'a History,
    rules: Rules,
    /// The players to pair, best first.
    players: Vec<usize>,
    /// Everyone playing this round, the bye too (all of them play the next round).
    everyone: &'a [usize],
    look_ahead: bool,
    nodes: u64,
    leaves_checked: u32,
    exhausted: bool,
    /// The first complete pairing, taken when none looks good for the next round.
    first: Option<Vec<(usize, usize)>>,
}

impl<'a> Search<'a> {
    fn new(
        history: &'a History,
        rules: Rules,
        everyone: &'a [usize],
        bye: Option<usize>,
        look_ahead: bool,
    ) -> Self {
        Self {
            history,
            rules,
            players: everyone
                .iter()
                .copied()
                .filter(|&i| Some(i) != bye)
                .collect(),
            everyone,
            look_ahead: look_ahead && rules.repeat_limit() == 0,
            nodes: 0,
            leaves_checked: 0,
            exhausted: false,
            first: None,
        }
    }

    fn run(mut self) -> Option<Vec<(usize, usize)>> {
        let mut paired = vec![false; self.players.len()];
        let mut pairs = Vec::with_capacity(self.players.len() / 2);
        if self.extend(&mut paired, &mut pairs, 0) {
            Some(pairs)
        } else {
            self.first
        }
    }

    /// Pairs the best unpaired player and recurses; true once a complete pairing is accepted.
    fn extend(
        &mut self,
        paired: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
        repeats: u32,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > NODE_BUDGET {
            self.exhausted = true;
            return false;
        }
        let Some(top) = paired.iter().position(|&done| !done) else {
            return self.accept(pairs);
        };
        let candidates = self.candidates(top, paired);
        paired[top] = true;
        let a = self.players[top];
        for candidate in candidates {
            let b = self.players[candidate];
            let repeats = repeats.saturating_add(self.history.met(a, b));
            if !self.allows(a, b, repeats) {
                continue;
            }
            paired[candidate] = true;
            pairs.push((a, b));
            if self.extend(paired, pairs, repeats) {
                return true;
            }
            pairs.pop();
            paired[candidate] = false;
            if self.exhausted {
                break;
            }
        }
        paired[top] = false;
        false
    }

    /// A complete pairing: accepted unless it leaves the next round without a repeat-free
    /// pairing (checked for a bounded number of candidates; the first is kept regardless).
    fn accept(&mut self, pairs: &[(usize, usize)]) -> bool {
        if self.first.is_none() {
            self.first = Some(pairs.to_vec());
        }
        if !self.look_ahead {
            return true;
        }
        self.leaves_checked += 1;
        let mut next = self.history.clone();
        for &(a, b) in pairs {
            next.meet(a, b);
        }
        if next_round_pairable(&next, self.everyone) {
            return true;
        }
        if self.leaves_checked >= LOOKAHEAD_LEAVES {
            self.exhausted = true;
        }
        false
    }

    /// Opponents for `players[top]` in the order tried: the bottom half of its score group in
    /// order (the Dutch S2), then the rest of its group upwards, then lower groups best first.
    /// Within each part opponents whose colour wishes clash with its own come later.
    fn candidates(&self, top: usize, paired: &[bool]) -> Vec<usize> {
        let points = |position: usize| self.history.points[self.players[position]];
        let unpaired = (top..self.players.len()).filter(|&p| !paired[p]);
        let group: Vec<usize> = unpaired
            .clone()
            .filter(|&p| points(p) == points(top))
            .collect();
        let lower: Vec<usize> = unpaired.filter(|&p| points(p) < points(top)).collect();
        let half = group.len() / 2;
        let mut bottom_half: Vec<usize> = group.get(half.max(1)..).unwrap_or_default().to_vec();
        let mut rest_of_top: Vec<usize> = group
            .get(1..half.max(1))
            .unwrap_or_default()
            .iter()
            .rev()
            .copied()
            .collect();
        let clash = |p: &usize| self.colour_clash(self.players[top], self.players[*p]);
        bottom_half.sort_by_key(clash);
        rest_of_top.sort_by_key(clash);
        bottom_half
            .into_iter()
            .chain(rest_of_top)
            .chain(lower)
            .collect()
    }

    /// How strongly two players want the same colour (None when their wishes fit).
    fn colour_clash(&self, a: usize, b: usize) -> Strength {
        match (
            self.history.colours[a].preference(),
            self.history.colours[b].preference(),
        ) {
            (Some((mine, my_strength)), Some((theirs, their_strength))) if mine == theirs => {
                my_strength.min(their_strength)
            }
            _ => Strength::None,
        }
    }

    fn allows(&self, a: usize, b: usize, repeats: u32) -> bool {
        if repeats > self.rules.repeat_limit() {
            return false;
        }
        let (mine, theirs) = (&self.history.colours[a], &self.history.colours[b]);
        let fits = |colour: Colour, strict: bool| {
            mine.difference_allows(colour)
                && theirs.difference_allows(colour.other())
                && !(strict
                    && (mine.third_in_a_row(colour) || theirs.third_in_a_row(colour.other())))
        };
        match self.rules {
            Rules::Strict => fits(Colour::White, true) || fits(Colour::Black, true),
            Rules::NoRepeats | Rules::Repeats(_) => {
                fits(Colour::White, false) || fits(Colour::Black, false)
            }
            Rules::Anything(_) => true,
        }
    }
}

/// Whether `players` can all be paired (all but one for an odd count) without a repeat, as far
/// as a bounded search can tell (past the bound: yes).
fn next_round_pairable(history: &History, players: &[usize]) -> bool {
    struct Matching<'a> {
        history: &'a History,
        players: &'a [usize],
        nodes: u64,
    }
    impl Matching<'_> {
        fn extend(&mut self, paired: &mut [bool], may_skip: bool) -> bool {
            self.nodes += 1;
            if self.nodes > LOOKAHEAD_BUDGET {
                return true;
            }
            let Some(top) = paired.iter().position(|&done| !done) else {
                return true;
            };
            paired[top] = true;
            for other in top + 1..self.players.len() {
                if paired[other] || self.history.met(self.players[top], self.players[other]) > 0 {
                    continue;
                }
                paired[other] = true;
                if self.extend(paired, may_skip) {
                    return true;
                }
                paired[other] = false;
            }
            let found = may_skip && self.extend(paired, false);
            paired[top] = false;
            found
        }
    }
    let mut matching = Matching {
        history,
        players,
        nodes: 0,
    };
    let mut paired = vec![false; players.len()];
    matching.extend(&mut paired, players.len() % 2 == 1)
}
