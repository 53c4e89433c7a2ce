//! One board's pictures: its board layer (background and labels) rasterised and indexed
//! once, the palette its cards share, and each cell drawing once drawn. A card copies the
//! board layer and pastes its cells' drawings in order: no text is shaped, no shape filled.

use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::card_palette::CardPalette;
use super::cell_sprite::{CellPixels, CellSprite};
use super::colour_table::{ColourTable, Rgba};
use super::fonts::SYSTEM_FONTS;
use super::indexed_png::encode_indexed;
use super::layers::Layers;
use super::reference::rasterise;
use super::{PictureError, Png};

/// The most memory one board's cell drawings may take; past it they are dropped and drawn
/// again as cards need them (a board of 121 cells in 7 colours, highlights included, fits).
const CELLS_BUDGET: usize = 24 << 20;

/// One board's layer, palette and cell drawings.
#[derive(Debug)]
pub(super) struct BoardLayers {
    width: u32,
    height: u32,
    scale: f32,
    /// The board layer as colour numbers (its colours are the table's first), row by row.
    board: Vec<u8>,
    /// How many colours the board layer has.
    board_colours: usize,
    cells: Mutex<Cells>,
}

/// What grows as cards are drawn.
#[derive(Debug, Default)]
struct Cells {
    table: ColourTable,
    /// By the cell's SVG text (every cell of every card looks itself up: a fast hash).
    drawn: FxHashMap<String, Arc<CellSprite>>,
    cost: usize,
}

impl BoardLayers {
    /// Rasterises and numbers the board layer of `layers`.
    ///
    /// # Errors
    /// [`PictureError`] if the board layer cannot be parsed, has no pixels or has more
    /// colours than a palette holds.
    pub(super) fn new(layers: &Layers) -> Result<Self, PictureError> {
        let board = format!("{}</svg>", layers.board);
        let (pixmap, scale) = rasterise(&board, Arc::clone(&SYSTEM_FONTS))?;
        let (width, height) = (pixmap.width(), pixmap.height());
        // Colours as PNG keeps them, not premultiplied (the edges of the background are
        // partly transparent).
        let colours: Vec<Rgba> = pixmap
            .pixels()
            .iter()
            .map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        let mut table = ColourTable::default();
        let numbers = table.number_layer(&colours);
        let board_colours = table.colours().len();
        // A palette PNG holds 256 colours; a board of more is drawn whole.
        let board = numbers
            .into_iter()
            .map(u8::try_from)
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|_| PictureError::Colours(board_colours))?;
        Ok(Self {
            width,
            height,
            scale,
            board,
            board_colours,
            cells: Mutex::new(Cells {
                table,
                ..Cells::default()
            }),
        })
    }

    /// Draws the card whose cells are `layers.cells` on this board, as a palette PNG.
    ///
    /// # Errors
    /// [`PictureError`] if a cell cannot be drawn or the PNG not encoded.
    pub(super) fn picture(&self, layers: &Layers) -> Result<Png, PictureError> {
        let mut sprites: Vec<Option<Arc<CellSprite>>> = {
            let cells = self.lock();
            layers
                .cells
                .iter()
                .map(|cell| cells.drawn.get(*cell).cloned())
                .collect()
        };
        // Cells not drawn before are rasterised outside the lock: other cards go on.
        let mut new = Vec::new();
        for (at, cell) in layers.cells.iter().enumerate() {
            if sprites.get(at).is_some_and(Option::is_none) {
                let size = (self.width, self.height);
                new.push((at, CellPixels::draw(layers.header, cell, self.scale, size)?));
            }
        }
        let table = {
            let mut cells = self.lock();
            for (at, pixels) in new {
                let Some(key) = layers.cells.get(at) else {
                    continue;
                };
                let stride = self.stride();
                let sprite = match cells.drawn.get(*key) {
                    Some(sprite) => Arc::clone(sprite),
                    None => {
                        let sprite =
                            Arc::new(pixels.over_board(&self.board, stride, &mut cells.table));
                        if cells.cost + sprite.cost() > CELLS_BUDGET {
                            cells.drawn.clear();
                            cells.cost = 0;
                        }
                        cells.cost += sprite.cost();
                        cells.drawn.insert((*key).to_owned(), Arc::clone(&sprite));
                        sprite
                    }
                };
                if let Some(slot) = sprites.get_mut(at) {
                    *slot = Some(sprite);
                }
            }
            cells.table.colours().to_vec()
        };
        let mut palette = CardPalette::new(&table, self.board_colours)
            .ok_or(PictureError::Colours(self.board_colours))?;
        let mut picture = self.board.clone();
        for sprite in sprites.iter().flatten() {
            sprite.paste(&mut picture, &self.board, self.stride(), &mut palette);
        }
        Ok(Png {
            bytes: encode_indexed(&picture, self.width, self.height, palette.entries())?,
            width: self.width,
            height: self.height,
        })
    }

    fn stride(&self) -> usize {
        usize::try_from(self.width).unwrap_or(0)
    }

    /// The growing part; a thread that panicked holding it left it whole (entries are only
    /// added), so a poisoned lock is used as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Cells> {
        self.cells.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
