//! The colours of one board's pictures: at most 256, shared by every card of the board so that
//! the board layer and each cell's drawing are turned into palette indices once.
//!
//! A board's pictures hold a few flat colours (the board, the pegs, the ink) and the
//! antialiased edges between them. Flat colours get their own entries first; an edge colour
//! reuses an entry that is within [`CLOSE`] on every channel, so the shades of an edge take a
//! few dozen entries rather than hundreds; when the palette is full, a colour gets its nearest
//! entry.

use std::collections::HashMap;

/// An RGB colour.
pub(super) type Rgb = [u8; 3];

/// The most a colour may differ from the entry it reuses, on any channel.
const CLOSE: u8 = 3;
/// Entries kept for flat colours: edge shades may fill the palette only up to here.
const SHADE_LIMIT: usize = 232;
/// Entries of a PNG palette.
const SIZE: usize = 256;
/// How many pixels of a layer a colour must cover to count as flat.
pub(super) const FLAT_PIXELS: usize = 12;

/// A growing palette: entries are only added, so indices once given stay valid.
#[derive(Debug, Clone, Default)]
pub(super) struct Palette {
    colours: Vec<Rgb>,
    /// Every colour already given an index (its own entry or the one it reuses).
    given: HashMap<Rgb, u8>,
}

impl Palette {
    /// The entries, in index order.
    pub(super) fn colours(&self) -> &[Rgb] {
        &self.colours
    }

    /// The index for `colour`, adding an entry if it has none near enough and there is room
    /// (`flat` colours may use the entries kept for them).
    pub(super) fn index(&mut self, colour: Rgb, flat: bool) -> u8 {
        if let Some(&index) = self.given.get(&colour) {
            return index;
        }
        let nearest = nearest(&self.colours, colour);
        let limit = if flat { SIZE } else { SHADE_LIMIT };
        let index = match nearest {
            Some((index, distance)) if distance <= CLOSE => index,
            _ if self.colours.len() < limit => {
                self.colours.push(colour);
                // At most SIZE entries, so the new index fits a byte.
                u8::try_from(self.colours.len() - 1).unwrap_or(u8::MAX)
            }
            Some((index, _)) => index,
            None => 0,
        };
        self.given.insert(colour, index);
        index
    }

    /// Indices for the colours of a layer: the most used first, so that flat colours get
    /// their entries before the shades of their edges.
    pub(super) fn index_layer(&mut self, colours: &[Rgb]) -> HashMap<Rgb, u8> {
        let mut counts: HashMap<Rgb, usize> = HashMap::new();
        for colour in colours {
            *counts.entry(*colour).or_default() += 1;
        }
        let mut by_use: Vec<(Rgb, usize)> = counts.into_iter().collect();
        by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        by_use
            .into_iter()
            .map(|(colour, count)| (colour, self.index(colour, count >= FLAT_PIXELS)))
            .collect()
    }
}

/// The entry of `colours` nearest to `colour` (by the largest difference on one channel, then
/// by the sum), with that largest difference; None for no entries.
pub(super) fn nearest(colours: &[Rgb], colour: Rgb) -> Option<(u8, u8)> {
    let mut best: Option<(usize, u8, u16)> = None;
    for (index, entry) in colours.iter().enumerate() {
        let diffs = [0, 1, 2].map(|c| entry[c].abs_diff(colour[c]));
        let largest = diffs[0].max(diffs[1]).max(diffs[2]);
        let sum = diffs.iter().map(|d| u16::from(*d)).sum::<u16>();
        if best.is_none_or(|(_, l, s)| (largest, sum) < (l, s)) {
            best = Some((index, largest, sum));
        }
    }
    best.map(|(index, largest, _)| (u8::try_from(index).unwrap_or(u8::MAX), largest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_colours_get_their_own_entries_and_keep_them() {
        let mut palette = Palette::default();
        let board = palette.index([232, 201, 143], true);
        let ink = palette.index([90, 61, 26], true);
        assert_ne!(board, ink);
        assert_eq!(palette.index([232, 201, 143], true), board);
        assert_eq!(palette.colours()[usize::from(ink)], [90, 61, 26]);
    }

    #[test]
    fn close_shades_share_an_entry_and_a_full_palette_gives_the_nearest() {
        let mut palette = Palette::default();
        let grey = palette.index([100, 100, 100], false);
        assert_eq!(palette.index([102, 99, 101], false), grey);
        assert_ne!(palette.index([110, 100, 100], false), grey);
        for red in 0..16u8 {
            for green in 0..16u8 {
                palette.index([red * 16, green * 16, 7], false);
            }
        }
        assert_eq!(palette.colours().len(), SHADE_LIMIT, "shades stop short");
        for level in 0..52u8 {
            palette.index([level * 5, level * 5, 200], true);
        }
        assert_eq!(palette.colours().len(), SIZE, "flat colours fill it");
        let white = palette.index([255, 255, 255], true);
        assert_eq!(palette.colours().len(), SIZE);
        let (nearest_white, distance) = nearest(palette.colours(), [255, 255, 255]).unwrap();
        assert_eq!(nearest_white, white);
        assert!(distance > CLOSE);
    }

    #[test]
    fn a_layers_common_colours_come_first() {
        let mut palette = Palette::default();
        let mut layer = vec![[1, 2, 3]; 2];
        layer.extend(vec![[200, 200, 200]; 50]);
        let indices = palette.index_layer(&layer);
        assert_eq!(indices[&[200, 200, 200]], 0);
        assert_eq!(indices[&[1, 2, 3]], 1);
    }
}
