//! The fast move counter behind `count_moves` and `perft`: bitboards (`u128`, bit i = hole i)
//! with tables built at compile time, hop chains closed by a search over bitboards, moves
//! deduplicated by final hole per source. Must agree with the general generator in `moves.rs`
//! (tests check both on random positions of every variant).
//!
//! Each hole keeps a 12-bit pattern of its surroundings, updated as pegs move: bit d says the
//! neighbour in direction d holds a peg, bit 6 + d that the hole two steps that way is on the
//! board and empty. The ordinary hops from a hole are then `p & (p >> 6) & 63`, without looking
//! at the board. Perft makes and unmakes moves on one state, so nothing is copied.

use super::board::{next_playing, ChineseCheckers};
use super::hole::{index_at, COORDS, DIRECTIONS, HOLES};
use super::left::LeftSeats;
use super::points::{target_mask, BOARD, POINTS};
use super::variant::{AntiSpoiling, Variant};

/// No hole (off the board), in the index tables; pattern updates aimed there land in a spare slot.
const NONE: u8 = HOLES as u8;
/// Table rows per hole: a power of two, so that masking an index (`& MASK`) proves it in range.
const SLOTS: usize = 128;
const MASK: usize = SLOTS - 1;
/// The longest line of holes from a hole to the edge is 12; rays are padded with `NONE`.
const RAY: usize = 16;

const fn step_table() -> [[u8; 6]; HOLES + 1] {
    let mut table = [[NONE; 6]; HOLES + 1];
    let mut hole = 0;
    while hole < HOLES {
        let (row, number) = COORDS[hole];
        let mut d = 0;
        while d < 6 {
            let (dr, dn) = DIRECTIONS[d];
            if let Some(index) = index_at(row + dr, number + dn) {
                table[hole][d] = index as u8;
            }
            d += 1;
        }
        hole += 1;
    }
    table
}

/// The adjacent hole in each direction (`NONE` off the board, and from `NONE`).
const STEP: [[u8; 6]; HOLES + 1] = step_table();

const fn bit(index: u8) -> u128 {
    if index >= NONE {
        0
    } else {
        1u128 << index
    }
}

const fn neighbour_table() -> [u128; SLOTS] {
    let mut table = [0; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            table[hole] |= bit(STEP[hole][d]);
            d += 1;
        }
        hole += 1;
    }
    table
}

const fn bit_table() -> [u128; SLOTS] {
    let mut table = [0; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        table[hole] = 1u128 << hole;
        hole += 1;
    }
    table
}

/// Each hole's bit (a load is cheaper than a 128-bit shift by a variable).
const BIT: [u128; SLOTS] = bit_table();

const fn degree_table() -> [u32; SLOTS] {
    let mut table = [0; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        table[hole] = NEIGHBOURS[hole].count_ones();
        hole += 1;
    }
    table
}

/// The adjacent holes of each hole.
const NEIGHBOURS: [u128; SLOTS] = neighbour_table();

/// The number of adjacent holes of each hole.
const DEGREE: [u32; SLOTS] = degree_table();

const fn land_table() -> [[u128; 8]; SLOTS] {
    let mut table = [[0; 8]; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            table[hole][d] = bit(STEP[STEP[hole][d] as usize][d]);
            d += 1;
        }
        hole += 1;
    }
    table
}

/// The landing hole of an ordinary hop from each hole in each direction.
const LAND: [[u128; 8]; SLOTS] = land_table();

const fn zone_table() -> [u128; SLOTS] {
    let mut table = [0; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            table[hole] |= LAND[hole][d];
            d += 1;
        }
        table[hole] |= NEIGHBOURS[hole];
        hole += 1;
    }
    table
}

/// The holes whose pegs decide the steps and ordinary hops from each hole: its neighbours and
/// the holes two steps away.
const ZONE: [u128; SLOTS] = zone_table();

/// Pattern bits to flip when a hole changes between empty and taken: (hole, bits) for the
/// holes one step back (their "neighbour taken" bit) and two steps back (their "landing empty"
/// bit) in each direction.
const fn update_table() -> [[(u8, u16); 12]; SLOTS] {
    let mut table = [[(NONE, 0); 12]; SLOTS];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            let back = STEP[hole][d ^ 1];
            table[hole][2 * d] = (back, 1 << d);
            table[hole][2 * d + 1] = (STEP[back as usize][d ^ 1], 1 << (6 + d));
            d += 1;
        }
        hole += 1;
    }
    table
}

