//! A fixed-size set of cell indices: the largest board (`lines=7`) has 301 cells.

use std::ops::{BitAnd, BitOr, Not};

const WORDS: usize = 5;

/// Cell indices `0..320` as bits; only indices of real cells are ever set by the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bits([u64; WORDS]);

impl Bits {
    pub(crate) const EMPTY: Bits = Bits([0; WORDS]);

    /// The set holding only `index`.
    pub(crate) fn single(index: usize) -> Bits {
        let mut bits = Bits::EMPTY;
        bits.insert(index);
        bits
    }

    pub(crate) fn contains(self, index: usize) -> bool {
        self.0
            .get(index / 64)
            .is_some_and(|word| word & (1 << (index % 64)) != 0)
    }

    pub(crate) fn insert(&mut self, index: usize) {
        if let Some(word) = self.0.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }

    pub(crate) fn remove(&mut self, index: usize) {
        if let Some(word) = self.0.get_mut(index / 64) {
            *word &= !(1 << (index % 64));
        }
    }

    pub(crate) fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0.iter().all(|word| *word == 0)
    }

    /// The indices in the set, in increasing order.
    pub(crate) fn iter(self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

impl BitAnd for Bits {
    type Output = Bits;

    fn bitand(self, other: Bits) -> Bits {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        out
    }
}

impl BitOr for Bits {
    type Output = Bits;

    fn bitor(self, other: Bits) -> Bits {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        out
    }
}

impl Not for Bits {
    type Output = Bits;

    fn not(self) -> Bits {
        let mut out = self;
        for a in &mut out.0 {
            *a = !*a;
        }
        out
    }
}

/// Iterates the indices of a [`Bits`], lowest first.
pub(crate) struct BitsIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while let Some(bits) = self.words.get_mut(self.word) {
            if *bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_iterate_in_order() {
        let mut bits = Bits::EMPTY;
        for index in [300, 0, 63, 64, 128] {
            bits.insert(index);
        }
        assert_eq!(bits.iter().collect::<Vec<_>>(), [0, 63, 64, 128, 300]);
        assert_eq!(bits.count(), 5);
        bits.remove(63);
        assert!(!bits.contains(63) && bits.contains(64));
        assert_eq!((bits & Bits::single(300)).iter().next(), Some(300));
        assert!((bits & !bits).is_empty());
    }
}
