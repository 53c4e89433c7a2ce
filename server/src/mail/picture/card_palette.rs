//! One card's palette: the board layer's colours first (the copied board layer's indices are
//! theirs), then each colour of the board's [`ColourTable`] the card's cells use, in the order
//! they are pasted. A card with more than 256 colours gives the rest their nearest entry.

use rustc_hash::FxHashMap;

use super::colour_table::{nearest, Rgba, CLOSE};

/// Entries of a PNG palette.
const SIZE: usize = 256;
/// Marks a table number the card has not used yet.
const UNUSED: u16 = u16::MAX;

/// A card's palette as it is filled.
#[derive(Debug)]
pub(super) struct CardPalette<'a> {
    /// The board's colours by number (a copy taken for this card).
    table: &'a [Rgba],
    entries: Vec<Rgba>,
    /// The entry of each table number used so far ([`UNUSED`] for none).
    entry_of: Vec<u16>,
    /// Entries of colours blended on the card (where cells overlap).
    blended: FxHashMap<Rgba, u8>,
}

impl<'a> CardPalette<'a> {
    /// A palette whose first `board` entries are table numbers `0..board`, the colours of
    /// the board layer; None if they are more than a palette holds.
    pub(super) fn new(table: &'a [Rgba], board: usize) -> Option<Self> {
        if board > SIZE {
            return None;
        }
        let mut entry_of = vec![UNUSED; table.len()];
        for (number, entry) in entry_of.iter_mut().take(board).enumerate() {
            *entry = u16::try_from(number).ok()?;
        }
        Some(Self {
            table,
            entries: table.get(..board)?.to_vec(),
            entry_of,
            blended: FxHashMap::default(),
        })
    }

    /// The entries, in index order.
    pub(super) fn entries(&self) -> &[Rgba] {
        &self.entries
    }

    /// The colour of entry `index`.
    pub(super) fn colour(&self, index: u8) -> Rgba {
        self.entries
            .get(usize::from(index))
            .copied()
            .unwrap_or_default()
    }

    /// The entry for table number `number`.
    pub(super) fn entry(&mut self, number: u16) -> u8 {
        let slot = usize::from(number);
        if let Some(&entry) = self.entry_of.get(slot) {
            if entry != UNUSED {
                return u8::try_from(entry).unwrap_or(u8::MAX);
            }
        }
        let colour = self.table.get(slot).copied().unwrap_or_default();
        let entry = self.add(colour);
        if let Some(known) = self.entry_of.get_mut(slot) {
            *known = u16::from(entry);
        }
        entry
    }

    /// The entry for a colour blended on this card: an entry near enough, else a new one,
    /// else (the palette full) the nearest.
    pub(super) fn blended(&mut self, colour: Rgba) -> u8 {
        if let Some(&entry) = self.blended.get(&colour) {
            return entry;
        }
        let entry = match nearest(&self.entries, colour) {
            Some((entry, distance)) if distance <= CLOSE => u8::try_from(entry).unwrap_or(0),
            _ => self.add(colour),
        };
        self.blended.insert(colour, entry);
        entry
    }

    /// A new entry for `colour`, or the nearest when the palette is full.
    fn add(&mut self, colour: Rgba) -> u8 {
        if self.entries.len() < SIZE {
            self.entries.push(colour);
            return u8::try_from(self.entries.len() - 1).unwrap_or(u8::MAX);
        }
        nearest(&self.entries, colour)
            .and_then(|(entry, _)| u8::try_from(entry).ok())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_comes_first_then_the_cells_colours_as_used() {
        let table = [
            [1, 1, 1, 255],
            [2, 2, 2, 255],
            [100, 0, 0, 255],
            [0, 100, 0, 255],
        ];
        let mut palette = CardPalette::new(&table, 2).unwrap();
        assert_eq!(palette.entry(1), 1);
        assert_eq!(palette.entry(3), 2);
        assert_eq!(palette.entry(2), 3);
        assert_eq!(palette.entry(3), 2);
        assert_eq!(palette.entries(), [table[0], table[1], table[3], table[2]]);
        assert_eq!(
            palette.blended([101, 1, 0, 255]),
            3,
            "near enough to an entry"
        );
        assert_eq!(palette.blended([50, 50, 50, 255]), 4);
        assert_eq!(palette.colour(4), [50, 50, 50, 255]);
    }

    #[test]
    fn a_full_palette_gives_the_nearest_entry() {
        let table: Vec<Rgba> = (0..=255u8)
            .map(|v| [v, 0, 0, 255])
            .chain([[0, 0, 255, 255]])
            .collect();
        let mut palette = CardPalette::new(&table, 256).unwrap();
        assert_eq!(palette.entry(256), 0, "no room for blue: nearest is black");
        assert_eq!(palette.entries().len(), 256);
        assert!(CardPalette::new(&table, 257).is_none());
    }
}