const UPDATES: [[(u8, u16); 12]; SLOTS] = update_table();

const fn ray_table() -> [[[u8; RAY]; 6]; HOLES] {
    let mut table = [[[NONE; RAY]; 6]; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            let mut at = STEP[hole][d];
            let mut i = 0;
            while at != NONE && i < RAY {
                table[hole][d][i] = at;
                at = STEP[at as usize][d];
                i += 1;
            }
            d += 1;
        }
        hole += 1;
    }
    table
}

/// The holes along each direction from each hole, nearest first.
const RAYS: [[[u8; RAY]; 6]; HOLES] = ray_table();

/// Landing holes of long hops from `at` (rules: `jumps=long`): empty ones, or with
/// `landing_taken` the ones holding a peg (swaps).
fn long_hops(at: usize, occupied: u128, landing_taken: bool) -> u128 {
    let mut lands = 0;
    for ray in &RAYS[at] {
        let mut k = 0;
        while k < RAY && ray[k] != NONE && occupied & bit(ray[k]) == 0 {
            k += 1;
        }
        // The peg jumped over is ray[k], at distance k + 1; the landing is at twice that.
        let land = 2 * k + 1;
        if k >= RAY || ray[k] == NONE || land >= RAY || ray[land] == NONE {
            continue;
        }
        let clear = ray[k + 1..land]
            .iter()
            .all(|&hole| occupied & bit(hole) == 0);
        if clear && (occupied & bit(ray[land]) != 0) == landing_taken {
            lands |= bit(ray[land]);
        }
    }
    lands
}

/// Landing holes of ordinary hops over pegs of `occupied` from `at`, onto taken holes (swaps).
fn short_hops_onto_pegs(at: usize, occupied: u128) -> u128 {
    let mut lands = 0;
    for d in 0..6 {
        let over = STEP[at][d];
        if occupied & bit(over) != 0 {
            lands |= LAND[at & MASK][d] & occupied;
        }
    }
    lands
}

/// A position prepared for counting: bitboards, the hole patterns, and what the seat to move
/// may do.
pub(crate) struct Search {
    pegs: [u128; POINTS + 1],
    occupied: u128,
    patterns: [u16; SLOTS],
    seat: usize,
    variant: Variant,
    /// The seats that have left: skipped in turn order.
    left: LeftSeats,
    /// Where each seat's moves may end (the points of seats that left are free).
    rest: [u128; POINTS],
    /// The targets of the sets in play, for a quick "nobody is home" test.
    targets: [u128; POINTS],
    target_count: usize,
}

impl Search {
    pub(crate) fn new(game: &ChineseCheckers) -> Search {
        let occupied = game.occupied();
        let mut patterns = [0u16; SLOTS];
        for (hole, pattern) in patterns.iter_mut().enumerate().take(HOLES) {
            for d in 0..6 {
                let over = STEP[hole][d];
                if occupied & bit(over) != 0 {
                    *pattern |= 1 << d;
                }
                let land = LAND[hole][d];
                if land != 0 && occupied & land == 0 {
                    *pattern |= 1 << (6 + d);
                }
            }
        }
        let mut targets = [0; POINTS];
        let mut target_count = 0;
        for set in 1..=POINTS {
            if game.variant.in_play(set) {
                targets[target_count] = target_mask(set);
                target_count += 1;
            }
        }
        Search {
            pegs: game.pegs,
            occupied,
            patterns,
            seat: game.seat(),
            variant: game.variant,
            left: game.left,
            rest: std::array::from_fn(|seat| game.rest_mask(seat)),
            targets,
            target_count,
        }
    }

    /// The position as a game value (for the rare full win test).
    fn game(&self) -> ChineseCheckers {
        ChineseCheckers {
            pegs: self.pegs,
            to_move: self.seat as u8,
            variant: self.variant,
            left: self.left,
        }
    }

    fn game_over(&self) -> bool {
        if !self.left.is_empty() && self.left.len() + 1 >= self.variant.seat_count() {
            // One seat remains: it has won.
            return true;
        }
        let mut full = false;
        for &target in &self.targets[..self.target_count] {
            full |= self.occupied & target == target;
        }
        full && self.game().winner().is_some()
    }

