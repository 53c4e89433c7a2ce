//! The fast move counter behind `count_moves` and `perft`: bitboards (`u128`, bit i = hole i)
//! with tables built at compile time, hop chains closed by a search over bitboards, moves
//! deduplicated by final hole per source. Must agree with the general generator in `moves.rs`.

use super::board::ChineseCheckers;
use super::hole::{index_at, COORDS, DIRECTIONS, HOLES};
use super::points::{target_mask, BOARD, POINTS};
use super::variant::AntiSpoiling;

/// No hole (off the board), in the index tables.
const NONE: u8 = HOLES as u8;
/// Longest line of holes from a hole to the edge is 12; rays are padded with `NONE`.
const RAY: usize = 16;

const fn step_table() -> [[u8; 6]; HOLES] {
    let mut table = [[NONE; 6]; HOLES];
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

/// The adjacent hole in each direction.
const STEP: [[u8; 6]; HOLES] = step_table();

const fn bit(index: u8) -> u128 {
    if index == NONE {
        0
    } else {
        1u128 << index
    }
}

const fn neighbour_table() -> [u128; HOLES] {
    let mut table = [0; HOLES];
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

/// The adjacent holes of each hole.
const NEIGHBOURS: [u128; HOLES] = neighbour_table();

/// An ordinary hop from a hole in each direction: the hole jumped over and the landing hole
/// (both 0 where the landing hole is off the board).
#[derive(Clone, Copy)]
struct Hops {
    over: [u128; 6],
    land: [u128; 6],
}

const fn hop_table() -> [Hops; HOLES] {
    let mut table = [Hops {
        over: [0; 6],
        land: [0; 6],
    }; HOLES];
    let mut hole = 0;
    while hole < HOLES {
        let mut d = 0;
        while d < 6 {
            let over = STEP[hole][d];
            if over != NONE {
                let land = STEP[over as usize][d];
                if land != NONE {
                    table[hole].over[d] = bit(over);
                    table[hole].land[d] = bit(land);
                }
            }
            d += 1;
        }
        hole += 1;
    }
    table
}

const HOPS: [Hops; HOLES] = hop_table();

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

/// Landing holes of ordinary hops from `at` over pegs of `occupied` (landing holes not checked).
#[inline(always)]
fn short_hops(at: usize, occupied: u128) -> u128 {
    let hops = &HOPS[at];
    let mut lands = 0;
    for d in 0..6 {
        if occupied & hops.over[d] != 0 {
            lands |= hops.land[d];
        }
    }
    lands
}

/// Landing holes of long hops from `at` (rules: `jumps=long`; landing holes not checked).
fn long_hops(at: usize, occupied: u128) -> u128 {
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
        if ray[k + 1..land].iter().all(|&hole| occupied & bit(hole) == 0) {
            lands |= bit(ray[land]);
        }
    }
    lands
}

#[inline(always)]
fn hops(at: usize, occupied: u128, long: bool) -> u128 {
    if long {
        long_hops(at, occupied)
    } else {
        short_hops(at, occupied)
    }
}

/// What the final holes of every peg of the seat to move depend on.
struct Context {
    occupied: u128,
    long: bool,
    swap: bool,
    /// Where moves may end (resting rule).
    rest: u128,
    /// Pegs the mover may swap with: other players' pegs.
    others: u128,
}

impl Context {
    /// The final holes of the peg on `from` whose target is `target`.
    #[inline(always)]
    fn ends(&self, from: usize, target: u128) -> u128 {
        let from_bit = 1u128 << from;
        // The moving peg leaves its hole: it is empty during the move, but never a landing.
        let occupied = self.occupied & !from_bit;
        let empty = BOARD & !occupied;
        let mut ends = NEIGHBOURS[from] & empty;
        if target & from_bit != 0 {
            ends &= target;
        }
        let mut reached = from_bit;
        let mut frontier = from_bit;
        while frontier != 0 {
            let at = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let mut lands = hops(at, occupied, self.long) & empty & !reached;
            if target & (1u128 << at) != 0 {
                lands &= target;
            }
            reached |= lands;
            frontier |= lands;
        }
        ends |= reached & !from_bit;
        if self.swap && self.occupied & target == target {
            let victims = target & self.others;
            if victims != 0 {
                let mut swaps = NEIGHBOURS[from] & victims;
                let mut starts = reached;
                while starts != 0 {
                    let at = starts.trailing_zeros() as usize;
                    starts &= starts - 1;
                    swaps |= hops(at, occupied, self.long) & victims;
                }
                ends |= swaps;
            }
        }
        ends & self.rest
    }
}

impl ChineseCheckers {
    fn context(&self) -> Context {
        let seat = self.seat();
        let own = self.variant.sets_of(seat);
        let mut others = 0;
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                others |= self.pegs[set];
            }
        }
        Context {
            occupied: self.occupied(),
            long: self.variant.long_jumps,
            swap: self.variant.anti_spoiling == AntiSpoiling::Swap,
            rest: self.variant.rest_mask(seat),
            others,
        }
    }

    /// Calls `found(set, from, ends)` for every peg of the seat to move with its final holes.
    #[inline(always)]
    fn for_each_peg(&self, mut found: impl FnMut(usize, usize, u128)) {
        let context = self.context();
        let own = self.variant.sets_of(self.seat());
        for set in 1..=POINTS {
            if own & (1 << set) == 0 {
                continue;
            }
            let target = target_mask(set);
            let mut pegs = self.pegs[set];
            while pegs != 0 {
                let from = pegs.trailing_zeros() as usize;
                pegs &= pegs - 1;
                found(set, from, context.ends(from, target));
            }
        }
    }

    /// The number of legal moves (a forced pass counts as one; none once the game is over).
    pub(crate) fn fast_count(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        let mut count = 0;
        self.for_each_peg(|_, _, ends| count += u64::from(ends.count_ones()));
        count.max(1)
    }

    /// The position after moving the peg of `set` from `from` to `to` (a swap if `to` is taken).
    fn after_fast(&self, set: usize, from: usize, to: usize) -> ChineseCheckers {
        let mut next = self.clone();
        let (from_bit, to_bit) = (1u128 << from, 1u128 << to);
        next.pegs[set] ^= from_bit | to_bit;
        for (other, pegs) in next.pegs.iter_mut().enumerate() {
            if other != set && *pegs & to_bit != 0 {
                *pegs ^= from_bit | to_bit;
            }
        }
        next.to_move = self.next_seat(self.seat()) as u8;
        next
    }

    /// Move sequences of length `depth`, counting the last ply in bulk.
    pub(crate) fn fast_perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.fast_count(),
            _ => {
                if self.winner().is_some() {
                    return 0;
                }
                let mut total = 0;
                let mut moved = false;
                self.for_each_peg(|set, from, mut ends| {
                    while ends != 0 {
                        let to = ends.trailing_zeros() as usize;
                        ends &= ends - 1;
                        moved = true;
                        total += self.after_fast(set, from, to).fast_perft(depth - 1);
                    }
                });
                if !moved {
                    let mut next = self.clone();
                    next.to_move = self.next_seat(self.seat()) as u8;
                    total = next.fast_perft(depth - 1);
                }
                total
            }
        }
    }
}
