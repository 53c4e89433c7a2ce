//! The colours of one board's drawings, each given a number once: the board layer and every
//! cell drawing are kept as these numbers, and a card turns the numbers it uses into its own
//! palette ([`super::card_palette`]).
//!
//! A board's drawings hold a few flat colours (the board, the pegs, the ink) and the
//! antialiased edges between them. A colour within [`CLOSE`] on every channel of one already
//! numbered takes that number, so an edge's shades take a few dozen numbers, not hundreds.

use std::collections::HashMap;

/// A colour with its opacity, not premultiplied (RGBA).
pub(super) type Rgba = [u8; 4];

/// The most a colour may differ from the one whose number it takes, on any channel.
pub(super) const CLOSE: u8 = 6;
/// Numbers given at most (a board of every peg colour with highlights uses a few hundred);
/// past it, a colour takes its nearest's.
const LIMIT: usize = 4096;

/// A growing table of colours: entries are only added, so numbers once given stay valid.
#[derive(Debug, Clone, Default)]
pub(super) struct ColourTable {
    colours: Vec<Rgba>,
    /// Every colour already given a number (its own or its near one's).
    given: HashMap<Rgba, u16>,
}

impl ColourTable {
    /// The colours, by number.
    pub(super) fn colours(&self) -> &[Rgba] {
        &self.colours
    }

    /// The number for `colour`, adding it if no colour near enough has one.
    pub(super) fn number(&mut self, colour: Rgba) -> u16 {
        if let Some(&number) = self.given.get(&colour) {
            return number;
        }
        let number = match nearest(&self.colours, colour) {
            Some((number, distance)) if distance <= CLOSE => number,
            Some((number, _)) if self.colours.len() >= LIMIT => number,
            _ => {
                self.colours.push(colour);
                u16::try_from(self.colours.len() - 1).unwrap_or(u16::MAX)
            }
        };
        self.given.insert(colour, number);
        number
    }

    /// Numbers for the colours of a layer, the most used first (so a flat colour, not one of
    /// its edge's shades, stands for its neighbourhood).
    pub(super) fn number_layer(&mut self, colours: &[Rgba]) -> Vec<u16> {
        let mut counts: HashMap<Rgba, usize> = HashMap::new();
        for colour in colours {
            *counts.entry(*colour).or_default() += 1;
        }
        let mut by_use: Vec<(Rgba, usize)> = counts.into_iter().collect();
        by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let numbers: HashMap<Rgba, u16> = by_use
            .into_iter()
            .map(|(colour, _)| (colour, self.number(colour)))
            .collect();
        colours
            .iter()
            .map(|colour| numbers.get(colour).copied().unwrap_or_default())
            .collect()
    }
}

/// The entry of `colours` nearest to `colour` (by the sum of the squared differences), with
/// its largest difference on one channel; None for no entries.
pub(super) fn nearest(colours: &[Rgba], colour: Rgba) -> Option<(u16, u8)> {
    let mut best: Option<(usize, u32)> = None;
    for (index, entry) in colours.iter().enumerate() {
        let distance = (0..4)
            .map(|c| u32::from(entry[c].abs_diff(colour[c])).pow(2))
            .sum::<u32>();
        if best.is_none_or(|(_, least)| distance < least) {
            best = Some((index, distance));
        }
    }
    best.and_then(|(index, _)| {
        let entry = colours.get(index)?;
        let largest = (0..4).map(|c| entry[c].abs_diff(colour[c])).max()?;
        Some((u16::try_from(index).unwrap_or(u16::MAX), largest))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_colours_get_their_own_numbers_and_keep_them() {
        let mut table = ColourTable::default();
        let board = table.number([232, 201, 143, 255]);
        let ink = table.number([90, 61, 26, 255]);
        assert_ne!(board, ink);
        assert_eq!(table.number([232, 201, 143, 255]), board);
        assert_eq!(table.colours()[usize::from(ink)], [90, 61, 26, 255]);
    }

    #[test]
    fn close_shades_share_a_number_and_a_full_table_gives_the_nearest() {
        let mut table = ColourTable::default();
        let grey = table.number([100, 100, 100, 255]);
        assert_eq!(table.number([104, 97, 101, 255]), grey);
        assert_ne!(table.number([110, 100, 100, 255]), grey);
        assert_ne!(table.number([100, 100, 100, 200]), grey, "opacity counts");
        for red in 0..16u8 {
            for green in 0..16u8 {
                for blue in 0..16u8 {
                    table.number([red * 16, green * 16, blue * 16, 255]);
                }
            }
        }
        assert_eq!(table.colours().len(), LIMIT);
        let (nearest_white, distance) = nearest(table.colours(), [255, 255, 255, 255]).unwrap();
        assert_eq!(table.number([255, 255, 255, 255]), nearest_white);
        assert!(distance > CLOSE);
        assert_eq!(table.colours().len(), LIMIT);
    }

    #[test]
    fn a_layers_common_colours_come_first() {
        let mut table = ColourTable::default();
        let mut layer = vec![[1, 2, 3, 255]; 2];
        layer.extend(vec![[200, 200, 200, 255]; 50]);
        let numbers = table.number_layer(&layer);
        assert_eq!(numbers[0], 1);
        assert_eq!(numbers[2], 0);
        assert_eq!(table.colours(), [[200, 200, 200, 255], [1, 2, 3, 255]]);
    }
}