    /// Flips the occupancy of `hole` in the patterns.
    #[inline(always)]
    fn toggle(&mut self, hole: usize) {
        for &(at, bits) in &UPDATES[hole & MASK] {
            self.patterns[usize::from(at) & MASK] ^= bits;
        }
    }

    /// Ordinary hops from `at` onto empty holes (by the patterns: the moving peg still counts
    /// as standing on its hole).
    #[inline(always)]
    fn short_hops(&self, at: usize) -> u128 {
        let at = at & MASK;
        let pattern = self.patterns[at];
        let mut directions = pattern & (pattern >> 6) & 63;
        let mut lands = 0;
        while directions != 0 {
            lands |= LAND[at][directions.trailing_zeros() as usize & 7];
            directions &= directions - 1;
        }
        lands
    }

    /// The final holes of the peg on `from` whose target is `target`, before the resting rule.
    #[inline(always)]
    fn ends(&self, from: usize, target: u128) -> u128 {
        let from_bit = 1u128 << from;
        // The moving peg leaves its hole: it is empty during the move, but never a landing.
        let occupied = self.occupied & !from_bit;
        let empty = BOARD & !occupied;
        let around = NEIGHBOURS[from & MASK];
        let mut ends = around & empty;
        let locked = target & from_bit != 0;
        if locked {
            ends &= target;
        }
        let long = self.variant.long_jumps;
        let mut reached = from_bit;
        let mut frontier = if long {
            long_hops(from, occupied, false)
        } else {
            self.short_hops(from)
        };
        if locked {
            frontier &= target;
        }
        reached |= frontier;
        while frontier != 0 {
            let at = frontier.trailing_zeros() as usize;
            let at_bit = frontier & frontier.wrapping_neg();
            frontier ^= at_bit;
            let mut lands = if long {
                long_hops(at, occupied, false)
            } else if around & at_bit != 0 {
                // Next to the lifted peg, the hop over it is gone: its landing is the only one
                // from here that is next to the lifted peg's hole.
                self.short_hops(at) & !around
            } else {
                self.short_hops(at)
            };
            lands &= !reached;
            if target & at_bit != 0 {
                lands &= target;
            }
            reached |= lands;
            frontier |= lands;
        }
        ends |= reached & !from_bit;
        if self.variant.anti_spoiling == AntiSpoiling::Swap && self.occupied & target == target {
            ends |= self.swaps(from, target, reached, occupied);
        }
        ends
    }

