//! Swiss pairing (Dutch-like): players in score groups, the top half of a group against its
//! bottom half, the odd one out floating down to the next group; no pair meets twice and no
//! colour difference passes 2 while any pairing allows it.
//!
//! The pairing is the first one a depth-first search finds when it reads the players best
//! first and tries each one's opponents in the order above. The search runs under rules that
//! relax step by step, each with a bounded effort, so an impossible round still gets the least
//! bad pairing quickly: (1) no repeats, colour difference within 2, nobody three times the same
//! colour in a row; (2) the same allowing a third colour in a row; (3) as few repeat meetings
//! as it can find with the colour difference within 2; (4) as few repeats as it can find,
//! colours as they fall. Under (1) and (2) it prefers a pairing that leaves the rounds still to
//! come pairable without repeats or second byes (`super::lookahead`). With an odd count the bye
//! goes to the lowest-ranked player without one for whom the rest can be paired under the
//! strictest rules possible; a second bye only when everyone playing has had one.

use super::colour::{Colour, ColourHistory, Strength};
use super::entrant::Entrant;
use super::history::History;
use super::lookahead::rounds_still_pairable;
use super::ranking::ranked_playing;
use super::round_pairing::Pairing;

/// Search nodes one attempt may visit before it gives up (or settles for what it found).
const NODE_BUDGET: u64 = 20_000;
/// The largest field that looks ahead: the look costs the square of the field per step, and a
/// field this big runs out of fresh opponents only in a far longer Swiss than anyone plays.
const LOOKAHEAD_FIELD: usize = 128;
/// Complete pairings an attempt checks against the coming rounds before it takes its first.
const LOOKAHEAD_LEAVES: u32 = 256;

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
    let order = ranked_playing(entrants, &history.points, round);
    let rounds_ahead = if order.len() <= LOOKAHEAD_FIELD {
        rounds.saturating_sub(round)
    } else {
        0
    };
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
        // A repeat-free pairing that spoils a coming round, kept while a better one is sought.
        let mut spoiling = None;
        for rules in Rules::in_order(order.len()) {
            if rules.repeat_limit() > 0 {
                if let Some((pairs, bye)) = spoiling.take() {
                    return Pairing {
                        games: boards(history, &order, pairs),
                        bye,
                    };
                }
            }
            for &bye in pool {
                let search = Search::new(history, rules, &order, bye, rounds_ahead);
                match search.run() {
                    Found::Good(pairs) => {
                        return Pairing {
                            games: boards(history, &order, pairs),
                            bye,
                        }
                    }
                    Found::Spoiling(pairs) => {
                        spoiling.get_or_insert((pairs, bye));
                    }
                    Found::Nothing => {}
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

/// What one pairing attempt found.
enum Found {
    /// A pairing that keeps the coming rounds pairable (as far as the look could tell).
    Good(Vec<(usize, usize)>),
    /// Only pairings after which some coming round needs a repeat.
    Spoiling(Vec<(usize, usize)>),
    Nothing,
}

/// One depth-first pairing attempt under one set of rules.
struct Search<'a> {
    history: &'a History,
    rules: Rules,
    /// The players to pair, best first.
    players: Vec<usize>,
    /// Everyone playing this round, the bye too (all of them play the next round).
    everyone: &'a [usize],
    /// Rounds after this one that should stay pairable without repeats (0: do not look).
    rounds_ahead: u32,
    nodes: u64,
    leaves_checked: u32,
    exhausted: bool,
    /// The first complete pairing, taken when none looks good for the coming rounds.
    first: Option<Vec<(usize, usize)>>,
}

impl<'a> Search<'a> {
    fn new(
        history: &'a History,
        rules: Rules,
        everyone: &'a [usize],
        bye: Option<usize>,
        rounds_ahead: u32,
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
            rounds_ahead: if rules.repeat_limit() == 0 {
                rounds_ahead
            } else {
                0
            },
            nodes: 0,
            leaves_checked: 0,
            exhausted: false,
            first: None,
        }
    }

    fn run(mut self) -> Found {
        let mut paired = vec![false; self.players.len()];
        let mut pairs = Vec::with_capacity(self.players.len() / 2);
        if self.extend(&mut paired, &mut pairs, 0) {
            Found::Good(pairs)
        } else {
            self.first.map_or(Found::Nothing, Found::Spoiling)
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

    /// A complete pairing: accepted unless it leaves the coming rounds without repeat-free
    /// pairings (checked for a bounded number of candidates; the first is kept regardless).
    fn accept(&mut self, pairs: &[(usize, usize)]) -> bool {
        if self.first.is_none() {
            self.first = Some(pairs.to_vec());
        }
        if self.rounds_ahead == 0 {
            return true;
        }
        self.leaves_checked += 1;
        let (open, differences) = (self.open_after(pairs), self.differences_after(pairs));
        if rounds_still_pairable(open, differences, self.rounds_ahead) {
            return true;
        }
        if self.leaves_checked >= LOOKAHEAD_LEAVES {
            self.exhausted = true;
        }
        false
    }

    /// Who may still meet after `pairs` (everyone playing now, plus a dummy standing for the
    /// bye when the count is odd, open to whoever has not had a bye).
    fn open_after(&self, pairs: &[(usize, usize)]) -> Vec<Vec<bool>> {
        let count = self.everyone.len();
        let size = count + count % 2;
        let bye = self.everyone.iter().find(|&&e| !self.players.contains(&e));
        let mut open = vec![vec![false; size]; size];
        for (a, &x) in self.everyone.iter().enumerate() {
            for (b, &y) in self.everyone.iter().enumerate() {
                open[a][b] = a != b && self.history.met(x, y) == 0;
            }
            if size > count {
                let free = self.history.byes[x] == 0 && Some(&x) != bye;
                open[a][count] = free;
                open[count][a] = free;
            }
        }
        let index = |entrant: usize| self.everyone.iter().position(|&e| e == entrant);
        for &(x, y) in pairs {
            if let (Some(a), Some(b)) = (index(x), index(y)) {
                open[a][b] = false;
                open[b][a] = false;
            }
        }
        open
    }

    /// Everyone's colour difference after `pairs` get their colours (None for the dummy
    /// standing for the bye, which [`Self::open_after`] adds for an odd count).
    fn differences_after(&self, pairs: &[(usize, usize)]) -> Vec<Option<i32>> {
        let mut difference: Vec<Option<i32>> = self
            .everyone
            .iter()
            .map(|&e| Some(self.history.colours[e].difference()))
            .collect();
        let index = |entrant: usize| self.everyone.iter().position(|&e| e == entrant);
        for game in boards(self.history, self.everyone, pairs.to_vec()) {
            if let [white, black] = game[..] {
                if let (Some(w), Some(b)) = (index(white), index(black)) {
                    difference[w] = difference[w].map(|d| d + 1);
                    difference[b] = difference[b].map(|d| d - 1);
                }
            }
        }
        if self.everyone.len() % 2 == 1 {
            difference.push(None);
        }
        difference
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
