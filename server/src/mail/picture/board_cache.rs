//! The boards drawn so far (one per variant and board size, keyed by the board layer's SVG),
//! kept for the process: a card of a known board only pastes its cells.

use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use rustc_hash::FxHashMap;

use super::board_layers::BoardLayers;
use super::layers::Layers;
use super::{PictureError, Png};

/// Boards kept at most (every variant and size of today's games is a dozen); past it, all
/// are dropped and drawn again as cards need them.
const BOARDS: usize = 48;

// Keyed by the board's SVG text (a few kilobytes, hashed for every card): a fast hash, our
// own drawings being the only keys.
static CACHE: LazyLock<Mutex<FxHashMap<String, Arc<BoardLayers>>>> =
    LazyLock::new(|| Mutex::new(FxHashMap::default()));

/// Draws the picture of `layers` with the cached board (made now if new).
///
/// # Errors
/// [`PictureError`] if the board or a cell cannot be drawn, or the PNG not encoded.
pub(super) fn picture(layers: &Layers) -> Result<Png, PictureError> {
    let known = lock().get(layers.board).cloned();
    let board = match known {
        Some(board) => board,
        None => {
            // Made outside the lock; two threads may both make a new board, one is kept.
            let made = Arc::new(BoardLayers::new(layers)?);
            let mut boards = lock();
            if boards.len() >= BOARDS {
                boards.clear();
            }
            Arc::clone(boards.entry(layers.board.to_owned()).or_insert(made))
        }
    };
    board.picture(layers)
}

/// The cache; a poisoned lock is used as it is (boards are only added whole).
fn lock() -> std::sync::MutexGuard<'static, FxHashMap<String, Arc<BoardLayers>>> {
    CACHE.lock().unwrap_or_else(PoisonError::into_inner)
}