    /// Final holes of swaps (rules: `anti-spoiling=swap`): the last step or hop lands on another
    /// player's peg in the full target, from the start or any landing of a chain.
    fn swaps(&self, from: usize, target: u128, reached: u128, occupied: u128) -> u128 {
        let own = self.variant.sets_of(self.seat);
        let mut victims = 0;
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                victims |= self.pegs[set];
            }
        }
        victims &= target;
        if victims == 0 {
            return 0;
        }
        let mut swaps = NEIGHBOURS[from & MASK] & victims;
        let mut starts = reached;
        while starts != 0 {
            let at = starts.trailing_zeros() as usize;
            starts &= starts - 1;
            swaps |= if self.variant.long_jumps {
                long_hops(at, occupied, true)
            } else {
                short_hops_onto_pegs(at, occupied)
            } & victims;
        }
        swaps
    }

    /// Calls `found(from, ends)` for every peg of the seat to move with its final holes.
    #[inline(always)]
    fn for_each_peg(&self, mut found: impl FnMut(usize, u128)) {
        let own = self.variant.sets_of(self.seat);
        let rest = self.rest.get(self.seat).copied().unwrap_or(BOARD);
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                continue;
            }
            let target = target_mask(set);
            let mut pegs = self.pegs[set];
            while pegs != 0 {
                let from = pegs.trailing_zeros() as usize;
                pegs &= pegs - 1;
                found(from, self.ends(from, target) & rest);
            }
        }
    }

    /// The number of legal moves (a forced pass counts as one; none once the game is over).
    pub(crate) fn count(&self) -> u64 {
        if self.game_over() {
            return 0;
        }
        let mut count = 0;
        let own = self.variant.sets_of(self.seat);
        if self.variant.long_jumps || self.variant.anti_spoiling == AntiSpoiling::Swap {
            self.for_each_peg(|_, ends| count += u64::from(ends.count_ones()));
        } else if !self.plain() {
            let rest = self.rest.get(self.seat).copied().unwrap_or(BOARD);
            self.for_each_own_peg(own, |from, target| {
                let ends = if target & BIT[from] != 0 {
                    self.ends(from, target)
                } else {
                    self.short_reach(from, target).0 | (NEIGHBOURS[from] & !self.occupied)
                };
                count += u64::from((ends & rest).count_ones());
            });
        } else {
            self.for_each_own_peg(own, |from, target| {
                count += u64::from(self.peg_count(from, target).0);
            });
        }
        count.max(1)
    }

    /// Two players, ordinary hops, no swaps: no resting rule, and [`Search::peg_count`] applies.
    fn plain(&self) -> bool {
        self.variant.layout.players == 2
            && !self.variant.long_jumps
            && self.variant.anti_spoiling != AntiSpoiling::Swap
    }

    /// Calls `found(from, target)` for every peg of the sets in `own`.
    #[inline(always)]
    fn for_each_own_peg(&self, own: u8, mut found: impl FnMut(usize, u128)) {
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                continue;
            }
            let target = target_mask(set);
            let mut pegs = self.pegs[set];
            while pegs != 0 {
                found(pegs.trailing_zeros() as usize & MASK, target);
                pegs &= pegs - 1;
            }
        }
    }

    /// The number of moves of the peg on `from` whose target is `target` (plain games), and the
    /// holes whose occupancy that number depends on: while none of them changes, it holds.
    #[inline(always)]
    fn peg_count(&self, from: usize, target: u128) -> (u32, u128) {
        let from = from & MASK;
        if target & BIT[from] != 0 {
            // Locked in its target: the general search, recounted every time.
            return (self.ends(from, target).count_ones(), BOARD);
        }
        // Steps: the empty neighbours, counted from the pattern.
        let pattern = self.patterns[from];
        let steps = DEGREE[from] - u32::from(pattern & 63).count_ones();
        if pattern & (pattern >> 6) & 63 == 0 {
            return (steps, ZONE[from]);
        }
        let (reach, zone) = self.short_reach(from, target);
        // Hop landings next to the start hole are steps already.
        (steps + (reach & !NEIGHBOURS[from]).count_ones(), zone)
    }

    /// The holes that chains of ordinary hops reach from `from`, a hole outside the target of
    /// its peg, and the holes whose occupancy decided them: the hot path of perft.
    #[inline(always)]
    fn short_reach(&self, from: usize, target: u128) -> (u128, u128) {
        let from_bit = BIT[from & MASK];
        let around = NEIGHBOURS[from & MASK];
        let mut zone = ZONE[from & MASK];
        // Holes where the plain search does not apply: next to the lifted peg (the hop over it
        // is gone: its landing is the only one from there next to the lifted peg's hole), or
        // in the target (lock).
        let special = around | target;
        let mut frontier = self.short_hops(from);
        let mut reached = frontier | from_bit;
        while frontier != 0 {
            let at = frontier.trailing_zeros() as usize & MASK;
            frontier &= frontier - 1;
            zone |= ZONE[at];
            let mut lands = self.short_hops(at);
            if special & BIT[at] != 0 {
                if around & BIT[at] != 0 {
                    lands &= !around;
                }
                if target & BIT[at] != 0 {
                    lands &= target;
                }
            }
            lands &= !reached;
            reached |= lands;
            frontier |= lands;
        }
        (reached & !from_bit, zone)
    }

    /// Moves the peg of `set` on `from` to `to`, swapping with the peg there if any; playing
    /// the same move again takes it back (the caller keeps the seat).
    #[inline(always)]
    fn toggle_move(&mut self, set: usize, from: usize, to: usize) {
        let both = (1u128 << from) | (1u128 << to);
        if self.occupied & both == both {
            // A swap: the other peg changes place too, and the occupancy stays as it was.
            for pegs in self.pegs.iter_mut() {
                let has = *pegs & both;
                if has != 0 && has != both {
                    *pegs ^= both;
                }
            }
        } else {
            self.pegs[set & 7] ^= both;
            self.occupied ^= both;
            self.toggle(from);
            self.toggle(to);
        }
    }

    /// Move sequences of length `depth`, counting the last ply in bulk.
    pub(crate) fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count();
        }
        if self.game_over() {
            return 0;
        }
        let moves = self.moves();
        let seat = self.seat;
        self.seat = next_playing(&self.variant, &self.left, seat);
        let total = if depth == 2 && self.plain() {
            self.count_children(&moves)
        } else {
            let mut total = 0;
            if moves.is_empty() {
                total = self.perft(depth - 1);
            }
            for &(set, from, to) in &moves {
                self.toggle_move(set, from, to);
                total += self.perft(depth - 1);
                self.toggle_move(set, from, to);
            }
            total
        };
        self.seat = seat;
        total
    }

    /// Perft 1 after each of `moves` (plain games; the seat is already the next one). The next
    /// seat's pegs do not move, so each peg's count is kept, and recounted only after a move
    /// that changes a hole it depends on.
    fn count_children(&mut self, moves: &[(usize, usize, usize)]) -> u64 {
        if moves.is_empty() {
            return self.count();
        }
        let mut pegs = [(0usize, 0u128, 0u32, 0u128); 3 * 10];
        let mut count = 0;
        self.for_each_own_peg(self.variant.sets_of(self.seat), |from, target| {
            if let Some(slot) = pegs.get_mut(count) {
                let (moves, zone) = self.peg_count(from, target);
                *slot = (from, target, moves, zone);
                count += 1;
            }
        });
        let pegs = pegs.get(..count).unwrap_or(&[]);
        let mut total = 0;
        for &(set, from, to) in moves {
            self.toggle_move(set, from, to);
            if !self.game_over() {
                let changed = BIT[from & MASK] | BIT[to & MASK];
                let mut child = 0;
                for &(peg, target, moves, zone) in pegs {
                    child += if zone & changed == 0 {
                        moves
                    } else {
                        self.peg_count(peg, target).0
                    };
                }
                total += u64::from(child.max(1));
            }
            self.toggle_move(set, from, to);
        }
        total
    }

    /// The moves of the seat to move other than pass: (set, from, to).
    fn moves(&self) -> Vec<(usize, usize, usize)> {
        let mut moves = Vec::with_capacity(64);
        let own = self.variant.sets_of(self.seat);
        let rest = self.rest.get(self.seat).copied().unwrap_or(BOARD);
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                continue;
            }
            let target = target_mask(set);
            let mut pegs = self.pegs[set];
            while pegs != 0 {
                let from = pegs.trailing_zeros() as usize;
                pegs &= pegs - 1;
                let mut ends = self.ends(from, target) & rest;
                while ends != 0 {
                    moves.push((set, from, ends.trailing_zeros() as usize));
                    ends &= ends - 1;
                }
            }
        }
        moves
    }
}

impl ChineseCheckers {
    /// The number of legal moves (a forced pass counts as one; none once the game is over).
    pub(crate) fn fast_count(&self) -> u64 {
        Search::new(self).count()
    }

    /// Move sequences of length `depth`, counting the last ply in bulk.
    pub(crate) fn fast_perft(&self, depth: u32) -> u64 {
        Search::new(self).perft(depth)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::chinese_checkers::hole::Hole;
    use crate::chinese_checkers::moves::ChineseCheckersMove;
    use crate::chinese_checkers::points::mask;
    use crate::Options;

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn hole_in(&mut self, holes: u128) -> Option<usize> {
            let count = u64::from(holes.count_ones());
            if count == 0 {
                return None;
            }
            let mut skip = self.below(count);
            let mut left = holes;
            while skip > 0 {
                left &= left - 1;
                skip -= 1;
            }
            Some(left.trailing_zeros() as usize)
        }
    }

    /// A random position of `variant`, biased towards pegs in and around targets, full targets
    /// (lock, swaps, wins) and crowded points (resting rule).
    fn random_position(variant: Variant, rng: &mut Rng) -> ChineseCheckers {
        let mut game = ChineseCheckers::start(variant);
        game.pegs = [0; POINTS + 1];
        let mut inert = variant.filled_holes();
        for _ in 0..rng.below(4) {
            if let Some(hole) = rng.hole_in(inert) {
                inert &= !(1u128 << hole);
            }
        }
        game.pegs[0] = inert;
        let sets: Vec<usize> = (1..=POINTS).filter(|&set| variant.in_play(set)).collect();
        for &set in &sets {
            let count = 4 + rng.below(7);
            for _ in 0..count {
                let area = match rng.below(4) {
                    0 => target_mask(set),
                    1 => mask(set),
                    2 => mask(0),
                    _ => BOARD,
                };
                if let Some(hole) = rng.hole_in(area & !game.occupied()) {
                    game.pegs[set] |= 1u128 << hole;
                }
            }
        }
        if rng.below(2) == 0 {
            // Fill one target with whatever pegs are short of ten.
            let set = sets[rng.below(sets.len() as u64) as usize];
            let mut holes = target_mask(set) & !game.occupied();
            while holes != 0 {
                let hole = holes.trailing_zeros();
                holes &= holes - 1;
                let filler = sets[rng.below(sets.len() as u64) as usize];
                if game.pegs[filler].count_ones() < 10 {
                    game.pegs[filler] |= 1u128 << hole;
                }
            }
        }
        game.to_move = rng.below(variant.seat_count() as u64) as u8;
        if variant.seat_count() >= 3 && rng.below(3) == 0 {
            // Seats leave, up to every seat but one (the game is then over).
            for _ in 0..1 + rng.below(variant.seat_count() as u64 - 1) {
                let seat = rng.below(variant.seat_count() as u64) as usize;
                if !game.left.contains(seat) && game.playing() > 1 {
                    game = game.without(seat);
                }
            }
        }
        game
    }

    fn naive_perft(game: &ChineseCheckers, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        game.generate()
            .iter()
            .map(|mv| naive_perft(&game.after(mv), depth - 1))
            .sum()
    }

    const VARIANTS: &[&[&str]] = &[
        &[],
        &["players=3"],
        &["players=4"],
        &["players=6"],
        &["players=2", "sets=3"],
        &["players=3", "sets=2"],
        &["unused=filled"],
        &["players=4", "unused=filled"],
        &["jumps=long"],
        &["players=6", "jumps=long"],
        &["anti-spoiling=none"],
        &["anti-spoiling=swap"],
        &["players=3", "anti-spoiling=swap"],
        &["players=2", "sets=3", "anti-spoiling=swap", "jumps=long"],
    ];

    /// The bitboard counter and the general generator agree, peg by peg, on random positions
    /// of every variant; so do perft 2 by make/unmake and by playing the general moves.
    #[test]
    fn fast_path_agrees_with_the_general_generator() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut swaps = 0;
        let mut locked = 0;
        let (mut departed, mut ended) = (0, 0);
        for options in VARIANTS {
            let variant = Variant::from_options(&Options::from_pairs(*options).unwrap()).unwrap();
            for round in 0..48 {
                let game = random_position(variant, &mut rng);
                let context = format!("{options:?} {}", game.to_position_text());
                let search = Search::new(&game);
                let cells = game.cells();
                let rest = game.rest_mask(game.seat());
                for (from, set) in game.own_pegs() {
                    let general: u128 = game
                        .ends_on(&cells, from, set, true)
                        .iter()
                        .fold(0, |all, hole| all | hole.bit());
                    let fast = search.ends(from.index(), target_mask(set));
                    assert_eq!(fast & rest, general & rest, "peg {from}: {context}");
                    if general & game.occupied() != 0 {
                        swaps += 1;
                    }
                    if target_mask(set) & from.bit() != 0 {
                        locked += 1;
                    }
                }
                let moves = game.generate();
                assert_eq!(search.count(), moves.len() as u64, "{context}");
                if !game.left.is_empty() {
                    departed += 1;
                    if game.playing() == 1 {
                        assert!(moves.is_empty(), "{context}");
                        ended += 1;
                    }
                }
                if round % 3 == 0 {
                    assert_eq!(game.fast_perft(2), naive_perft(&game, 2), "{context}");
                }
                if moves == [ChineseCheckersMove::Pass] {
                    assert_eq!(search.count(), 1);
                }
            }
        }
        assert!(
            swaps > 0 && locked > 0 && departed > 20 && ended > 0,
            "swaps {swaps}, locked pegs {locked}, with seats gone {departed}, over {ended}"
        );
        assert!(Hole::all().count() == HOLES);
    }
}
